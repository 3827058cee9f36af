package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/output"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/run"
)

// akisim runs the command from the repository root and returns its exit
// status, stdout and stderr.
func akisim(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir("../.."); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out, errb bytes.Buffer
	code := cli(args, &out, &errb)
	return code, out.String(), errb.String()
}

// wantBad runs akisim with args and wants bad input: exit 2, no output, one
// line on stderr containing want.
func wantBad(t *testing.T, args []string, want string) {
	t.Helper()
	code, out, errs := akisim(t, args...)
	if code != 2 || out != "" {
		t.Errorf("%v: exit %d, output %q, want 2 and none (stderr %q)", args, code, out, errs)
	}
	if strings.Count(strings.TrimRight(errs, "\n"), "\n") != 0 || !strings.Contains(errs, want) {
		t.Errorf("%v: stderr %q, want one line containing %q", args, errs, want)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Error(err)
	}
	return string(b)
}

// traceFile writes the trace text to a file of its own and returns its path.
func traceFile(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "trace.jsonl")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// goodTrace runs the trace text, written to a file, wants exit 0 and
// returns the csv output.
func goodTrace(t *testing.T, text string) string {
	t.Helper()
	code, out, errs := akisim(t, "-trace", traceFile(t, text), "-format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	return out
}

// badTrace runs the trace text, written to a file, and wants exit 2 and
// one line on stderr holding the file's name followed by want.
func badTrace(t *testing.T, text, want string) {
	t.Helper()
	p := traceFile(t, text)
	code, _, errs := akisim(t, "-trace", p)
	if want = p + want; code != 2 || !strings.Contains(errs, want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("exit %d, stderr %q; want 2 and %q", code, errs, want)
	}
}

// noSimulation makes the test fail if anything is simulated.
func noSimulation(t *testing.T) {
	t.Helper()
	saved := simulate
	simulate = func(c *config.Node, rs []job.Run, opts ...run.Option) (*run.Result, error) {
		t.Errorf("simulated despite bad input")
		return saved(c, rs, opts...)
	}
	t.Cleanup(func() { simulate = saved })
}

// Bad input exits 2 with one line, before anything is simulated and
// before any output is written.
func TestBadInputExitsTwoWithOneLine(t *testing.T) {
	dir := t.TempDir()
	badTrace := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(badTrace, []byte(`{"op":"malloc","buf":"a","gcd":0,"bytes":64}
{"op":"memcpy_async","src":"a","dst":"nope","bytes":64,"stream":1}
`), 0o644)
	good, err := os.ReadFile("../../configs/frontier-node.toml")
	if err != nil {
		t.Fatal(err)
	}
	badConfig := filepath.Join(dir, "bad.toml")
	os.WriteFile(badConfig, append([]byte("bogus = 1\n"), good...), 0o644)
	aFile := filepath.Join(dir, "file")
	os.WriteFile(aFile, nil, 0o644)
	typoTag := filepath.Join(dir, "typo.toml")
	os.WriteFile(typoTag, []byte("base = \"frontier-node.toml\"\n[gcd]\nreorder_ns = 390 # calibrated [E4 latncy]: a typo\n"), 0o644)
	cut := filepath.Join(dir, "cut.toml") // issue 43: its own lanes = 0 cut GCD 0 off
	os.WriteFile(cut, []byte("base = \"frontier-node.toml\"\n[[xgmi.bundle]]\ngcds = [0, 1]\nlanes = 0\n[[xgmi.bundle]]\ngcds = [0, 2]\nlanes = 0\n[[xgmi.bundle]]\ngcds = [0, 6]\nlanes = 0\n"), 0o644)
	notOurs := filepath.Join(dir, "notours")
	os.MkdirAll(notOurs, 0o755)
	os.WriteFile(filepath.Join(notOurs, "thesis.tex"), nil, 0o644)
	previous := filepath.Join(dir, "previous")
	if code, _, errs := akisim(t, smallStream("-outdir", previous)...); code != 0 {
		t.Fatalf("making a previous run: exit %d: %s", code, errs)
	}
	noSimulation(t)
	trace := []string{"-trace", "traces/peer-0-to-1.jsonl"}
	cases := []struct {
		args []string
		want string // part of the one-line message
	}{
		{[]string{"-config", "no-such.toml"}, "no-such.toml"},
		{[]string{"-config", badConfig}, badConfig + ":1: bogus"},
		{[]string{"-config", cut}, "akisim: " + cut + ":4: xgmi.bundle: GCD 0 cannot reach GCD 1"},
		{[]string{"-config", "/dev/zero"}, "/dev/zero: cannot read config: larger than 16 MiB"},
		{[]string{"-set", "xgmi.bundle[0-1].lanes=-1"}, "xgmi.bundle"},
		{[]string{"-set", "gcd.nope=1"}, "gcd.nope"},
		{[]string{"-set", "xgmi.bundle[0-1].lanes=0", "-set", "xgmi.bundle[0-2].lanes=0", "-set", "xgmi.bundle[0-6].lanes=0"}, "reach"},
		{[]string{"-trace", badTrace}, badTrace + ":2"},
		{[]string{"-trace", filepath.Join(dir, "missing.jsonl")}, "missing.jsonl"},
		{[]string{"-format", "xml"}, "-format"},
		{[]string{"-workload", "sideways"}, "-workload"},
		{[]string{"-workload", "stream", "-alloc", "9"}, "-alloc"},
		{[]string{"-workload", "stream", "-exec", "x"}, "-exec"},
		{[]string{"-workload", "stream", "-gcds", "0,9"}, "-gcds"},
		{[]string{"-workload", "stream", "-gcds", "0,0"}, "-gcds: 0 given twice"},
		{[]string{"-workload", "stream", "-gcds", "0,00"}, "-gcds: GCD 0 given twice"},
		{[]string{"-workload", "stream", "-sizes", "12,x"}, "-sizes"},
		{[]string{"-workload", "stream", "-sizes", "4096,4096"}, "-sizes: 4096 given twice"},
		{[]string{"-workload", "stream", "-kernels", "copy,sort"}, "sort"},
		{[]string{"-workload", "stream", "-kernels", "copy,"}, "-kernels: empty item"},
		{[]string{"-workload", "stream", "-passes", "0"}, "-passes: want a count >= 1, got 0"},
		{[]string{"-workload", "stream", "-sizes", "8589934592", "-passes", "100000"}, "-passes: 100000 passes over 8589934592-byte arrays need more than 4294967296 workgroups"},
		{[]string{"-passes", "2"}, "-passes: applies to -workload stream only"},
		{[]string{"-env", "HSA_FOO=1"}, "HSA_FOO"},
		{[]string{"-env", "HSA_ENABLE_SDMA=2"}, "HSA_ENABLE_SDMA"},
		{[]string{"-workload", "commscope", "-filter", "("}, "-filter"},
		{[]string{"-workload", "commscope", "-filter", "NoSuchBenchmark"}, "matches no benchmark"},
		{[]string{"-cases", "sideways"}, "-cases"},
		{[]string{"-cases", "latency,latency"}, "-cases: latency given twice"},
		{[]string{"-format", "gbench"}, "gbench"},
		{[]string{"-workload", "stream", "-format", "gbench"}, "gbench"},
		{[]string{"frobnicate"}, "unknown command"},
		// Flags that do not apply to the chosen workload.
		{[]string{"-filter", "x"}, "-filter: applies to -workload commscope only, not to p2p"},
		{[]string{"-workload", "stream", "-cases", "latency"}, "-cases: applies to -workload p2p only, not to stream"},
		{[]string{"-workload", "commscope", "-cases", "latency"}, "-cases: applies to -workload p2p only"},
		{[]string{"-exec", "1"}, "-exec: applies to -workload stream only"},
		{[]string{"-gcds", "0,4"}, "-gcds: applies to -workload stream or -workload osu or -workload rccl only, not to p2p"},
		{[]string{"-workload", "commscope", "-alloc", "host"}, "-alloc: applies to -workload stream only"},
		{[]string{"-sizes", "4096"}, "-sizes: applies to -workload stream or -workload osu or -workload rccl or -workload transferbench only"},
		{[]string{"-bench", "osu_bw"}, "-bench: applies to -workload osu or -workload rccl or -workload halo only, not to p2p"},
		{[]string{"osu", "-bench", "osu_sideways"}, "-bench: unknown OSU benchmark \"osu_sideways\""},
		{[]string{"osu", "-gcds", "0"}, "-gcds: osu_bw runs two ranks, got 1 GCDs"},
		{[]string{"osu", "-gcds", "0,8"}, "-gcds: want GCD ids 0..7"},
		{[]string{"osu", "-sizes", "3:8"}, "-sizes: want MIN:MAX, powers of two"},
		{[]string{"osu", "-sizes", "8:4"}, "-sizes: want MIN:MAX"},
		{[]string{"osu", "-sizes", "0"}, "-sizes: want byte counts 1..2^40 or MIN:MAX, got \"0\""},
		{[]string{"osu", "-nodes", "0"}, "-nodes: must be at least 1, got 0"},
		{[]string{"osu", "-gcds", "0,8"}, "-gcds"},
		{[]string{"osu", "-nodes", "2", "-gcds", "0,16"}, "-gcds"},
		{[]string{"osu", "-nodes", "2", "-set", "network.switch_ports=8", "-gcds", "0,8"}, "-set network.switch_ports=8: a switch needs 47 ports (16 NICs, 31 other switches of its group, 0 global links), got 8"},
		{[]string{"osu", "-alloc", "1"}, "-alloc: applies to -workload stream only, not to osu"},
		{[]string{"-kernels", "copy"}, "-kernels: applies to -workload stream only"},
		{append([]string{"-kernels", "copy"}, trace...), "-kernels: applies to -workload stream only, not to a -trace replay"},
		{[]string{"stream", "-workload", "p2p"}, "-workload p2p: the command already chose stream"},
		{[]string{"-workload", "stream", "-exec", "1", "-gcds", "0,4"}, "-exec and -gcds: give one of them"},
		{[]string{"-force"}, "-force: applies to -outdir only"},
		{[]string{"-version", "-cases", "latency"}, "-version: takes no command and no other flag"},
		{[]string{"validate", "-format", "csv"}, "-format: does not apply to akisim validate"},
		{[]string{"validate", "-timeline", "t.json"}, "-timeline: does not apply to akisim validate"},
		{[]string{"validate", "-outdir", dir}, "holds files akisim did not write"}, // its figures go into a run's folder, never over others' files
		{[]string{"validate", "-force"}, "-force: applies to -outdir only"},
		{[]string{"validate", "-only", "fitted"}, `-only: unknown kind "fitted" (want calibrated, derived or check)`},
		{[]string{"validate", "-experiment", "E4 ("}, `-experiment: "E4 (" is not a regular expression: error parsing regexp: missing closing ): ` + "`E4 (`"},
		{[]string{"-experiment", "E4"}, "-experiment: applies to akisim validate only"},
		{[]string{"validate", "-only", ""}, `-only: empty value`},
		{[]string{"-only", "check"}, "-only: applies to akisim validate only"},
		{[]string{"configs", "-only", "check"}, "-only: does not apply to akisim configs"},
		{[]string{"validate", "-config", typoTag}, typoTag + `:3: gcd.reorder_ns: calibrated against "E4 latncy", which no validate point has`},
		{[]string{"validate", "-quiet", "-config", typoTag}, typoTag + `:3: gcd.reorder_ns`}, // -quiet taken: the config is what is wrong
		{[]string{"routes", "-quiet"}, "-quiet: does not apply to akisim routes"},
		{[]string{"configs", "-config", "lumi-node.toml"}, "-config: does not apply to akisim configs"},
		// Output paths, checked before simulating.
		{[]string{"-outdir", filepath.Join(aFile, "out")}, "-outdir " + filepath.Join(aFile, "out") + ": not a directory"},
		{[]string{"-outdir", aFile}, "is a file, not a folder"},
		{[]string{"-outdir", notOurs, "-force"}, "holds files akisim did not write"},
		{[]string{"-outdir", previous}, "holds a previous run; give -force to replace it"},
		{[]string{"-outdir", "/"}, "the root folder cannot be an outdir"},
		{[]string{"-timeline", dir}, "-timeline " + dir + ": is a folder"},
		{[]string{"-timeline", filepath.Join(aFile, "t.json")}, "-timeline " + filepath.Join(aFile, "t.json") + ": not a directory"},
		{[]string{"-outdir", filepath.Join(dir, "o"), "-timeline", filepath.Join(dir, "o", "stats.txt")}, "the outdir's own stats.txt"},
		{[]string{"-cpuprofile", filepath.Join(dir, "no", "such", "cpu.prof")}, "-cpuprofile"},
		{[]string{"-memprofile", filepath.Join(dir, "no", "such", "mem.prof")}, "-memprofile"},
	}
	for _, c := range cases {
		code, out, errs := akisim(t, c.args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", c.args, code, errs)
		}
		if strings.Count(strings.TrimRight(errs, "\n"), "\n") != 0 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: stderr %q, want one line containing %q", c.args, errs, c.want)
		}
		if out != "" {
			t.Errorf("%v: printed results despite bad input: %q", c.args, out)
		}
	}
	// Nothing was written: no new outdir, no temporary files, the user's
	// folder and the previous run untouched.
	if got := names(t, dir); got != "bad.jsonl bad.toml cut.toml file notours previous typo.toml" {
		t.Errorf("bad input left files: %v", got)
	}
	if got := names(t, notOurs); got != "thesis.tex" || !output.IsRun(previous) {
		t.Errorf("the user's folder (%s) or the previous run was touched", got)
	}
}

