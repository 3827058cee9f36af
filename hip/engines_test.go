package hip_test

import (
	"testing"

	"github.com/akisim/akisim/trace"
)

// Streams belong to their rank, and so do the SDMA queues they take: two
// ranks' copies on their own stream 1 into the same GCD spread over its
// host engines like two streams of one rank, not onto one queue.
func TestRanksTakeTheirOwnSDMAQueues(t *testing.T) {
	const size = 4 * mib
	copyTo := func(h, d string) []trace.Op {
		return []trace.Op{host(h, 3, size), device(d, 0, size), copyAsync(h, d, size, 1)}
	}
	res, _ := run(t, nil, append(withRank(0, copyTo("h0", "d0")...), withRank(1, copyTo("h1", "d1")...)...))
	a, b := res[2], res[5]
	if a.Op.Op != trace.MemcpyAsync || b.Op.Op != trace.MemcpyAsync || a.Engine == "" {
		t.Fatalf("ops %v and %v on %q and %q, want the two copies", a.Op.Op, b.Op.Op, a.Engine, b.Engine)
	}
	if a.Engine == b.Engine {
		t.Errorf("rank 0's and rank 1's stream 1 copies both ran on %s: want one host engine each", a.Engine)
	}
}

// ROCm 6.2 runs a copy between GCDs of up to 1 MiB as a blit kernel on
// the source GCD's CUs (ROCclr's ROC_P2P_SDMA_SIZE), a larger one on
// SDMA; 5.7, with an idle queue, puts both on SDMA.
func TestSmallPeerCopiesBlitOnROCm62(t *testing.T) {
	for _, tc := range []struct {
		rocm  string
		bytes int64
		blit  bool
	}{{"6.2", 1 << 20, true}, {"6.2", 1<<20 + 4096, false}, {"5.7", 1 << 20, false}, {"5.7", 4096, false}} {
		ops := []trace.Op{device("a", 0, tc.bytes), device("b", 2, tc.bytes),
			{Op: trace.MemcpyPeerAsy, Src: "a", Dst: "b", Bytes: tc.bytes, Stream: 1}, {Op: trace.StreamSync, Stream: 1}}
		res, n := run(t, []string{"stack.rocm=" + tc.rocm}, ops)
		if got := res[2].Engine == cusOf(n, 0).Name(); got != tc.blit {
			t.Errorf("ROCm %s, %d B from GCD 0 to 2: ran on %q, blit kernel %v, want %v", tc.rocm, tc.bytes, res[2].Engine, got, tc.blit)
		}
	}
}
