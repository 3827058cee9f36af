package workloads

import (
	"math"
	"testing"

	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/trace"
)

func osuRow(t *testing.T, o OSU, sets ...string) float64 {
	t.Helper()
	runs, err := o.Runs()
	return mustExecute(t, frontier(t, sets...), runs, err).Rows[0].Value
}

// osu_bw of large messages runs at the rate of the same copies made with
// hipMemcpyPeerAsync back to back (the library's copy is that SDMA copy):
// engine-bound to GCD 1, link-bound over the single link to GCD 2 (E7 with
// SDMA; E7 wants both within 10% of the hipMemcpyPeer plateau).
func TestOSUBandwidth(t *testing.T) {
	const n, w = 64 << 20, 64
	for _, g := range []int{1, 2} {
		got := osuRow(t, OSU{Bench: "osu_bw", GCDs: []int{0, g}, Sizes: []int64{n}, Window: w, Iterations: 1})
		ops := []trace.Op{alloc("s", 0, n), alloc("r", g, n), record("a", 1)}
		for j := 0; j < w; j++ {
			ops = append(ops, trace.Op{Op: trace.MemcpyPeerAsy, Src: "s", Dst: "r", Bytes: n, Stream: 1})
		}
		ops = append(ops, record("b", 1), trace.Op{Op: trace.EventSync, Event: "b"})
		res, err := run.Execute(frontier(t), []job.Run{{Name: "peer", Ops: ops, Rows: func(r *job.Replay) []report.Row {
			return []report.Row{{Value: gbps(n*w, r.Elapsed("a", "b"))}}
		}}})
		if err != nil {
			t.Fatal(err)
		}
		peer := res.Rows[0].Value
		if math.Abs(got-peer) > 0.02*peer {
			t.Errorf("osu_bw 0 -> %d: %.2f GB/s, want hipMemcpyPeerAsync's %.2f within 2%%", g, got, peer)
		}
	}
}

// osu_latency of small messages is the staged path's host copies and
// flags, tens of microseconds; an IPC-sized one is dearer than a staged
// one of a byte.
func TestOSULatency(t *testing.T) {
	small := osuRow(t, OSU{Bench: "osu_latency", GCDs: []int{0, 1}, Sizes: []int64{8}, Iterations: 1})
	big := osuRow(t, OSU{Bench: "osu_latency", GCDs: []int{0, 1}, Sizes: []int64{1 << 20}, Iterations: 1})
	t.Logf("osu_latency 8 B %.2f us, 1 MiB %.2f us", small, big)
	if math.IsNaN(small) || small <= 0 || big <= small {
		t.Errorf("latency 8 B %.2f us, 1 MiB %.2f us: want 0 < small < big", small, big)
	}
}

// osu_bibw between two nodes, past the rendezvous threshold: each rank
// posts its window of receives before its sends, so each receive's get
// waits for a header the other rank has yet to put. The gets must not sit
// in front of the rank's own puts (it used to deadlock from 32 KiB up).
// Both directions then run at once: at most twice osu_bw, and above it
// once the links, not the NICs' commands, bound the messages (1 MiB).
func TestOSUBidirectionalBetweenNodes(t *testing.T) {
	for _, n := range []int64{32 << 10, 1 << 20} {
		o := OSU{GCDs: []int{0, 8}, Sizes: []int64{n}, Window: 64, Iterations: 2}
		o.Bench = "osu_bibw"
		bi := osuRow(t, o, "network.nodes=2")
		o.Bench = "osu_bw"
		uni := osuRow(t, o, "network.nodes=2")
		if !(bi > 0 && bi <= 2.02*uni) || n == 1<<20 && bi <= 1.5*uni {
			t.Errorf("%d B: osu_bibw %.2f GB/s, osu_bw %.2f: want bibw at most twice bw (and 1.5 times at 1 MiB)", n, bi, uni)
		}
	}
}
