package workloads

import (
	"errors"
	"testing"

	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/trace"
)

// Every built-in workload, as the command line builds it by default, emits
// operations that trace.Check accepts, as a trace file's must be.
func TestBuiltinWorkloadsPassCheck(t *testing.T) {
	c := frontier(t)
	st := Stream{GCDs: []int{0}, Alloc: "local", Sizes: E6Sizes(), Kernels: StreamKernels, Iterations: 2,
		Workgroup: 128, NUMA: c.Host.GCDNUMA}
	var all []job.Run
	for _, alloc := range []string{"local", "host", "2"} {
		st.Alloc = alloc
		runs, err := st.Runs()
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, runs...)
	}
	st.GCDs = []int{0, 1, 2, 3, 4, 5, 6, 7}
	st.Alloc = "host"
	runs, err := st.Runs()
	if err != nil {
		t.Fatal(err)
	}
	all = append(all, runs...)
	all = append(all, DefaultP2P(c.GCD.Count).Runs()...)
	all = append(all, DefaultCommScope(c.GCD.Count, c.Host.NUMADomains).Runs()...)
	if err := job.Check(c, all); err != nil {
		t.Fatal(err)
	}
	if len(all) < 1000 {
		t.Fatalf("only %d runs checked", len(all))
	}
}

// The same GCD twice in STREAM's multi-GCD variant would count its bytes
// twice: an error, before anything runs.
func TestStreamDuplicateGCD(t *testing.T) {
	st := Stream{GCDs: []int{0, 4, 0}, Sizes: []int64{1 << 20}, Kernels: []string{"copy"}, Iterations: 1,
		Workgroup: 128, NUMA: []int{3, 3, 1, 1, 0, 0, 2, 2}}
	_, err := st.Runs()
	if err == nil || err.Error() != "-gcds: GCD 0 given twice" {
		t.Fatalf("got %v", err)
	}
}

// checkError runs runs through Execute and requires the check error want,
// a *trace.Error, and no simulation.
func checkError(t *testing.T, runs []job.Run, want string, sets ...string) {
	t.Helper()
	res, err := run.Execute(frontier(t, sets...), runs)
	if res != nil {
		t.Error("Execute returned a result with its error")
	}
	var te *trace.Error
	if !errors.As(err, &te) {
		t.Fatalf("error %v (%T), want a *trace.Error", err, err)
	}
	if err.Error() != want {
		t.Errorf("error\n got: %s\nwant: %s", err, want)
	}
}

// STREAM arrays that do not fit in HBM or in the NUMA domain's memory are
// rejected by the checks, not simulated.
func TestStreamCapacity(t *testing.T) {
	st := Stream{GCDs: []int{1}, Alloc: "local", Sizes: []int64{16 << 30, 32 << 30}, Kernels: []string{"copy"},
		Iterations: 1, Workgroup: 128, NUMA: []int{3, 3, 1, 1, 0, 0, 2, 2}}
	runs, err := st.Runs()
	if err != nil {
		t.Fatal(err)
	}
	// 3 x 16 GiB fit in 64 GiB; 3 x 32 GiB do not (the third array).
	if err := job.Check(frontier(t), runs[:1]); err != nil {
		t.Fatal(err)
	}
	checkError(t, runs, "stream/34359738368:3: bytes: 34359738368 bytes do not fit in GCD 1's HBM: 0 of 68719476736 bytes (gcd.hbm_bytes) free")

	st.Alloc, st.Sizes = "host", []int64{64 << 30}
	runs, err = st.Runs()
	if err != nil {
		t.Fatal(err)
	}
	checkError(t, runs, "stream/68719476736:3: bytes: 68719476736 bytes do not fit in NUMA domain 3's memory: 0 of 137438953472 bytes (host.numa_bytes) free")
	// With more memory in the config, the same run passes the checks.
	if err := job.Check(frontier(t, "host.numa_bytes=274877906944"), runs); err != nil {
		t.Fatal(err)
	}
}

// A 2^62-byte copy (issue 6) is rejected before it is simulated.
func TestHugeCopyRejected(t *testing.T) {
	n := int64(1) << 62
	ops := []trace.Op{alloc("a", 0, n), alloc("b", 1, n),
		{Op: trace.MemcpyPeer, Src: "a", Dst: "b", Bytes: n}}
	checkError(t, []job.Run{TraceRun("huge.jsonl", ops)},
		"huge.jsonl:1: bytes: 4611686018427387904 bytes do not fit in GCD 0's HBM: 68719476736 of 68719476736 bytes (gcd.hbm_bytes) free")
}

// A host thread storing to pinned host memory passes every check and is
// simulated (issue 6: it panicked): the stores go through the IO die to the
// NUMA domain's DRAM, no faster than its channels.
func TestHostStoresToPinnedHostMemory(t *testing.T) {
	const n = 4 << 20
	ops := []trace.Op{hostAlloc("h", 2, n),
		{Op: trace.HostAccess, NUMA: intp(2), Threads: 4, Access: []trace.Access{{Buf: "h", Mode: "write", Bytes: n}}}}
	c := frontier(t)
	res, err := run.Execute(c, []job.Run{TraceRun("host.jsonl", ops)})
	if err != nil {
		t.Fatal(err)
	}
	peak := float64(c.DRAM.ChannelsPerDomain) * c.DRAM.ChannelBandwidthGBps * c.DRAM.Efficiency
	var bw []float64
	for _, r := range res.Rows {
		if r.Metric == "bandwidth" {
			bw = append(bw, r.Value)
		}
	}
	if len(bw) != 1 {
		t.Fatalf("rows %+v", res.Rows)
	}
	if bw[0] <= 0 || bw[0] > peak*1.001 {
		t.Errorf("host stores at %.2f GB/s, want > 0 and at most the DRAM's %.2f GB/s", bw[0], peak)
	}
	if w := res.Stats.Total("node.numa2.dram.bytesWritten"); w != n {
		t.Errorf("NUMA 2's DRAM got %v bytes written, want %d", w, n)
	}
}
