package hip_test

import (
	"math"
	"testing"

	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/trace"
)

// loneAndQueued times, on GCD 0, a 4 KiB kernel alone between two events
// (its queue idle), then two more kernels back to back on other buffers:
// it returns the lone kernel, the event pair around it, and the second of
// the pair, which queued behind the first.
func loneAndQueued(t *testing.T, sets []string) (lone hip.OpResult, elapsed float64, queued hip.OpResult) {
	t.Helper()
	const kib4 = 4096
	ops := []trace.Op{device("a", 0, kib4), device("b", 0, kib4), device("c", 0, kib4),
		{Op: trace.EventRecord, Event: "start", Stream: 1},
		kernel(0, 1, kib4, []string{"a"}, nil),
		{Op: trace.EventRecord, Event: "stop", Stream: 1},
		{Op: trace.EventSync, Event: "stop"},
		kernel(0, 1, kib4, []string{"b"}, nil),
		kernel(0, 1, kib4, []string{"c"}, nil),
		{Op: trace.DeviceSync}}
	res, n := run(t, sets, ops)
	if got := cusOf(n, 0).IdleStarts; got != 2 {
		t.Fatalf("%d kernels found GCD 0's queue idle, want 2 (the lone one and the first of the pair)", got)
	}
	if res[8].Start < res[7].End {
		t.Fatalf("second kernel started at %g s, before the first ended (%g s)", res[8].Start, res[7].End)
	}
	return res[4], float64(res[5].Start - res[3].Start), res[8]
}

// A lone kernel on an idle queue pays the command processor's wake-up and
// its packet fetch; a kernel queued behind another had its packet
// prefetched and pays neither. Dispatch and end are paid by both.
func TestLoneKernelPaysWakeAndFetch(t *testing.T) {
	c := build(t, nil).Config
	idle := (c.GCD.CPWakeNs + c.GCD.PacketFetchNs) * 1e-9
	if idle <= 0 {
		t.Fatalf("frontier-node gives no idle cost (cp_wake_ns %g, packet_fetch_ns %g)", c.GCD.CPWakeNs, c.GCD.PacketFetchNs)
	}
	lone, elapsed, queued := loneAndQueued(t, nil)
	ln, qd := float64(lone.End-lone.Start), float64(queued.End-queued.Start)
	t.Logf("lone kernel %.3f us (events read %.3f us), back to back %.3f us", ln*1e6, elapsed*1e6, qd*1e6)
	if d := ln - qd; math.Abs(d-idle) > 1e-15 {
		t.Errorf("lone kernel %.3f us, back to back %.3f us: differ by %.3f us, want cp_wake_ns + packet_fetch_ns = %.3f us",
			ln*1e6, qd*1e6, d*1e6, idle*1e6)
	}
	if elapsed <= ln {
		t.Errorf("events around the lone kernel read %.3f us, not more than the kernel's %.3f us", elapsed*1e6, ln*1e6)
	}

	// without the idle costs the lone kernel and its events lose exactly them
	lone0, elapsed0, queued0 := loneAndQueued(t, []string{"gcd.cp_wake_ns=0", "gcd.packet_fetch_ns=0"})
	if d := float64(lone0.End - lone0.Start - queued0.End + queued0.Start); math.Abs(d) > 1e-15 {
		t.Errorf("without idle costs a lone kernel still costs %.3f us more than a queued one", d*1e6)
	}
	if d := elapsed - elapsed0; math.Abs(d-idle) > 1e-15 {
		t.Errorf("the idle costs add %.3f us to the lone kernel's events, want %.3f us", d*1e6, idle*1e6)
	}
}
