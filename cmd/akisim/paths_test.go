package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/output"
	"github.com/akisim/akisim/run"
)

// copyTo copies the repository file src (relative to the root) to dst.
func copyTo(t *testing.T, src, dst string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../..", src))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// No output path of a run overwrites an input, another output, or lies in
// a folder the run replaces: refused before anything runs, exit 2, one
// line naming both flags, every input left as it was.
func TestOutputNeverOverwritesInput(t *testing.T) {
	dir := t.TempDir()
	tr := copyTo(t, "traces/peer-0-to-1.jsonl", filepath.Join(dir, "t.jsonl"))
	cfg := copyTo(t, "configs/frontier-node.toml", filepath.Join(dir, "node.toml"))
	derived := filepath.Join(dir, "derived.toml")
	os.WriteFile(derived, []byte("base = \"node.toml\"\nname = \"derived\"\n"), 0o644)
	tb := copyTo(t, "workloads/testdata/transferbench-example.cfg", filepath.Join(dir, "tb.cfg"))
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(tr, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.jsonl")
	if err := os.Link(tr, hard); err != nil {
		t.Fatal(err)
	}
	linkedDir := filepath.Join(dir, "linked")
	os.Symlink(dir, linkedDir)
	prev := filepath.Join(dir, "prev")
	if code, _, errs := akisim(t, smallStream("-outdir", prev)...); code != 0 {
		t.Fatal(errs)
	}
	inPrev := copyTo(t, "traces/peer-0-to-1.jsonl", filepath.Join(prev, "t.jsonl"))
	before := map[string]string{}
	for _, p := range []string{tr, cfg, derived, tb, inPrev} {
		before[p] = readFile(t, p)
	}
	noSimulation(t)
	x := filepath.Join(dir, "x.json")
	cases := []struct {
		args []string
		want []string // in the one line: both flags and paths
	}{
		{[]string{"-trace", tr, "-timeline", tr}, []string{"-timeline " + tr, "-trace " + tr}},
		{[]string{"-trace", tr, "-rocprof", tr}, []string{"-rocprof", "-trace"}},
		{[]string{"-trace", tr, "-daisen", tr}, []string{"-daisen " + tr, "-trace " + tr}},
		{[]string{"-trace", tr, "-cpuprofile", tr}, []string{"-cpuprofile", "-trace"}},
		{[]string{"-trace", tr, "-memprofile", tr}, []string{"-memprofile", "-trace"}},
		{[]string{"-trace", tr, "-timeline", link}, []string{"-timeline " + link, "-trace " + tr}},                    // a symbolic link
		{[]string{"-trace", tr, "-rocprof", hard}, []string{"-rocprof " + hard, "-trace " + tr}},                      // a hard link
		{[]string{"-trace", tr, "-timeline", filepath.Join(linkedDir, "t.jsonl")}, []string{"-timeline", "-trace"}},   // through a linked folder
		{[]string{"-trace", tr, "-timeline", filepath.Join(dir, ".", "sub", "..", "t.jsonl")}, []string{"-timeline"}}, // not clean
		{[]string{"-config", cfg, "-timeline", cfg}, []string{"-timeline " + cfg, "-config " + cfg}},
		{[]string{"-config", derived, "-rocprof", cfg}, []string{"-rocprof " + cfg, "-config's base " + cfg}},
		{[]string{"validate", "-config", cfg, "-cpuprofile", cfg}, []string{"-cpuprofile", "-config"}},
		{[]string{"transferbench", "-cfg", tb, "-timeline", tb}, []string{"-timeline " + tb, "-cfg " + tb}},
		{[]string{"-trace", inPrev, "-outdir", prev, "-force"}, []string{"-outdir " + prev, "-trace " + inPrev}},
		// two outputs naming one file
		{[]string{"-trace", tr, "-timeline", x, "-rocprof", x}, []string{"-timeline " + x + " and -rocprof " + x}},
		{[]string{"-cpuprofile", x, "-memprofile", x}, []string{"-cpuprofile", "-memprofile"}},
		{[]string{"-trace", tr, "-timeline", x, "-daisen", x}, []string{"-timeline " + x + " and -daisen " + x}},
		{[]string{"-trace", tr, "-outdir", filepath.Join(dir, "o"), "-timeline", filepath.Join(dir, "o", "a.json"), "-rocprof", filepath.Join(dir, "o", "a.json")}, []string{"-timeline", "-rocprof", "same file"}},
		// outputs the outdir's commit would delete
		{[]string{"-trace", tr, "-outdir", filepath.Join(dir, "o"), "-rocprof", filepath.Join(dir, "o", "sub", "p.json")}, []string{"-rocprof", "inside -outdir"}},
		{[]string{"-trace", tr, "-outdir", prev, "-force", "-cpuprofile", filepath.Join(prev, "cpu.prof")}, []string{"-cpuprofile", "inside -outdir " + prev}},
		{[]string{"-trace", tr, "-outdir", filepath.Join(dir, "o"), "-rocprof", filepath.Join(dir, "o", "stats.txt")}, []string{"-rocprof", "the outdir's own stats.txt"}},
	}
	for _, c := range cases {
		code, out, errs := akisim(t, c.args...)
		ok := code == 2 && out == "" && strings.Count(strings.TrimRight(errs, "\n"), "\n") == 0
		for _, w := range c.want {
			ok = ok && strings.Contains(errs, w)
		}
		if !ok {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line with %q", c.args, code, errs, c.want)
		}
	}
	for p, b := range before {
		if readFile(t, p) != b {
			t.Errorf("the input %s was overwritten", p)
		}
	}
	if !output.IsRun(prev) {
		t.Error("the previous run was replaced")
	}
	for _, p := range []string{x, filepath.Join(dir, "o")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("a refused run wrote %s", p)
		}
	}
}

// A -rocprof (like a -timeline) directly in the outdir is one of its files:
// the commit does not delete it.
func TestRocprofInOutdirSurvives(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	if code, _, errs := akisim(t, smallStream("-outdir", out)...); code != 0 { // a previous run, which -force replaces
		t.Fatal(errs)
	}
	prof, tl := filepath.Join(out, "prof.json"), filepath.Join(out, "tl.json")
	code, _, errs := akisim(t, "-force", "-trace", "traces/peer-0-to-1.jsonl", "-outdir", out, "-rocprof", prof, "-timeline", tl, "-quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, p := range []string{prof, tl, filepath.Join(out, output.Marker)} {
		if b, err := os.ReadFile(p); err != nil || len(b) == 0 {
			t.Errorf("%s after the run: %v, %d bytes", p, err, len(b))
		}
	}
	noScratch(t, dir)
}

// Whether the outdir may be replaced is decided before simulating: a file
// that appears in it during the run fails nothing; the run commits, its
// stdout is printed, and the file is kept aside, not deleted.
func TestOutdirChangedDuringRun(t *testing.T) {
	for _, start := range []string{"absent", "empty", "previous run"} {
		dir := t.TempDir()
		out := filepath.Join(dir, "out")
		switch start {
		case "empty":
			os.Mkdir(out, 0o755)
		case "previous run":
			if code, _, errs := akisim(t, smallStream("-outdir", out)...); code != 0 {
				t.Fatal(errs)
			}
		}
		saved := simulate
		simulate = func(c *config.Node, rs []job.Run, opts ...run.Option) (*run.Result, error) {
			res, err := saved(c, rs, opts...)
			os.MkdirAll(out, 0o755) // the user, meanwhile
			os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o644)
			return res, err
		}
		code, stdout, errs := akisim(t, smallStream("-outdir", out, "-force", "-format", "csv", "-quiet")...)
		simulate = saved
		if code != 0 || !strings.HasPrefix(stdout, "workload,case,") || !output.IsRun(out) {
			t.Errorf("%s: exit %d, stdout %d bytes, outdir a run: %t; want 0, the rows and the run (%s)", start, code, len(stdout), output.IsRun(out), errs)
		}
		kept, _ := filepath.Glob(out + ".before-*")
		if len(kept) != 1 || readFile(t, filepath.Join(kept[0], "notes.txt")) != "mine" || !strings.Contains(errs, "kept in "+kept[0]) {
			t.Errorf("%s: kept %v, stderr %q: want the user's file kept aside and named", start, kept, errs)
		}
		noScratch(t, dir)
	}
}

