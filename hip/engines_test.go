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
