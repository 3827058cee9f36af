package hip_test

import (
	"math"
	"strings"
	"testing"

	"github.com/akisim/akisim/trace"
)

// delay is p2pBandwidthLatencyTest's delay<<<1, 1, 0, stream>>>(flag) on gcd.
func delay(gcd, stream int, flag string) trace.Op {
	return trace.Op{Op: trace.Kernel, Name: "delay", GCD: intp(gcd), Stream: stream, Grid: 1, Workgroup: 1, WaitFlag: flag}
}

// A kernel waiting on a flag holds its stream: the copy queued behind it
// starts only after the host's flag_set, although the host queued it long
// before; the host itself never blocks on the flag.
func TestFlagHoldsStream(t *testing.T) {
	// 2 MiB: above ROCm 6.2's blit size for peer copies, an SDMA copy
	peer := trace.Op{Op: trace.MemcpyPeerAsy, Src: "a", Dst: "b", Bytes: 2 * mib, Stream: 1}
	ops := []trace.Op{device("a", 0, 2*mib), device("b", 1, 2*mib),
		delay(0, 1, "go"), peer,
		{Op: trace.EventRecord, Stream: 2, Event: "x"}, {Op: trace.EventRecord, Stream: 2, Event: "y"},
		{Op: trace.FlagSet, Flag: "go"},
		{Op: trace.StreamSync, Stream: 1}}
	sets := []string{"runtime.api_call_ns=20000"}
	res, n := run(t, sets, ops)
	k, cp, set := res[2], res[3], res[6]
	if d := float64(set.End - set.Issue); d != 0 {
		t.Errorf("flag_set took the host %g s, want no time: a store, not a HIP call (runtime.api_call_ns is 20 us)", d)
	}
	if k.Start < set.Issue {
		t.Errorf("delay kernel ran from %g s, before the flag was set at %g s", k.Start, set.Issue)
	}
	after(t, "copy behind the delay kernel", cp, k)
	if k.Engine != cusOf(n, 0).Name() {
		t.Errorf("delay kernel ran on %q, want GCD 0's CUs", k.Engine)
	}
	// Without the delay kernel the copy starts as soon as it is queued.
	free, _ := run(t, sets, append(append([]trace.Op{}, ops[:2]...), peer, trace.Op{Op: trace.StreamSync, Stream: 1}))
	if free[2].Start >= set.Issue {
		t.Errorf("control: copy without a delay kernel started at %g s, not before %g s", free[2].Start, set.Issue)
	}
	if got, want := float64(cp.End-cp.Start), float64(free[2].End-free[2].Start); math.Abs(got-want) > 1e-9*want {
		t.Errorf("held copy took %g s, free copy %g s: holding must not change the copy", got, want)
	}
}

// A flag set before the kernel reaches the head of its stream does not
// hold it: the kernel runs right after the work ahead of it.
func TestFlagSetEarly(t *testing.T) {
	ops := []trace.Op{device("a", 0, 64*mib), device("b", 1, 64*mib),
		{Op: trace.MemcpyPeerAsy, Src: "a", Dst: "b", Bytes: 64 * mib, Stream: 1},
		delay(0, 1, "go"),
		{Op: trace.FlagSet, Flag: "go"},
		{Op: trace.StreamSync, Stream: 1}}
	res, _ := run(t, nil, ops)
	cp, k, set := res[2], res[3], res[4]
	if set.End >= cp.End {
		t.Fatalf("flag set at %g s, after the copy ended (%g s): the test needs it set early", set.End, cp.End)
	}
	after(t, "delay kernel behind the copy", k, cp)
	if k.End-cp.End > 10e-6 {
		t.Errorf("delay kernel ended %g s after the copy, want a kernel's launch and end costs", k.End-cp.End)
	}
}

// A flag never set (a trace Check refuses) ends the run with an error at
// the first call that never returns (the device_sync behind the waiting
// kernel), not a hang.
func TestFlagNeverSet(t *testing.T) {
	ops := []trace.Op{delay(2, 1, "never"), {Op: trace.DeviceSync}}
	_, err := build(t, nil).Run(ops)
	if err == nil || !strings.Contains(err.Error(), ":2: op: this call never returns: what it waits for never comes") {
		t.Fatalf("got %v, want the device_sync (op 2) that never returns", err)
	}
}
