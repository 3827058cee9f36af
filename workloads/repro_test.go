package workloads

import (
	"testing"

	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/trace"
)

// kernelRow runs one kernel on GCD 0 over a buffer of n bytes on GCD 0
// and returns its time (s) from the trace rows and the bytes HBM read.
func kernelRow(t *testing.T, n, grid int64, wg int, computeNs float64) (seconds, hbmRead float64) {
	t.Helper()
	ops := []trace.Op{alloc("a", 0, n),
		{Op: trace.Kernel, Name: "k", GCD: intp(0), Stream: 1, Grid: grid, Workgroup: wg, ComputeNs: computeNs,
			Access: []trace.Access{{Buf: "a", Mode: "read", Bytes: n}}},
		{Op: trace.DeviceSync}}
	res, err := run.Execute(frontier(t), []job.Run{TraceRun("k.jsonl", ops)})
	if err != nil {
		t.Fatal(err)
	}
	var start, end float64
	for _, r := range res.Rows {
		switch r.Metric {
		case "start":
			start = r.Value
		case "end":
			end = r.Value
		}
	}
	return (end - start) * 1e-6, res.Stats.Total("node.gcd0.hbm.bytesRead")
}

// Issue 6: a CU's share of a stream, t*first/wg in components/gcd/cu.go,
// overflows int64 when traffic x workgroups passes 2^63. A 3 GiB read by
// 2^32 one-item workgroups (a trace Check accepts) must read all 3 GiB
// from HBM (the CU whose share straddles the overflow read nothing), in
// the time the same read by 2^20 workgroups takes.
func TestReproWorkgroupShareOverflow(t *testing.T) {
	const n = 3 << 30
	tm, read := kernelRow(t, n, 1<<32, 1, 0)
	if read != n {
		t.Errorf("3 GiB read by 2^32 workgroups: HBM read %.0f bytes, want %d", read, n)
	}
	ref, _ := kernelRow(t, n, 1<<20, 1, 0)
	if tm > ref*1.01 || tm < ref*0.99 {
		t.Errorf("2^32 workgroups took %.4g s, 2^20 %.4g s: the workgroup count should not matter", tm, ref)
	}
}

// Issue 6: a lone workgroup's compute_ns is divided by gcd.workgroup_slots,
// as if it shared its CU with 15 others. One workgroup computing 1 ms must
// take at least 1 ms; as many workgroups as the GCD has slots take 1 ms too.
func TestReproLoneWorkgroupComputeNs(t *testing.T) {
	c := frontier(t)
	lone, _ := kernelRow(t, 4096, 64, 64, 1e6)
	if lone < 1e-3 {
		t.Errorf("one workgroup computing 1 ms took %.3g s", lone)
	}
	slots := int64(c.GCD.ComputeUnits * c.GCD.WorkgroupSlots)
	full, _ := kernelRow(t, 4096*slots, 64*slots, 64, 1e6)
	if full < 1e-3 || full > 1.1e-3 {
		t.Errorf("%d workgroups (every slot) computing 1 ms took %.3g s, want 1 ms", slots, full)
	}
}

