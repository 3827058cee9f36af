package workloads

import (
	"math"
	"testing"
)

// One pair of osu_mbw_mr is osu_bw (the same window and answer, plus a
// barrier per iteration, which costs a small message's time), and one
// pair of osu_multi_lat is osu_latency; LUMI's four intra-node quad pairs
// (GCDs 4 2 6 0 5 3 7 1, rank i with i+4) use four links and eight
// engines, so they move four times one pair's bandwidth.
func TestOSUMultiPairs(t *testing.T) {
	const n = 4 << 20
	bw := osuRow(t, OSU{Bench: "osu_bw", GCDs: []int{0, 1}, Sizes: []int64{n}, Window: 64, Iterations: 1})
	mbw := osuRow(t, OSU{Bench: "osu_mbw_mr", GCDs: []int{0, 1}, Sizes: []int64{n}, Window: 64, Iterations: 1})
	if math.Abs(mbw/bw-1) > 0.02 {
		t.Errorf("osu_mbw_mr, one pair: %.2f GB/s, osu_bw %.2f: want within 2%%", mbw, bw)
	}
	four := osuRow(t, OSU{Bench: "osu_mbw_mr", GCDs: []int{4, 2, 6, 0, 5, 3, 7, 1}, Sizes: []int64{n}, Window: 64, Iterations: 1})
	if math.Abs(four/(4*mbw)-1) > 0.05 {
		t.Errorf("osu_mbw_mr, four quad pairs: %.2f GB/s, want four times one pair's %.2f within 5%%", four, mbw)
	}
	lat := osuRow(t, OSU{Bench: "osu_latency", GCDs: []int{0, 1}, Sizes: []int64{8}, Iterations: 1})
	multi := osuRow(t, OSU{Bench: "osu_multi_lat", GCDs: []int{0, 1}, Sizes: []int64{8}, Iterations: 1})
	if math.Abs(multi/lat-1) > 0.02 {
		t.Errorf("osu_multi_lat, one pair: %.3f us, osu_latency %.3f: want within 2%%", multi, lat)
	}
}

// -x 0 times the first iteration too, so the one IPC handle open (at
// least mpi.ipc_open_ns) lands in the mean; with the warm-up it does not.
func TestOSUWarmup(t *testing.T) {
	warm := osuRow(t, OSU{Bench: "osu_latency", GCDs: []int{0, 1}, Sizes: []int64{1 << 20}, Iterations: 2})
	cold := osuRow(t, OSU{Bench: "osu_latency", GCDs: []int{0, 1}, Sizes: []int64{1 << 20}, Iterations: 2, WarmupSet: true})
	c := frontier(t)
	if cold-warm < c.MPI.IPCOpenNs/1e3/2/2*0.99 { // one open per direction, over 2 iterations x 2 ways
		t.Errorf("osu_latency 1 MiB: %.2f us without warm-up, %.2f with: want the handle opens' %.1f us more", cold, warm, c.MPI.IPCOpenNs/1e3/2)
	}
}
