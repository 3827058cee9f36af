package hip_test

import (
	"strings"
	"testing"

	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/node"
	"github.com/akisim/akisim/trace"
)

func replay(t *testing.T, ops []trace.Op) ([]hip.OpResult, *node.Node, error) {
	t.Helper()
	n := build(t, nil)
	res, err := n.Run(ops)
	return res, n, err
}

func intp(v int) *int { return &v }

const mib = 1 << 20

func dev(name string, gcd int) trace.Op {
	return trace.Op{Op: trace.Malloc, Buf: name, GCD: intp(gcd), Bytes: 64 * mib}
}

func cp(src, dst string, stream int) trace.Op {
	return trace.Op{Op: trace.MemcpyPeerAsy, Src: src, Dst: dst, Bytes: 64 * mib, Stream: stream}
}

func TestStreamOrderAndOverlap(t *testing.T) {
	ops := []trace.Op{dev("a", 0), dev("b", 1), dev("c", 2), dev("d", 3),
		cp("a", "b", 1), cp("a", "b", 1), cp("c", "d", 2), {Op: trace.DeviceSync}}
	res, _, err := replay(t, ops)
	if err != nil {
		t.Fatal(err)
	}
	first, second, other := res[4], res[5], res[6]
	if second.Start < first.End {
		t.Errorf("second copy on stream 1 started at %g before the first ended at %g", second.Start, first.End)
	}
	if other.Start > first.End {
		t.Errorf("copy on stream 2 (%g) waited for stream 1 (%g)", other.Start, first.End)
	}
	if res[7].End < second.End {
		t.Error("device_sync returned before the work was done")
	}
}

// Four streams copying from GCD 0 share its three xGMI engines: the fourth
// stream gets a second queue of the first engine, whose copies take turns.
func TestStreamsSpreadOverEnginesThenQueues(t *testing.T) {
	ops := []trace.Op{dev("a", 0), dev("b", 1)}
	for s := 1; s <= 4; s++ {
		ops = append(ops, cp("a", "b", s))
	}
	ops = append(ops, trace.Op{Op: trace.DeviceSync})
	res, _, err := replay(t, ops)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]int{}
	for _, r := range res[2:6] {
		names[r.Engine]++
	}
	if len(names) != 3 {
		t.Errorf("copies ran on %d engines, want 3: %v", len(names), names)
	}
	if res[5].Start < res[2].End {
		t.Errorf("stream 4 shares stream 1's engine but overlapped it")
	}
}

func TestEventsAndWaits(t *testing.T) {
	ops := []trace.Op{dev("a", 0), dev("b", 1), dev("c", 2), dev("d", 3),
		cp("a", "b", 1),
		{Op: trace.EventRecord, Event: "e", Stream: 1},
		{Op: trace.StreamWait, Stream: 2, Event: "e"},
		cp("c", "d", 2),
		{Op: trace.EventSync, Event: "e"},
		{Op: trace.Malloc, Buf: "late", GCD: intp(0), Bytes: 64},
		{Op: trace.StreamSync, Stream: 2}}
	res, n := replayed(t, ops)
	e := recordedAfter(t, n, 0, "e", res[4])
	if res[7].Start < e {
		t.Errorf("stream 2 copy started at %g before the event it waits for (%g)", res[7].Start, e)
	}
	if res[9].Issue < e {
		t.Errorf("host called the op after event_sync at %g, before the event (%g)", res[9].Issue, e)
	}
	if res[10].End < res[7].End {
		t.Error("stream_sync returned before stream 2's copy ended")
	}
}

func TestBlockingCopyReturnsAfterIt(t *testing.T) {
	ops := []trace.Op{dev("a", 0), dev("b", 1),
		{Op: trace.MemcpyPeer, Src: "a", Dst: "b", Bytes: 64 * mib},
		{Op: trace.Malloc, Buf: "x", GCD: intp(0), Bytes: 64}}
	res, _, err := replay(t, ops)
	if err != nil {
		t.Fatal(err)
	}
	if res[3].Issue < res[2].End {
		t.Errorf("host went on at %g before the blocking copy ended at %g", res[3].Issue, res[2].End)
	}
}

func TestHostToHostIsAnError(t *testing.T) {
	ops := []trace.Op{{Op: trace.HostMalloc, Buf: "h1", NUMA: intp(0), Bytes: 64},
		{Op: trace.HostMalloc, Buf: "h2", NUMA: intp(1), Bytes: 64},
		{Op: trace.Memcpy, Src: "h1", Dst: "h2", Bytes: 64, Line: 3}}
	_, _, err := replay(t, ops)
	if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "host-to-host") {
		t.Errorf("error %v, want line 3 host-to-host", err)
	}
}