// Found by FuzzSimulate: hipStreamWaitEvent waits for the event's record
// at the time of the call; recording the event again later must not make
// an earlier wait wait for the new record. Here stream 1's wait (behind a
// kernel) would wait for a record queued behind itself: a deadlock that
// ends the run with "event_sync never completed".
func TestReproStreamWaitThenRecordAgain(t *testing.T) {
	ops := []trace.Op{alloc("a", 0, 1<<20),
		{Op: trace.Kernel, Name: "k", GCD: intp(0), Stream: 1, Grid: 1 << 17, Workgroup: 128,
			Access: []trace.Access{{Buf: "a", Mode: "read", Bytes: 1 << 20}}},
		record("e", 0),
		{Op: trace.StreamWait, Stream: 1, Event: "e"},
		record("e", 1),
		{Op: trace.EventSync, Event: "e"}}
	res, err := run.Execute(frontier(t), []job.Run{TraceRun("wait.jsonl", ops)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) == 0 {
		t.Fatal("no rows")
	}
}

// Issue 21: an MPI receive's IPC copy names the sender's buffer; the
// receiver posts it as soon as it gets there, which may be before the
// sender (busy with its own work) has allocated that buffer. The run must
// wait for the sender's handle (the copy's wait_flag), not fail with
// "copy names an unallocated buffer". Ranks 0 and 1 swap 24,853 B blocks
// (IPC-sized, MPI_Alltoall's scattered algorithm) after rank 0 computes.
func TestReproIPCCopyBeforeSenderAllocates(t *testing.T) {
	const n = 24853
	ops := []trace.Op{{Op: trace.HostCompute, ComputeNs: 200_000},
		alloc("s0", 0, 2*n), alloc("d0", 1, 2*n),
		{Op: trace.Malloc, Buf: "s1", GCD: intp(2), Bytes: 2 * n, Rank: 1},
		{Op: trace.Malloc, Buf: "d1", GCD: intp(3), Bytes: 2 * n, Rank: 1},
		{Op: trace.MPIAlltoall, Src: "s0", Dst: "d0", Bytes: n},
		{Op: trace.MPIAlltoall, Src: "s1", Dst: "d1", Bytes: n, Rank: 1}}
	res, err := run.Execute(frontier(t), []job.Run{TraceRun("a2a.jsonl", ops)})
	if err != nil {
		t.Fatal(err)
	}
	// rank 1's copy from rank 0 starts only after rank 0's 200 us
	found := false
	for _, r := range res.Rows {
		if r.Metric == "start" && r.Src == "gcd0" && r.Dst == "gcd3" {
			found = true
			if r.Value < 200 {
				t.Errorf("rank 1's copy from rank 0 starts at %g us, before rank 0 allocated its buffer (200 us)", r.Value)
			}
		}
	}
	if !found {
		t.Error("no row for rank 1's copy from rank 0 (gcd0 to gcd3)")
	}
}

// Issue 21: a call that ends at time 0 (runtime.api_call_ns = 0, or a
// flag store, which costs nothing, as a trace's first call) is done: an end
// time of 0 once stood for "never completed", so such runs were refused
// as calls that never return.
func TestReproZeroCostCallsAtStart(t *testing.T) {
	copyTrace := []trace.Op{alloc("a", 0, 1<<20), alloc("b", 1, 1<<20),
		{Op: trace.MemcpyAsync, Src: "a", Dst: "b", Bytes: 1 << 20, Stream: 1}, {Op: trace.DeviceSync}}
	flags := append([]trace.Op{{Op: trace.FlagSet, Flag: "f"}, {Op: trace.FlagWait, Flag: "f"}}, copyTrace...)
	for _, c := range []struct {
		name string
		ops  []trace.Op
		sets []string
	}{
		{"api_call_ns=0", copyTrace, []string{"runtime.api_call_ns=0"}},
		{"api_call_ns=0, sync_call_ns=0", copyTrace, []string{"runtime.api_call_ns=0", "runtime.sync_call_ns=0"}},
		{"flag_set first", flags, nil},
	} {
		res, err := run.Execute(frontier(t, c.sets...), []job.Run{TraceRun("zero.jsonl", c.ops)})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(res.Rows) == 0 {
			t.Errorf("%s: no rows", c.name)
		}
	}
}

// Issue 21: a NIC whose PCIe link is slower than 1 GB/s moves data at that
// rate; its datapath once took whole GB/s only, so below 1 it moved nothing
// and the message ended at +Inf.
func TestReproNICSlowPCIe(t *testing.T) {
	const n = 64 << 10
	var ends []float64
	for _, gbps := range []string{"0.5", "1"} {
		c := frontier(t, "network.nodes=2", "nic.pcie.bandwidth_gbps="+gbps)
		ops := []trace.Op{alloc("a", 2, n), {Op: trace.Malloc, Buf: "b", GCD: intp(c.GCD.Count + 3), Bytes: n, Rank: 1},
			{Op: trace.MPISend, Buf: "a", Bytes: n, Peer: intp(1)}, {Op: trace.MPIRecv, Buf: "b", Bytes: n, Peer: intp(0), Rank: 1}}
		res, err := run.Execute(c, []job.Run{TraceRun("nic.jsonl", ops)})
		if err != nil {
			t.Fatal(err)
		}
		end := 0.0
		for _, r := range res.Rows {
			if r.Metric == "return" {
				end = max(end, r.Value)
			}
		}
		ends = append(ends, end)
	}
	// the PCIe link carries the message twice (sender's and receiver's NIC):
	// at half the rate it takes longer, and far from forever
	if !(ends[0] > ends[1] && ends[0] < 4*ends[1]) {
		t.Errorf("message ends at %g us over 0.5 GB/s PCIe, %g us over 1 GB/s", ends[0], ends[1])
	}
}