// smallStream is a STREAM run of a few milliseconds, with more flags.
func smallStream(more ...string) []string {
	return append([]string{"-workload", "stream", "-sizes", "1048576", "-kernels", "copy"}, more...)
}

// names lists a folder, hidden files included.
func names(t *testing.T, dir string) string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Error(err)
	}
	var s []string
	for _, e := range es {
		s = append(s, e.Name())
	}
	return strings.Join(s, " ")
}

func TestCSVHeaderAndRows(t *testing.T) {
	code, out, errs := akisim(t, "-cases", "latency", "-format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if lines[0] != "workload,case,src,dst,bytes,metric,value,unit" {
		t.Errorf("header %q", lines[0])
	}
	if len(lines) != 1+64 {
		t.Errorf("%d rows, want 64 pairs (diagonal included)", len(lines)-1)
	}
	if !strings.HasPrefix(lines[2], "p2p,latency,gcd0,gcd1,16,latency,") || !strings.HasSuffix(lines[2], ",us") {
		t.Errorf("second row %q", lines[2])
	}
}

func TestDeterministic(t *testing.T) {
	for _, args := range [][]string{
		{"-workload", "commscope", "-filter", `/0/[01]/log2\(N\):(8|20|24)/`, "-format", "json"},
		{"-workload", "stream", "-alloc", "2", "-sizes", "1048576,33554432", "-format", "json"},
		{"-workload", "stream", "-gcds", "0,1,4", "-alloc", "host", "-sizes", "16777216", "-format", "json"},
		{"-env", "HSA_ENABLE_SDMA=0", "-cases", "latency", "-format", "json"},
	} {
		_, a, _ := akisim(t, args...)
		_, b, _ := akisim(t, args...)
		if a != b || a == "" {
			t.Errorf("%v: two runs of the same config gave different output", args)
		}
	}
}

