package hip_test

import (
	"reflect"
	"testing"

	"github.com/akisim/akisim/trace"
)

// A kernel runs on the CUs of the GCD it is launched on and moves the bytes
// of its accesses there, in grid / workgroup workgroups.
func TestKernelRunsOnItsGCD(t *testing.T) {
	ops := []trace.Op{device("a", 6, 32*mib), device("b", 6, 32*mib), device("c", 6, 32*mib),
		kernel(6, 1, 32*mib, []string{"a", "b"}, []string{"c"}),
		{Op: trace.DeviceSync}}
	res, n := run(t, nil, ops)
	cus := cusOf(n, 6)
	if res[3].Engine != cus.Name() {
		t.Errorf("kernel ran on %q, want %q", res[3].Engine, cus.Name())
	}
	if got, want := kernelsBy(n), only(len(n.GCDs), 6, 1); !reflect.DeepEqual(got, want) {
		t.Errorf("kernels per GCD %v, want %v", got, want)
	}
	if want := uint64(32 * mib / 8 / 256); cus.Workgroups != want {
		t.Errorf("%d workgroups, want %d", cus.Workgroups, want)
	}
	if cus.BytesRead != 2*32*mib || cus.BytesWritten != 32*mib {
		t.Errorf("CUs read %d B and wrote %d B, want %d and %d", cus.BytesRead, cus.BytesWritten, 2*32*mib, 32*mib)
	}
	if b := sdmaBytes(n); b != 0 {
		t.Errorf("SDMA engines copied %d B during a kernel", b)
	}
}

// A kernel waits for a copy enqueued before it in its stream; a kernel on
// another stream does not. The launch itself returns to the host at once.
func TestKernelWaitsForEarlierCopyInItsStream(t *testing.T) {
	ops := []trace.Op{host("h", 0, 256*mib), device("d0", 0, 256*mib), device("d1", 1, 256*mib),
		copyAsync("h", "d0", 256*mib, 1),
		kernel(0, 1, 256*mib, []string{"d0"}, nil),
		kernel(1, 2, 256*mib, []string{"d1"}, nil),
		{Op: trace.DeviceSync}}
	res, n := run(t, nil, ops)
	cp, k0, k1 := res[3], res[4], res[5]
	if !engineOf(n.GCDs[0].HostEngines, cp.Engine) {
		t.Fatalf("copy ran on %q, want a host engine of GCD 0", cp.Engine)
	}
	after(t, "kernel behind the copy in stream 1", k0, cp)
	if k1.Start >= cp.End {
		t.Errorf("kernel on stream 2 started at %g s, after stream 1's copy ended (%g s): streams must overlap", k1.Start, cp.End)
	}
	if k1.Issue >= cp.End || k1.Issue > k0.Start {
		t.Errorf("host launched the second kernel at %g s, after stream 1's work began: kernel launches must not block", k1.Issue)
	}
	if res[6].End < k0.End || res[6].End < k1.End {
		t.Error("device_sync returned before the kernels ended")
	}
	if res[4].Engine != cusOf(n, 0).Name() || res[5].Engine != cusOf(n, 1).Name() {
		t.Errorf("kernels ran on %q and %q, want GCD 0's and GCD 1's CUs", res[4].Engine, res[5].Engine)
	}
}

// A copy waits for a kernel enqueued before it in its stream, and two
// kernels in one stream run one after the other.
func TestStreamWorkWaitsForEarlierKernel(t *testing.T) {
	ops := []trace.Op{device("d", 3, 128*mib), device("e", 3, 128*mib), host("h", 1, 128*mib),
		kernel(3, 4, 128*mib, nil, []string{"d"}),
		kernel(3, 4, 128*mib, []string{"d"}, []string{"e"}),
		copyAsync("e", "h", 128*mib, 4),
		{Op: trace.StreamSync, Stream: 4}}
	res, _ := run(t, nil, ops)
	after(t, "second kernel in the stream", res[4], res[3])
	after(t, "copy behind the kernel", res[5], res[4])
	if res[6].End < res[5].End {
		t.Error("stream_sync returned before the stream's copy ended")
	}
}

// A kernel on a stream that waits for an event recorded behind a copy on
// another stream starts only after that copy.
func TestKernelWaitsForEventOfOtherStream(t *testing.T) {
	ops := []trace.Op{host("h", 2, 128*mib), device("d", 4, 128*mib),
		copyAsync("h", "d", 128*mib, 1),
		{Op: trace.EventRecord, Event: "copied", Stream: 1},
		{Op: trace.StreamWait, Event: "copied", Stream: 2},
		kernel(4, 2, 128*mib, []string{"d"}, nil),
		{Op: trace.DeviceSync}}
	res, n := run(t, nil, ops)
	after(t, "kernel waiting for the event", res[5], res[2])
	if e, ok := n.Runtime.Event("copied"); !ok || res[5].Start < e {
		t.Errorf("kernel started at %g s, event completed at %g s (recorded %v)", res[5].Start, e, ok)
	}
}

// TestRecordedKernelKeepsItsDuration: a kernel with duration_ns runs that
// long on its GCD, and the next kernel of its stream starts after it.
func TestRecordedKernelKeepsItsDuration(t *testing.T) {
	rec := func(ns float64) trace.Op {
		return trace.Op{Op: trace.Kernel, Name: "recorded", GCD: intp(2), Stream: 1, Grid: 256, Workgroup: 256, DurationNs: ns}
	}
	out, _ := run(t, nil, []trace.Op{rec(100e3), rec(40e3), {Op: trace.DeviceSync}})
	for i, want := range []float64{100e3, 40e3} {
		got := float64(out[i].End-out[i].Start) * 1e9
		// the result's span includes the launch the model adds: on an idle
		// queue the CP's wake-up and packet fetch (7.4 us), then dispatch
		// and end (1.05 us)
		if got < want || got > want+8500 {
			t.Errorf("kernel %d ran %.0f ns, want its %.0f and at most a launch more", i, got, want)
		}
	}
	if out[1].Start < out[0].End {
		t.Errorf("the second kernel started at %v, before the first ended at %v", out[1].Start, out[0].End)
	}
}
