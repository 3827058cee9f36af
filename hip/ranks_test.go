package hip_test

import (
	"math"
	"testing"

	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/trace"
)

// withRank puts ops on rank r.
func withRank(r int, ops ...trace.Op) []trace.Op {
	for i := range ops {
		ops[i].Rank = r
	}
	return ops
}

// Ranks are host threads side by side: two ranks each making a blocking
// 64 MiB H2D copy to their own GCD (own host link, own NUMA domain) take
// the time of one, while one rank making both takes twice that.
func TestRanksRunSideBySide(t *testing.T) {
	const size = 64 * mib
	copyTo := func(h string, numa int, d string, g int) []trace.Op {
		return []trace.Op{host(h, numa, size), device(d, g, size), {Op: trace.Memcpy, Src: h, Dst: d, Bytes: size}}
	}
	end := func(res []hip.OpResult) float64 {
		e := 0.0
		for _, r := range res {
			e = max(e, float64(r.End))
		}
		return e
	}
	one, _ := run(t, nil, append(copyTo("h0", 3, "d0", 0), copyTo("h4", 0, "d4", 4)...))
	two, _ := run(t, nil, append(withRank(0, copyTo("h0", 3, "d0", 0)...), withRank(1, copyTo("h4", 0, "d4", 4)...)...))
	serial, parallel := end(one), end(two)
	if math.Abs(serial-2*parallel) > 0.02*serial {
		t.Errorf("one rank %.1f us, two ranks %.1f us: want the two ranks in half the time", serial*1e6, parallel*1e6)
	}
}

// Each rank has its own streams, null stream included: rank 0's
// device_sync does not wait for rank 1's work on stream 0.
func TestRanksOwnTheirStreams(t *testing.T) {
	const size = 256 * mib
	ops := append(withRank(1, host("h", 0, size), device("d", 4, size), copyAsync("h", "d", size, 0)),
		withRank(0, device("x", 0, 64), trace.Op{Op: trace.DeviceSync})...)
	res, _ := run(t, nil, ops)
	if sync, copyEnd := res[4].End, res[2].End; sync >= copyEnd {
		t.Errorf("rank 0's device_sync returned at %.1f us, after rank 1's copy ended at %.1f us", float64(sync)*1e6, float64(copyEnd)*1e6)
	}
}

// A rank polling a flag (flag_wait) goes on once another rank sets it:
// rank 1 computes 50 us on the host (host_compute), then sets the flag;
// rank 0's wait returns then (plus the cost of a blocking call), not before.
func TestFlagWaitAcrossRanks(t *testing.T) {
	ops := append(withRank(0, trace.Op{Op: trace.FlagWait, Flag: "go"}),
		withRank(1, trace.Op{Op: trace.HostCompute, ComputeNs: 50000}, trace.Op{Op: trace.FlagSet, Flag: "go"})...)
	res, n := run(t, nil, ops)
	if got := float64(res[1].End - res[1].Issue); math.Abs(got-50e-6) > 1e-12 {
		t.Errorf("host_compute took %.3f us, want 50", got*1e6)
	}
	// a thread polling host memory is no HIP call: it goes on as the
	// flag is set, without a blocking call's cost (runtime.sync_call_ns)
	set := res[2].Issue
	if got := res[0].End; math.Abs(float64(got-set)) > 1e-12 || n.Config.Runtime.SyncCallNs == 0 {
		t.Errorf("flag_wait returned at %.3f us, want the flag_set's %.3f us", float64(got)*1e6, float64(set)*1e6)
	}
}

// Ranks' host threads are separate cores: two ranks each storing 256 MiB
// into GPU memory from their own NUMA domain (host_access) overlap, and
// take the time of one.
func TestRanksHostWorkOverlaps(t *testing.T) {
	const size = 256 * mib
	store := func(rank, numa, g int, buf string) []trace.Op {
		return withRank(rank, device(buf, g, size),
			trace.Op{Op: trace.HostAccess, NUMA: intp(numa), Access: []trace.Access{{Buf: buf, Mode: "write", Bytes: size}}})
	}
	took := func(ops []trace.Op) float64 {
		res, _ := run(t, nil, ops)
		e := 0.0
		for _, r := range res {
			e = max(e, float64(r.End))
		}
		return e
	}
	one := took(store(0, 3, 0, "a"))
	two := took(append(store(0, 3, 0, "a"), store(1, 0, 4, "b")...))
	if math.Abs(two-one) > 0.02*one {
		t.Errorf("one rank %.1f us, two ranks %.1f us: want the same", one*1e6, two*1e6)
	}
}

// Two ranks may name their events alike: each rank's wait sees its own.
func TestEventsBelongToTheirRank(t *testing.T) {
	const size = 64 * mib
	ops := append(withRank(0, host("h0", 3, size), device("d0", 0, size), copyAsync("h0", "d0", size, 1),
		trace.Op{Op: trace.EventRecord, Event: "e", Stream: 1}, trace.Op{Op: trace.EventSync, Event: "e"}),
		withRank(1, device("x", 4, 64), trace.Op{Op: trace.EventRecord, Event: "e", Stream: 1}, trace.Op{Op: trace.EventSync, Event: "e"})...)
	res, n := run(t, nil, ops)
	e0, _ := n.Runtime.EventOf(0, "e")
	e1, _ := n.Runtime.EventOf(1, "e")
	if e0 < res[2].End || e1 >= res[2].End {
		t.Errorf("rank 0's event at %.1f us, rank 1's at %.1f us, copy ended at %.1f us: want rank 0's after the copy, rank 1's long before",
			float64(e0)*1e6, float64(e1)*1e6, float64(res[2].End)*1e6)
	}
	if res[7].End >= res[2].End {
		t.Errorf("rank 1's event_sync returned at %.1f us, after rank 0's copy", float64(res[7].End)*1e6)
	}
}

// A kernel on GCD 1 that sets a flag with its last store releases a kernel
// on GCD 0 waiting for it: the waiter starts only after the setter ends.
func TestKernelFlagAcrossGCDs(t *testing.T) {
	wait := trace.Op{Op: trace.Kernel, Name: "w", GCD: intp(0), Stream: 1, Grid: 64, Workgroup: 64, WaitFlag: "go",
		Access: []trace.Access{{Buf: "a", Mode: "read", Bytes: 64}}}
	set := trace.Op{Op: trace.Kernel, Name: "s", GCD: intp(1), Stream: 2, Grid: 64, Workgroup: 64, ComputeNs: 1e5, SetFlag: "go",
		Access: []trace.Access{{Buf: "b", Mode: "write", Bytes: 64}}}
	res, _ := run(t, nil, []trace.Op{device("a", 0, 64), device("b", 1, 64), wait, set, {Op: trace.DeviceSync}})
	if res[2].Start < res[3].End {
		t.Errorf("the waiting kernel started at %.2f us, before the setter ended at %.2f us", float64(res[2].Start)*1e6, float64(res[3].End)*1e6)
	}
	if res[3].End-res[3].Start < 100e-6 {
		t.Errorf("the setter took %.2f us, want its 100 us of compute", float64(res[3].End-res[3].Start)*1e6)
	}
}