func TestOutdirHoldsResultsConfigAndStats(t *testing.T) {
	dir := t.TempDir()
	code, _, errs := akisim(t, "-trace", "traces/peer-0-to-1.jsonl", "-set", "xgmi.bundle[0-1].lanes=2", "-outdir", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, f := range []string{"results.csv", "results.json", "config.toml", "config.json", "setup.json", "stats.txt", "version.txt"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || len(b) == 0 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
	// the override as typed, in the files a reader of the results opens
	for _, f := range []string{"config.toml", "stats.txt"} {
		if !strings.Contains(readFile(t, filepath.Join(dir, f)), "# overrides -set 'xgmi.bundle[0-1].lanes=2'\n") {
			t.Errorf("%s does not record the -set", f)
		}
	}
	var setup report.Setup
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, "setup.json"))), &setup); err != nil ||
		!slices.Equal(setup.Overrides, []string{"-set xgmi.bundle[0-1].lanes=2"}) || setup.Config != "frontier-node" || setup.Version != versionLine() ||
		!slices.Equal(setup.Command, []string{"-trace", "traces/peer-0-to-1.jsonl", "-set", "xgmi.bundle[0-1].lanes=2", "-outdir", dir}) {
		t.Errorf("setup.json: %+v, %v", setup, err)
	}
	cfg, _ := os.ReadFile(filepath.Join(dir, "config.toml"))
	if !strings.Contains(string(cfg), "lanes = 2") {
		t.Error("resolved config does not hold the -set value")
	}
	stats, _ := os.ReadFile(filepath.Join(dir, "stats.txt"))
	if !strings.Contains(string(stats), "Begin Simulation Statistics") || !strings.Contains(string(stats), "xgmi") {
		t.Error("stats.txt lacks the gem5 block or the bundle counters")
	}
	if _, out, _ := akisim(t, "-version"); readFile(t, filepath.Join(dir, "version.txt")) != out {
		t.Error("version.txt differs from -version")
	}
	// A timeline beside the outdir, and one inside it (a file of the outdir).
	out := filepath.Join(t.TempDir(), "out")
	for _, tl := range []string{filepath.Join(t.TempDir(), "timeline.json"), filepath.Join(out, "tl.json")} {
		code, _, errs = akisim(t, "-trace", "traces/peer-0-to-1.jsonl", "-timeline", tl, "-outdir", out, "-force")
		if b := readFile(t, tl); code != 0 || !strings.Contains(b, `"ph": "X"`) || !strings.Contains(b, "SDMAXGMI") {
			t.Errorf("timeline %s: exit %d (%s), %d bytes", tl, code, errs, len(b))
		}
	}
	if !strings.Contains(names(t, out), "tl.json") {
		t.Errorf("the outdir lacks its timeline: %s", names(t, out))
	}
}

