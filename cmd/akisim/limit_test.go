package main

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// Issue 21: what does not fit in memory is found before it is allocated
// and is a resource limit, exit 4 with one line, not Go's out-of-memory
// death (exit 2, as bad input): the simulated machine (the nodes a run
// touches, each checked before it is built), a trace's managed buffer's
// block table, a sweep's points, a workload's operations (a trace's ops:
// trace's tests).
func TestResourceLimitExitsFour(t *testing.T) {
	t.Setenv("AKISIM_MEMORY_BYTES", "50000000") // 50 MB
	var v []string
	for i := range 1000 {
		v = append(v, strconv.Itoa(i+1))
	}
	vals := strings.Join(v, ",")
	var far strings.Builder // a kernel on each of 100 nodes
	for k := range 100 {
		fmt.Fprintf(&far, `{"op":"kernel","name":"k","gcd":%d,"stream":1,"grid":1,"workgroup":1,"duration_ns":1000}`+"\n", 8*k)
	}
	var barrier strings.Builder // the MPI library's lowering multiplies the calls
	for r := range 4096 {
		fmt.Fprintf(&barrier, `{"op":"mpi_barrier","rank":%d}`+"\n", r)
	}
	managed := traceFile(t, `{"op":"malloc_managed","buf":"m","numa":0,"bytes":1125899906842624}`+"\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-trace", traceFile(t, far.String()), "-set", "network.nodes=1024"}, "nodes (of 8 GCDs) the run touched needs up to"},
		{[]string{"-trace", managed, "-set", "host.numa_bytes=1125899906842624"}, "malloc_managed of 1125899906842624 bytes"},
		{[]string{"sweep", "-outdir", t.TempDir() + "/s", "-set", "gcd.count=" + vals, "-set", "host.cores=" + vals, "-set", "gcd.compute_units=" + vals, "-trace", "/dev/null"},
			"a sweep of 3 axes' product (1000000000 points)"},
		{[]string{"-trace", traceFile(t, barrier.String())}, "the MPI library's lowered calls ("},
		// a workload's operation lists, counted from one rank before any is made
		{[]string{"halo", "-bench", "exchange", "-procs", "512"}, "operations) needs up to"},
		{[]string{"halo", "-bench", "mhd", "-procs", "64"}, "operations) needs up to"},
	} {
		code, stdout, stderr := akisim(t, c.args...)
		if code != 4 || !strings.HasPrefix(stderr, "akisim: resource limit: ") || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("akisim %.100s: exit %d, stdout %.80q, stderr %q: want 4 and one line with %q", strings.Join(c.args, " "), code, stdout, stderr, c.want)
		}
	}
}

// A memory limit the environment sets and akisim cannot read is bad input
// (exit 2, one line naming the variable), not a limit silently dropped.
func TestMemoryLimitEnvironmentChecked(t *testing.T) {
	for _, v := range []string{"lots", "0", "8GB"} {
		t.Setenv("AKISIM_MEMORY_BYTES", v)
		wantBad(t, []string{"-trace", "/dev/null"}, `environment AKISIM_MEMORY_BYTES="`+v+`": want a positive whole number of bytes`)
	}
}
