package main

import (
	"strings"
	"testing"
)

// Bad halo input exits 2 with one line naming the flag, before anything
// is simulated and with nothing on stdout.
func TestHaloBadInput(t *testing.T) {
	noSimulation(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"halo", "-dims", "256,0,256"}, `-dims: want positive integers, comma separated, got "0"`},
		{[]string{"halo", "-dims", "256,,256"}, `-dims: want positive integers, comma separated, got ""`},
		{[]string{"halo", "-dims", ""}, `-dims: empty value`},
		{[]string{"halo", "-dims", "8,x"}, `-dims: want positive integers, comma separated, got "x"`},
		{[]string{"halo", "-dims", "8,8,8,8,8,8"}, "-dims 8,8,8,8,8,8 -radius 4: want 1..5 axes, got 6"},
		{[]string{"halo", "-radius", "0"}, "-dims 256,256,256 -radius 0: radius: want at least 1, got 0"},
		{[]string{"halo", "-dims", "64,3", "-radius", "4"}, "-dims 64,3 -radius 4: radius 4 is larger than axis 1 (3 points)"},
		{[]string{"halo", "-strategy", "acm-pack,bogus"}, `-strategy: unknown pack label "bogus" (want mpi-pack, mpi-pack-indexed, acm-pack, acm-pack-packed, acm-pack-batched)`},
		{[]string{"halo", "-strategy", ""}, `-strategy: empty value`},
		{[]string{"halo", "-strategy", "acm-pack,acm-pack"}, "-strategy: acm-pack given twice"},
		{[]string{"halo", "-fields", ""}, `-fields: empty value`},
		{[]string{"halo", "-fields", "1,0"}, `-fields: want positive integers, comma separated, got "0"`},
		{[]string{"halo", "-fields", "65", "-strategy", "mpi-pack"}, "-fields: want 1..64 fields, got 65"},
		{[]string{"halo", "-fields", "5"}, "-fields: acm-pack-packed is built for 1, 2, 3, 4, 8, 12, 16 fields, not 5"},
		{[]string{"halo", "-fields", "3", "-strategy", "acm-pack-batched"}, "-fields: acm-pack-batched is built for 1, 2, 4, 8, 12, 16 fields, not 3"},
		{[]string{"halo", "-bench", "osu_bw"}, `-bench: unknown halo benchmark "osu_bw" (want pack, exchange, mhd)`},
		{[]string{"halo", "-procs", "8"}, "-procs: applies to -bench exchange only, not to pack"},
		{[]string{"halo", "-decomp", "custom"}, "-decomp: applies to -bench exchange only, not to pack"},
		{[]string{"halo", "-bench", "exchange", "-strategy", "acm-pack"}, `-strategy: unknown exchange label "acm-pack" (want mpi-he, mpi-he-hindexed, acm-packed-he, acm-batched-he)`},
		{[]string{"halo", "-bench", "exchange", "-fields", "3", "-strategy", "acm-batched-he"}, "-fields: acm-batched-he is built for 1, 2, 4, 8, 12, 16 fields, not 3"},
		{[]string{"halo", "-bench", "exchange", "-procs", "6", "-decomp", "hierarchical"}, "-decomp hierarchical -dims 256,256,256 -procs 6: levels: [2 2 2] do not divide 6 procs"},
		{[]string{"halo", "-bench", "exchange", "-procs", "0"}, "-decomp mpi-default -dims 256,256,256 -procs 0: procs: 0, want at least 1"},
		{[]string{"halo", "-bench", "exchange", "-procs", "7", "-dims", "64,64,64", "-decomp", "custom"}, "-decomp custom -dims 64,64,64 -procs 7: dims: 64x64x64 cannot be cut into 7 more equal parts"},
		{[]string{"halo", "-bench", "exchange", "-procs", "16", "-nodes", "1"}, "-procs 16: 16 ranks at 8 per node need 2 nodes, the run has 1 (-nodes 1)"},
		{[]string{"halo", "-bench", "exchange", "-procs", "16", "-set", "network.nodes=1"}, "-procs 16: 16 ranks at 8 per node need 2 nodes, the run has 1 (-set network.nodes=1)"},
		{[]string{"halo", "-bench", "exchange", "-procs", "16", "-set", "network={nodes=1}"}, "-procs 16: 16 ranks at 8 per node need 2 nodes, the run has 1 (-set network={nodes=1})"},
		// issue 43: the nodes -procs asks for are named as -procs, not as a -set never typed
		{[]string{"halo", "-bench", "exchange", "-procs", "1000000"}, "akisim: -procs 1000000: network.nodes: must be 1..16384, got 125000"},
		{[]string{"halo", "-bench", "exchange", "-decomp", "mpi-yes"}, `decomp: unknown decomposition "mpi-yes"`},
		{[]string{"halo", "-bench", "exchange", "-decomp", "custom,custom"}, "-decomp: custom given twice"},
		{[]string{"halo", "-bench", "exchange", "-dims", "8,8,8,8"}, "dims: 4 axes, want 1 to 3"},
		{[]string{"halo", "-bench", "exchange", "-radius", "0"}, "-radius: want at least 1, got 0"},
		{[]string{"osu", "-procs", "4"}, "-procs: applies to -workload halo only, not to osu"},
		{[]string{"halo", "-dims", "1048576,1048576,1048576"}, "the padded box has more than 2^40 points"},
		{[]string{"halo", "-dims", "2048,2048,2048", "-fields", "16", "-strategy", "acm-pack"}, "HBM"},
		{[]string{"halo", "-sizes", "8"}, "-sizes: applies to -workload stream or -workload osu or -workload rccl or -workload transferbench only, not to halo"},
		{[]string{"osu", "-dims", "4"}, "-dims: applies to -workload halo only, not to osu"},
		{[]string{"rccl", "-strategy", "mpi-pack"}, "-strategy: applies to -workload halo only, not to rccl"},
		{[]string{"-workload", "p2p", "-fields", "1"}, "-fields: applies to -workload halo only, not to p2p"},
		{[]string{"halo", "-format", "gbench"}, "-format gbench: only the commscope workload"},
		{[]string{"halo", "-env", "MPICH_ENABLE_YAKSA=2"}, "-env MPICH_ENABLE_YAKSA=2: must be 0..1, got 2"},
		{[]string{"halo", "-env", "MPICH_GPU_ALLREDUCE_BLK_SIZE=0"}, "-env MPICH_GPU_ALLREDUCE_BLK_SIZE=0: must be 1..1099511627776, got 0"},
	} {
		code, out, errs := akisim(t, tc.args...)
		if code != 2 || strings.Count(strings.TrimRight(errs, "\n"), "\n") != 0 || !strings.Contains(errs, tc.want) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2, nothing, one line containing %q", tc.args, code, out, errs, tc.want)
		}
	}
}