// A trace's setenv lines act as -env: the copies become blit kernels and
// the resolved config says so.
func TestTraceEnvironment(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "env.jsonl")
	os.WriteFile(tr, []byte(`{"op":"setenv","name":"HSA_ENABLE_PEER_SDMA","value":"0"}
{"op":"malloc","buf":"a","gcd":0,"bytes":1048576}
{"op":"malloc","buf":"b","gcd":1,"bytes":1048576}
{"op":"memcpy_peer","src":"a","dst":"b","bytes":1048576}
`), 0o644)
	out := filepath.Join(dir, "out")
	code, _, errs := akisim(t, "-trace", tr, "-outdir", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	cfg, _ := os.ReadFile(filepath.Join(out, "config.toml"))
	if !strings.Contains(string(cfg), "HSA_ENABLE_PEER_SDMA = 0") {
		t.Error("resolved config lacks the trace's environment")
	}
	stats, _ := os.ReadFile(filepath.Join(out, "stats.txt"))
	if !strings.Contains(string(stats), "node.gcd0.cu.kernels") || strings.Contains(string(stats), "node.gcd0.cu.kernels                               0") {
		t.Errorf("the peer copy did not run as a kernel on GCD 0")
	}
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(`{"op":"setenv","name":"HSA_ENABLE_SDMA","value":"7"}`+"\n"), 0o644)
	if code, _, errs := akisim(t, "-trace", bad); code != 2 || !strings.Contains(errs, bad+":1: name: setenv HSA_ENABLE_SDMA=7: must be 0..1, got 7") {
		t.Errorf("bad environment value: exit %d, %q", code, errs)
	}
	// A setenv counts as an -env: the same variable in both is refused.
	wantBad(t, []string{"-trace", tr, "-env", "HSA_ENABLE_PEER_SDMA=1"},
		tr+":1: name: -env HSA_ENABLE_PEER_SDMA=1 and setenv HSA_ENABLE_PEER_SDMA=0: both set env.HSA_ENABLE_PEER_SDMA; give one")
}

