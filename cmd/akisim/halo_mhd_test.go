package main

import (
	"strings"
	"testing"
)

// Bad MHD input exits 2 with one line naming the flag.
func TestMHDBadInput(t *testing.T) {
	noSimulation(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"halo", "-bench", "mhd", "-fields", "4"}, "-fields: the MHD solver exchanges its own 4 + 12 fields with radius 3"},
		{[]string{"halo", "-bench", "mhd", "-radius", "4"}, "-radius: the MHD solver exchanges its own 4 + 12 fields with radius 3"},
		{[]string{"halo", "-bench", "mhd", "-strategy", "mpi-he-hindexed"}, `-strategy: the MHD step runs with acm-batched-he, acm-packed-he, mpi-he, not "mpi-he-hindexed"`},
		{[]string{"halo", "-bench", "mhd", "-strategy", ""}, `-strategy: empty value`},
		{[]string{"halo", "-bench", "mhd", "-dims", "128,128"}, "-dims: the MHD solver's grid has 3 axes, got 2"},
		{[]string{"halo", "-bench", "mhd", "-dims", "128,0,128"}, `-dims: want positive integers, comma separated, got "0"`},
		{[]string{"halo", "-bench", "mhd", "-procs", "16", "-nodes", "1"}, "-procs 16: 16 ranks at 8 per node need 2 nodes, the run has 1 (-nodes 1)"},
		{[]string{"halo", "-bench", "mhd", "-procs", "64", "-dims", "16,16,16"}, "the stencils need at least 6"},
		{[]string{"halo", "-bench", "mhd", "-decomp", "rings"}, "-decomp rings -dims 128,128,128 -procs 64: "},
		{[]string{"halo", "-bench", "mhd", "-set", "gcd.fp64_gflops=0"}, "gcd.fp64_gflops=0: must be in [0.001, 1e+06], got 0"},
	} {
		code, out, errs := akisim(t, tc.args...)
		if code != 2 || strings.Count(strings.TrimRight(errs, "\n"), "\n") != 0 || !strings.Contains(errs, tc.want) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2, nothing, one line containing %q", tc.args, code, out, errs, tc.want)
		}
	}
}

// A row per strategy, each with its default decomposition, named as the
// brief names MHD cases.
func TestMHDOutput(t *testing.T) {
	code, out, errs := akisim(t, "halo", "-bench", "mhd", "-dims", "32,32,32", "-procs", "2", "-format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, c := range []string{"\nhalo,mhd/32x32x32/p:2/acm-batched-he/hierarchical,gcd6,,", "\nhalo,mhd/32x32x32/p:2/mpi-he/mpi-default,gcd0,,"} {
		if !strings.Contains(out, c) {
			t.Errorf("no row %q in\n%s", c, out)
		}
	}
}
