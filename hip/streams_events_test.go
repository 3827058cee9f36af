package hip_test

import (
	"testing"

	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/node"
	"github.com/akisim/akisim/trace"
	"github.com/sarchlab/akita/v3/sim"
)

// replayed replays ops on the Frontier node; the replay must succeed.
func replayed(t *testing.T, ops []trace.Op) ([]hip.OpResult, *node.Node) {
	t.Helper()
	res, n, err := replay(t, ops)
	if err != nil {
		t.Fatal(err)
	}
	return res, n
}

// recordedAfter is when rank's event was recorded; the test stops unless
// it was, at or after the end of op, the work recorded behind.
func recordedAfter(t *testing.T, n *node.Node, rank int, event string, op hip.OpResult) sim.VTimeInSec {
	t.Helper()
	e, ok := n.Runtime.EventOf(rank, event)
	if !ok || e < op.End {
		t.Fatalf("rank %d's event %s at %g (recorded: %v), the work before it ended at %g", rank, event, e, ok, op.End)
	}
	return e
}

// Streams of two ranks wait on events recorded out of order, one stream
// twice in a row, beside streams that never wait: each held copy starts
// only once the event it waits for is recorded, and each stream is let go
// when its own event is, not the other's (an event record looks only at
// the streams held at a wait).
func TestWaitsOnManyStreams(t *testing.T) {
	onRank := func(o trace.Op, rank int) trace.Op { o.Rank = rank; return o }
	rec := func(e string, s, rank int) trace.Op {
		return onRank(trace.Op{Op: trace.EventRecord, Event: e, Stream: s}, rank)
	}
	wait := func(e string, s, rank int) trace.Op {
		return onRank(trace.Op{Op: trace.StreamWait, Event: e, Stream: s}, rank)
	}
	ops := []trace.Op{dev("a", 0), dev("b", 1), dev("c", 2), dev("d", 3), dev("e", 4), dev("f", 5),
		onRank(dev("g", 6), 1), onRank(dev("h", 7), 1),
		cp("a", "b", 1), rec("slow", 1, 0), // 8, 9: rank 0's slow, behind a 64 MiB copy
		rec("fast", 3, 0),                   // 10: on an empty stream, at once
		wait("slow", 2, 0), cp("c", "d", 2), // 11, 12
		wait("fast", 4, 0), wait("slow", 4, 0), cp("e", "f", 4), // 13..15: two waits in a row
		cp("b", "a", 5),                               // 16: waits on nothing
		onRank(cp("g", "h", 1), 1), rec("slow", 1, 1), // 17, 18: rank 1's own slow
		wait("slow", 2, 1), onRank(cp("h", "g", 2), 1), // 19, 20
	}
	res, n := replayed(t, ops)
	slow, slow1 := recordedAfter(t, n, 0, "slow", res[8]), recordedAfter(t, n, 1, "slow", res[17])
	for _, c := range []struct {
		op    int
		after float64
		what  string
	}{{12, float64(slow), "stream 2 behind rank 0's slow"}, {15, float64(slow), "stream 4 behind fast, then slow"},
		{20, float64(slow1), "rank 1's stream 2 behind its own slow"}} {
		if got := float64(res[c.op].Start); got < c.after {
			t.Errorf("%s: started at %g, before its event at %g", c.what, got, c.after)
		}
	}
	if res[16].Start >= res[8].End {
		t.Errorf("stream 5 waits on nothing but started at %g, after the slow copy ended (%g)", res[16].Start, res[8].End)
	}
	for i, r := range res {
		if !r.Done {
			t.Errorf("op %d (%s) never finished", i, r.Op.Op)
		}
	}
}

// A stream_sync or device_sync returns once its stream's last item goes,
// whichever it is: a copy, or an event record that follows a copy (it
// goes as the copy ends, taken off the queue at once, not in flight).
// Each rank syncs while its stream is busy, so it waits for the stream.
func TestSyncsEndWithTheirStream(t *testing.T) {
	onRank := func(o trace.Op, rank int) trace.Op { o.Rank = rank; return o }
	ops := []trace.Op{dev("a", 0), dev("b", 1), onRank(dev("c", 2), 1), onRank(dev("d", 3), 1),
		onRank(dev("e", 4), 2), onRank(dev("f", 5), 2), onRank(dev("g", 6), 3), onRank(dev("h", 7), 3),
		cp("a", "b", 1), {Op: trace.StreamSync, Stream: 1}, // 8, 9: the copy last
		onRank(cp("c", "d", 1), 1), onRank(trace.Op{Op: trace.EventRecord, Event: "x", Stream: 1}, 1), // 10, 11
		onRank(trace.Op{Op: trace.StreamSync, Stream: 1}, 1),                  // 12: the record last
		onRank(cp("e", "f", 1), 2), onRank(trace.Op{Op: trace.DeviceSync}, 2), // 13, 14
		onRank(cp("g", "h", 1), 3), onRank(trace.Op{Op: trace.EventRecord, Event: "x", Stream: 1}, 3), // 15, 16
		onRank(trace.Op{Op: trace.DeviceSync}, 3), // 17
	}
	res, _ := replayed(t, ops)
	for _, c := range []struct{ sync, work int }{{9, 8}, {12, 10}, {14, 13}, {17, 15}} {
		s, w := res[c.sync], res[c.work]
		if !s.Done || s.End < w.End || s.Start >= w.End {
			t.Errorf("%s (op %d): from %g to %g (done: %v), its stream's copy ran to %g",
				s.Op.Op, c.sync, s.Start, s.End, s.Done, w.End)
		}
	}
}