func TestGBenchNames(t *testing.T) {
	code, out, errs := akisim(t, "-workload", "commscope", "-filter", `PinnedToGPU/3/0/log2\(N\):2[0-2]/`, "-format", "gbench")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, k := range []string{"20", "21", "22"} {
		if !strings.Contains(out, `"name": "Comm_hipMemcpyAsync_PinnedToGPU/3/0/log2(N):`+k+`/manual_time"`) {
			t.Errorf("no benchmark for log2(N):%s in %s", k, out)
		}
	}
}

func TestImplicitFamilies(t *testing.T) {
	code, out, errs := akisim(t, "-workload", "commscope", "-filter", `implicit_mapped_.*/0/1/log2\(N\):(11|12)/`, "-format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, f := range []string{"GPURdHost,numa0,gcd1,4096", "GPUWrHost,gcd1,numa0,4096", "GPUWrGPU,gcd0,gcd1,4096", "HostWrGPU,numa0,gcd1,4096"} {
		if !strings.Contains(out, "Comm_implicit_mapped_"+f+",bandwidth") {
			t.Errorf("no %s row in\n%s", f, out)
		}
	}
	if strings.Contains(out, ",2048,") {
		t.Error("implicit families start at log2(N) 12, got 11")
	}
}

// The calibration points pass; with TestValidateOnlyCheck, every point of
// akisim validate, in about the time of one run (printPoints' totals per
// kind are TestPrintPointsTotalsPerKind's).
func TestValidatePasses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the calibration experiments")
	}
	out := validateKind(t, "calibrated")
	if !strings.Contains(out, "E4 latency") || !strings.Contains(out, "E1 pinned H2D") {
		t.Errorf("validate output lacks its experiments:\n%s", out)
	}
	totals := validateTotals(t, out)
	if _, ok := totals["check"]; ok || totals["calibration"][0] < 100 || totals["calibration"][2] != 0 {
		t.Errorf("totals %v, want only calibration, at least 100 points, none failed", totals)
	}
	if strings.Contains(out, " check ") {
		t.Errorf("-only calibrated printed check rows:\n%s", out)
	}
}

