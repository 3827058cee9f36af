package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A user's strings (a trace label, a buffer name, a config name, a path in
// an error) print as text: no terminal control reaches the terminal from
// a text output or an error; csv and json keep them as their own quoting
// does.
func TestTextOutputEscapesControls(t *testing.T) {
	evil := `\u001b]0;pwned\u0007\u001b[2J`
	tr := traceFile(t, `{"op":"malloc","buf":"a","gcd":0,"bytes":4096}
{"op":"malloc","buf":"b","gcd":1,"bytes":4096}
{"op":"memcpy","src":"a","dst":"b","bytes":4096,"label":"`+evil+`"}
`)
	raw := "\x1b]0;pwned\a\x1b[2J"
	shown := `\x1b]0;pwned\a\x1b[2J`
	code, out, errs := akisim(t, "-trace", tr, "-quiet")
	if code != 0 || strings.ContainsAny(out, "\x1b\a") || !strings.Contains(out, shown) {
		t.Errorf("-format text: exit %d (%s), stdout %q: want the label escaped", code, errs, out)
	}
	if _, csv, _ := akisim(t, "-trace", tr, "-format", "csv"); !strings.Contains(csv, raw) {
		t.Errorf("-format csv: %q, want the label as it is", csv)
	}
	if _, js, _ := akisim(t, "-trace", tr, "-format", "json"); !strings.Contains(js, `\u001b]0;pwned\u0007\u001b[2J`) {
		t.Errorf("-format json: %q, want JSON's escapes", js)
	}
	// a config's name in routes' text, an error quoting input
	b, _ := os.ReadFile("../../configs/frontier-node.toml")
	cfg := filepath.Join(t.TempDir(), "evil.toml")
	os.WriteFile(cfg, []byte(strings.Replace(string(b), `name = "frontier-node"`, `name = "`+evil+`"`, 1)), 0o644)
	if code, out, errs := akisim(t, "routes", "-config", cfg); code != 0 || strings.ContainsAny(out, "\x1b\a") || !strings.Contains(out, shown) {
		t.Errorf("routes: exit %d (%s), stdout %.200q", code, errs, out)
	}
	for _, args := range [][]string{
		{"-config", raw + ".toml"},
		{"-trace", tr + raw},
		{"-set", "name=" + raw},
		{"osu", "-bench", raw},
	} {
		code, _, errs := akisim(t, args...)
		if code != 2 || strings.ContainsAny(errs, "\x1b\a") || !strings.Contains(errs, shown) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q: want 2 and one line, the input escaped", args, code, errs)
		}
	}
}

// Every string flag given an empty value is refused, naming the flag: an
// empty -trace, -outdir or -gcds would otherwise mean the default. The
// flags come from akisim's own usage, so a new flag is covered too.
func TestEmptyFlagValuesRefused(t *testing.T) {
	var usage strings.Builder
	if _, err := parse([]string{"-h"}, &usage); err == nil {
		t.Fatal("-h parsed")
	}
	var runFlags []string
	for _, l := range strings.Split(usage.String(), "\n") {
		if f := strings.Fields(l); len(f) == 2 && strings.HasPrefix(f[0], "-") && (f[1] == "string" || f[1] == "value") {
			runFlags = append(runFlags, f[0])
		}
	}
	if len(runFlags) < 20 {
		t.Fatalf("found %d string flags in the usage: %v", len(runFlags), runFlags)
	}
	noSimulation(t)
	good := filepath.Join(t.TempDir(), "g.csv")
	os.WriteFile(good, []byte("workload,case,src,dst,bytes,metric,value,unit\np2p,u,gcd0,gcd1,1,bandwidth,1,GB/s\n"), 0o644)
	var cases [][]string
	for _, f := range runFlags {
		cases = append(cases, []string{f, ""})
	}
	for _, f := range []string{"-o", "-outdir", "-kind", "-workload", "-case", "-src", "-dst", "-metric", "-x", "-where"} {
		cases = append(cases, []string{"plot", good, f, ""})
	}
	cases = append(cases, []string{"import", "rocprof", "profile/testdata/rocprofv3-json", "-o", "t.jsonl", "-config", ""},
		[]string{"import", "rocprof", "profile/testdata/rocprofv3-json", "-o", ""},
		[]string{"compare", "gem5", "profile/testdata/gem5", "-debug", ""},
		[]string{"sweep", "-set", "xgmi.bundle[0-1].lanes=1,2", "-outdir", ""},
		[]string{"sweep", "-set", "xgmi.bundle[0-1].lanes=1,2", "-outdir", "D", "-slurm", "-partition", ""},
		[]string{"sweep", "-set", "xgmi.bundle[0-1].lanes=1,2", "-outdir", t.TempDir(), "-trace", ""})
	for _, args := range cases {
		flagName := args[len(args)-2]
		wantBad(t, args, flagName+": empty value")
	}
}