// The text table: a line per field count, a column per label, in the
// order given; csv rows carry the acm case names.
func TestHaloOutput(t *testing.T) {
	code, out, errs := akisim(t, "halo", "-dims", "32,32", "-fields", "1,2", "-strategy", "acm-pack-batched,mpi-pack")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 8 || lines[1] != "# overrides none" {
		t.Fatalf("text output does not start with the run's setup:\n%s", out)
	}
	lines = lines[4:]
	if !strings.HasPrefix(lines[0], "# median time (us)") ||
		strings.Join(strings.Fields(lines[1]), " ") != "dims nf r acm-pack-batched mpi-pack" ||
		!strings.HasPrefix(strings.Join(strings.Fields(lines[3]), " "), "32x32 2 4 ") {
		t.Errorf("text output:\n%s", out)
	}
	code, out, errs = akisim(t, "halo", "-dims", "32,32", "-fields", "2", "-strategy", "acm-pack-batched", "-format", "csv")
	if code != 0 || !strings.Contains(out, "\nhalo,acm-pack-batched/32x32/nf:2/r:4,gcd0,gcd0,") || !strings.Contains(out, ",time,") {
		t.Errorf("csv: exit %d, %s%s", code, out, errs)
	}
}

// -env MPICH_ENABLE_YAKSA picks MPI_Pack's engine: yaksa's kernels (the
// config's 1) or the dataloop's CPU copies (0); the acm kernels do not
// change.
func TestHaloEngine(t *testing.T) {
	args := []string{"halo", "-dims", "64,64", "-fields", "1", "-strategy", "mpi-pack,acm-pack", "-format", "csv"}
	_, yaksa, errs := akisim(t, args...)
	code, dataloop, errs0 := akisim(t, append(args, "-env", "MPICH_ENABLE_YAKSA=0")...)
	// no validate point runs the dataloop: its run says so
	if code != 0 || errs != "" || !strings.HasPrefix(errs0, "warn: ") || strings.Count(errs0, "\n") != 1 {
		t.Fatalf("exit %d: %s%s", code, errs, errs0)
	}
	value := func(out, label string) string {
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, ","+label+"/") {
				f := strings.Split(l, ",")
				return f[len(f)-2]
			}
		}
		t.Fatalf("no %s row in\n%s", label, out)
		return ""
	}
	if value(yaksa, "mpi-pack") == value(dataloop, "mpi-pack") || value(yaksa, "acm-pack") != value(dataloop, "acm-pack") {
		t.Errorf("yaksa:\n%s\ndataloop:\n%s\nwant mpi-pack to differ, acm-pack not", yaksa, dataloop)
	}
}

// The exchange runs its ranks on the nodes they need (two for 16 ranks)
// and names its rows with the decomposition, acm's case names.
func TestHaloExchangeOutput(t *testing.T) {
	code, out, errs := akisim(t, "halo", "-bench", "exchange", "-dims", "32,32,32", "-procs", "16", "-fields", "1",
		"-strategy", "acm-batched-he", "-decomp", "hierarchical", "-format", "csv")
	if code != 0 || !strings.Contains(out, "\nhalo,acm-batched-he/32x32x32/nf:1/r:4/p:16/hierarchical,gcd6,,") || !strings.Contains(out, ",time,") {
		t.Errorf("exit %d, %s%s", code, out, errs)
	}
}