// validateKind runs validate -only kind -quiet with the built binary,
// beside the other kind's test (two cores), and wants it to pass, with
// nothing on stderr (-quiet is taken, as by a run).
func validateKind(t *testing.T, kind string) string {
	t.Helper()
	t.Parallel()
	r := exe(t, "../..", nil, nil, "validate", "-only", kind, "-quiet")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("validate -only %s -quiet failed (exit %d): %s\n%s", kind, r.code, r.stderr, r.stdout)
	}
	return r.stdout
}

// validateTotals reads validate's total lines: per kind, its points,
// passed, failed and known gaps.
func validateTotals(t *testing.T, out string) map[string][4]int {
	t.Helper()
	totals := map[string][4]int{}
	for _, line := range strings.Split(out, "\n") {
		var kind string
		var n [4]int
		if k, _, ok := strings.Cut(line, ": "); ok && (k == "calibration" || k == "derived" || k == "check") {
			kind = k
			if _, err := fmt.Sscanf(line[len(k)+2:], "%d points, %d passed, %d failed, %d known gaps", &n[0], &n[1], &n[2], &n[3]); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			if n[1]+n[2]+n[3] != n[0] {
				t.Errorf("%q: the counts do not add up", line)
			}
			totals[kind] = n
		}
	}
	return totals
}