// A flag that names a config key (-nodes is network.nodes, -env NAME is
// env.NAME): its errors name it as typed, and it conflicts with a -set of
// the same key, in a run and in a sweep (whose labels would lie).
func TestFlagAliasesOfConfigKeys(t *testing.T) {
	noSimulation(t)
	sweepDir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-env", "HSA_XNACK=7"}, "akisim: -env HSA_XNACK=7: must be 0..1, got 7"},
		{[]string{"-env", "HSA_FOO=1"}, `akisim: -env HSA_FOO=1: unknown key "env.HSA_FOO"`},
		{[]string{"-env", "HSA_XNACK"}, "akisim: -env HSA_XNACK: want NAME=VALUE"},
		{[]string{"osu", "-nodes", "100000"}, "akisim: -nodes 100000: must be 1..16384, got 100000"},
		{[]string{"osu", "-nodes", "2", "-set", "network.nodes=1"}, "-nodes 2 and -set network.nodes=1: both set network.nodes"},
		{[]string{"-env", "HSA_XNACK=1", "-set", "env.HSA_XNACK=0"}, "-env HSA_XNACK=1 and -set env.HSA_XNACK=0: both set env.HSA_XNACK"},
		{[]string{"-env", "HSA_XNACK=1", "-env", "HSA_XNACK=0"}, "akisim: -env HSA_XNACK=1 and -env HSA_XNACK=0: both set env.HSA_XNACK; give one"},
		// issue 43: a repeated -set is refused as a repeated -env is, however spelled
		{[]string{"-set", "gcd.clock_ghz=1", "-set", "gcd.clock_ghz=2"}, "akisim: -set gcd.clock_ghz=1 and -set gcd.clock_ghz=2: both set gcd.clock_ghz; give one"},
		{[]string{"-set", "xgmi.bundle[*].lanes=2", "-set", "xgmi.bundle[0-1].lanes=0"}, "akisim: -set xgmi.bundle[*].lanes=2 and -set xgmi.bundle[0-1].lanes=0: both set xgmi.bundle[0].lanes; give one"},
		{[]string{"-set", "env={HSA_XNACK=1}", "-env", "HSA_XNACK=0"}, "akisim: -set env={HSA_XNACK=1} and -env HSA_XNACK=0: both set env.HSA_XNACK; give one"},
		{[]string{"-set", "stack.rocm_release[0].rocm=5.7"}, `akisim: -set stack.rocm_release[0].rocm=5.7: stack.rocm_release[1].rocm: must name a release once, got "5.7" (also stack.rocm_release[0])`},
		{[]string{"sweep", "-set", "network.nodes=1,2", "osu", "-nodes", "2", "-outdir", sweepDir}, "sweep point 0 (network.nodes=1): -nodes 2 and -set network.nodes=1: both set network.nodes"},
		{[]string{"sweep", "-env", "HSA_XNACK=0,1", "-set", "env.HSA_XNACK=1", "-outdir", sweepDir}, "env.HSA_XNACK: given twice"},
		{[]string{"-config", "configs"}, "config configs: is a directory"},
		{[]string{"-config", sweepDir}, "config " + sweepDir + ": is a directory"},
	} {
		wantBad(t, c.args, c.want)
	}
}
