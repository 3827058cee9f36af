package hip_test

import (
	"math"
	"testing"

	"github.com/akisim/akisim/trace"
)

// Kernels of different streams run side by side on a GCD, up to
// gcd.concurrent_kernels hardware queues (ROCclr's GPU_MAX_HW_QUEUES);
// kernels of one stream run in order. Two compute-bound kernels (one
// workgroup of 1 ms each) on streams 1 and 2 take 1 ms together with 4
// queues and 2 ms with 1; on one stream they take 2 ms either way.
func TestKernelsOfStreamsRunSideBySide(t *testing.T) {
	busy := func(stream int) trace.Op {
		return trace.Op{Op: trace.Kernel, Name: "busy", GCD: intp(0), Stream: stream, Grid: 64, Workgroup: 64, ComputeNs: 1e6,
			Access: []trace.Access{{Buf: "b", Mode: "read", Bytes: 64}}}
	}
	span := func(sets []string, s1, s2 int) float64 {
		res, _ := run(t, sets, []trace.Op{device("b", 0, 4096), busy(s1), busy(s2), {Op: trace.DeviceSync}})
		return float64(max(res[1].End, res[2].End) - min(res[1].Start, res[2].Start))
	}
	for _, c := range []struct {
		sets   []string
		s2     int
		wantMs float64
	}{
		{nil, 2, 1}, {[]string{"gcd.concurrent_kernels=1"}, 2, 2}, {nil, 1, 2},
	} {
		got := span(c.sets, 1, c.s2) * 1e3
		if math.Abs(got-c.wantMs) > 0.02 {
			t.Errorf("%v, streams 1 and %d: %.3f ms, want %.0f ms", c.sets, c.s2, got, c.wantMs)
		}
	}
}