// -only check runs the check points alone: every row is a check row and
// only the check total is printed.
func TestValidateOnlyCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the check experiments")
	}
	out := validateKind(t, "check")
	totals := validateTotals(t, out)
	if _, ok := totals["calibration"]; ok || totals["check"][0] < 30 || totals["check"][2] != 0 {
		t.Errorf("totals %v, want only check, at least 30 points, none failed", totals)
	}
	if strings.Contains(out, " calibrated ") || strings.Contains(out, "E4 latency") {
		t.Errorf("-only check printed calibration rows:\n%s", out)
	}
}

// -only derived runs the points a calibration decides (E2 follows from
// E1): they pass, and no other kind is printed.
func TestValidateOnlyDerived(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the derived experiments")
	}
	out := validateKind(t, "derived")
	totals := validateTotals(t, out)
	if len(totals) != 1 || totals["derived"][0] < 19 || totals["derived"][2] != 0 {
		t.Errorf("totals %v, want only derived, E2's 19 points at least, none failed", totals)
	}
	if !strings.Contains(out, "E2 NUMA placement") || strings.Contains(out, "independent checks") {
		t.Errorf("-only derived output:\n%s", out)
	}
}

// A what-if's text header says so: the -set as typed where a baseline
// says it has none, and the tables below them are otherwise the same form.
func TestWhatIfHeaderShowsTheOverrides(t *testing.T) {
	_, base, _ := akisim(t, "-cases", "latency", "-quiet")
	code, what, errs := akisim(t, "-cases", "latency", "-quiet", "-set", "xgmi.bundle[*].lanes=1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	head := func(s string) string { h, _, _ := strings.Cut(s, "\n\n"); return h }
	if !strings.Contains(head(base), "\n# overrides none\n") {
		t.Errorf("baseline header\n%s\nwant an overrides none line", head(base))
	}
	if !strings.Contains(head(what), "\n# overrides -set 'xgmi.bundle[*].lanes=1'\n") {
		t.Errorf("what-if header\n%s\nwant the -set", head(what))
	}
	if head(base) == head(what) {
		t.Error("the what-if's header is the baseline's")
	}
	_, rccl, _ := akisim(t, "all_reduce_perf", "-b", "8", "-e", "8", "-g", "2", "-quiet", "-env", "NCCL_PROTO=LL")
	if !strings.Contains(rccl, "rccl-tests: Version akisim\n# config frontier-node") || !strings.Contains(rccl, "\n# overrides -env NCCL_PROTO=LL\n") {
		t.Errorf("rccl-tests banner lacks the setup:\n%s", rccl)
	}
	_, gbench, _ := akisim(t, "commscope", "-filter", `PinnedToGPU/0/0/log2\(N\):8/`, "-format", "gbench", "-set", "xgmi.lane_bandwidth_gbps=30")
	if !strings.Contains(gbench, `"akisim_overrides": "-set xgmi.lane_bandwidth_gbps=30",`) {
		t.Errorf("gbench context lacks the setup:\n%s", gbench)
	}
}

// A run beyond what validate checks says so in one warn: line on stderr,
// as gem5 does; a covered run, and bad input, print no warning.
func TestCoverageWarning(t *testing.T) {
	_, _, errs := akisim(t, "-cases", "latency", "-quiet")
	if errs != "" {
		t.Errorf("baseline: stderr %q, want nothing", errs)
	}
	_, _, errs = akisim(t, "-cases", "latency", "-quiet", "-set", "stack.rocm=5.7", "-nodes", "2")
	if errs != "" {
		t.Errorf("keys validate varies: stderr %q, want nothing", errs)
	}
	code, _, errs := akisim(t, "-cases", "latency", "-quiet", "-set", "xgmi.bundle[*].lanes=1")
	if code != 0 || !strings.HasPrefix(errs, "warn: outside what akisim validate checks: xgmi.bundle[0].lanes and 5 more keys") ||
		strings.Count(errs, "\n") != 1 {
		t.Errorf("lanes=1: exit %d, stderr %q; want one warn: line", code, errs)
	}
	wantBad(t, []string{"-cases", "latency", "-set", "xgmi.bundle[*].lanes=1", "-outdir", "README.md"}, "-outdir README.md: is a file")
}