// The other commands' outputs never overwrite their inputs: import's
// trace, plot's figures.
func TestCommandOutputsNeverOverwriteInputs(t *testing.T) {
	dir := t.TempDir()
	js := copyTo(t, "profile/testdata/rocprofv3-json/node01/4242_results.json", filepath.Join(dir, "p", "1_results.json"))
	csvDir := filepath.Join(dir, "csv")
	for _, f := range []string{"counter_collection", "hip_api_trace", "agent_info", "memory_copy_trace", "kernel_trace"} {
		copyTo(t, "profile/testdata/rocprofv3-csv22/node01/4242_"+f+".csv", filepath.Join(csvDir, "4242_"+f+".csv"))
	}
	kt := filepath.Join(csvDir, "4242_kernel_trace.csv")
	cfg := copyTo(t, "configs/frontier-node.toml", filepath.Join(dir, "node.toml"))
	res := filepath.Join(dir, "r.svg") // results, oddly named
	os.WriteFile(res, []byte("workload,case,src,dst,bytes,metric,value,unit\np2p,latency,gcd0,gcd1,16,latency,2.5,us\n"), 0o644)
	before := map[string]string{}
	for _, p := range []string{js, kt, cfg, res} {
		before[p] = readFile(t, p)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"import", "rocprof", js, "-o", js}, "-o " + js + ": is the input import PATH " + js},
		{[]string{"import", "rocprof", filepath.Dir(js), "-o", js}, "-o " + js + ": is the input"},
		{[]string{"import", "rocprof", csvDir, "-o", kt}, "-o " + kt + ": is the input"},
		{[]string{"import", "rocprof", js, "-o", cfg, "-config", cfg}, "-o " + cfg + ": is the input -config " + cfg},
		{[]string{"plot", res, "-o", res}, "plot -o " + res + ": is the input plot PATH " + res},
	}
	for _, c := range cases {
		wantBad(t, c.args, c.want)
	}
	for p, b := range before {
		if readFile(t, p) != b {
			t.Errorf("the input %s was overwritten", p)
		}
	}
}

// A sweep's outputs (results.csv, points.csv, logs/, points/) never
// overwrite its points' inputs; one profile for every point is refused.
func TestSweepOutputsNeverOverwriteInputs(t *testing.T) {
	dir := t.TempDir()
	d := filepath.Join(dir, "D")
	tr := copyTo(t, "traces/peer-0-to-1.jsonl", filepath.Join(d, "results.csv"))
	logTr := copyTo(t, "traces/peer-0-to-1.jsonl", filepath.Join(d, "logs", "t.jsonl"))
	sweep := []string{"sweep", "-set", "xgmi.bundle[0-1].lanes=1,2", "-outdir", d}
	wantBad(t, append(sweep, "-trace", tr), "is the input -trace "+tr)
	wantBad(t, append(sweep, "-trace", logTr), "-trace "+logTr)
	wantBad(t, append(sweep, "-trace", "traces/peer-0-to-1.jsonl", "-cpuprofile", filepath.Join(dir, "c.prof")), "sweep: -cpuprofile does not apply")
	if readFile(t, tr) != readFile(t, "../../traces/peer-0-to-1.jsonl") || readFile(t, logTr) == "" {
		t.Error("a sweep overwrote its input")
	}
}
