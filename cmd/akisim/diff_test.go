package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// whatIfOutdirs runs a trace into two outdirs: a baseline, and a what-if
// with the 0-1 bundle cut to one link.
func whatIfOutdirs(t *testing.T) (dir, base, what string) {
	dir = t.TempDir()
	base, what = filepath.Join(dir, "base"), filepath.Join(dir, "lanes1")
	for _, c := range [][]string{{"-outdir", base}, {"-outdir", what, "-set", "xgmi.bundle[0-1].lanes=1"}} {
		if code, _, errs := akisim(t, append([]string{"-trace", "traces/peer-0-to-1.jsonl", "-quiet"}, c...)...); code != 0 {
			t.Fatal(errs)
		}
	}
	return dir, base, what
}

// akisim diff sets a lanes=1 what-if beside its baseline: the bundles'
// lanes as the changed keys, the what-if's -set, and the rows and link
// statistics with their ratios.
func TestDiffShowsAWhatIf(t *testing.T) {
	dir, base, what := whatIfOutdirs(t)
	code, out, errs := akisim(t, "diff", base, what)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	squashed := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{
		"overrides none B " + what + ": config frontier-node",
		"overrides -set 'xgmi.bundle[0-1].lanes=1' config: 1 of ",
		"lanes 4 1 results:",
		"trace line6:peer 0->1 #1 gcd0 gcd1 160000000 bandwidth GB/s ",
		"node.xgmi.b0_1.dir0.busy ",
	} {
		if !strings.Contains(squashed, want) {
			t.Errorf("diff lacks %q:\n%s", want, out)
		}
	}
	_, same, _ := akisim(t, "diff", base, base)
	if !strings.Contains(same, "config: 0 of ") || !strings.Contains(same, " 0 differ,") {
		t.Errorf("a run against itself:\n%s", same)
	}
	// bad input: exit 2, one line naming what is wrong
	notRun := t.TempDir()
	os.WriteFile(filepath.Join(notRun, "results.csv"), []byte("x\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", base}, "diff: want two outdirs, got 1"},
		{[]string{"diff", base, filepath.Join(dir, "none")}, "none: no such file or directory"},
		{[]string{"diff", base, notRun}, "no version.txt: not an outdir akisim wrote"},
		{[]string{"diff", base, filepath.Join(base, "results.csv")}, "results.csv: not a folder"},
		{[]string{"diff", "-x", base, what}, "diff: flag provided but not defined: -x"},
	} {
		wantBad(t, c.args, c.want)
	}
}
