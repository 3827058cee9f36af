package workloads

import (
	"math"
	"strings"
	"testing"
)

// -alloc SRC:DST puts the copy's source array on SRC and its destination
// on DST: on GCD 0 reading GCD 2 over the single link, the copy moves the
// link's data rate once as reads and once as local writes, and STREAM
// counts both, so the row shows twice the link's read-data rate, 43.2 GB/s
// (50 x 64/74: read data carries xgmi.response_overhead_bytes).
// With both arrays on GCD 2 the link carries the reads one way and the
// writes the other, and the row is the same 2 x 37.6 less the wait for
// acknowledgements; the split run must not be slower than that.
func TestStreamSplitAlloc(t *testing.T) {
	c := frontier(t)
	measure := func(alloc string) (float64, string) {
		res := runStream(t, c, Stream{GCDs: []int{0}, Alloc: alloc, Sizes: []int64{1 << 30}, Kernels: []string{"copy"},
			Iterations: 2, Workgroup: 128, NUMA: c.Host.GCDNUMA})
		return res.Rows[0].Value, res.Rows[0].Src
	}
	split, src := measure("2:0")
	x := c.XGMI
	rate := x.LaneBandwidthGBps * float64(x.PacketPayloadBytes) / float64(x.PacketPayloadBytes+x.ResponseOverheadBytes)
	if want := 2 * rate; math.Abs(split-want) > 0.01*want || src != "gcd2" {
		t.Errorf("-alloc 2:0: %.2f GB/s from %s, want %.2f from gcd2", split, src, want)
	}
	if both, _ := measure("2"); both > split {
		t.Errorf("-alloc 2 (%.2f GB/s) faster than -alloc 2:0 (%.2f GB/s)", both, split)
	}
	if _, src := measure("host:0"); src != "numa3" {
		t.Errorf("-alloc host:0: source %s, want numa3 (GCD 0's domain)", src)
	}
	for _, bad := range []string{"9:0", "1:", ":1", "2:x", "a:b:c"} {
		st := Stream{GCDs: []int{0}, Alloc: bad, Sizes: []int64{1 << 20}, Kernels: []string{"copy"}, NUMA: c.Host.GCDNUMA}
		if _, err := st.Runs(); err == nil || !strings.HasPrefix(err.Error(), "-alloc: ") {
			t.Errorf("-alloc %s: err %v, want an -alloc error", bad, err)
		}
	}
}

// -passes has each kernel go over its arrays again: arrays that fit the L2
// are fetched from HBM once and the later passes hit, so the loop beats
// what HBM sustains; arrays four times the L2 stream from HBM on every
// pass, and the loop runs at HBM's rate, as one pass does at that size.
func TestStreamPasses(t *testing.T) {
	c := frontier(t)
	hbm := c.GCD.HBMBandwidthGBps * c.GCD.HBMEfficiency
	l2Peak := float64(c.GCD.L2Slices*c.GCD.L2BytesPerClock) * c.GCD.ClockGHz
	loop := func(n, passes int64) float64 {
		res := runStream(t, c, Stream{GCDs: []int{0}, Alloc: "local", Sizes: []int64{n}, Kernels: []string{"scale"},
			Iterations: 2, Workgroup: 128, NUMA: c.Host.GCDNUMA, Passes: passes})
		return res.Rows[0].Value
	}
	if got := loop(1<<20, 256); got < 2*hbm || got > l2Peak {
		t.Errorf("256 passes over 1 MiB arrays: %.0f GB/s, want above twice HBM's %.0f and at most the L2's %.0f", got, hbm, l2Peak)
	}
	if got := loop(1<<30, 4); got > 1.02*hbm || got < 0.9*hbm {
		t.Errorf("4 passes over 1 GiB arrays: %.0f GB/s, want HBM's %.0f", got, hbm)
	}
	st := Stream{GCDs: []int{0}, Alloc: "local", Sizes: []int64{1 << 20}, Kernels: []string{"copy"}, NUMA: c.Host.GCDNUMA, Workgroup: 128, Passes: -1}
	if _, err := st.Runs(); err == nil || !strings.HasPrefix(err.Error(), "-passes: ") {
		t.Errorf("-passes -1: err %v, want a -passes error", err)
	}
}

// A window of loads in flight per CU binds a loop over L2-resident arrays
// by Little's law: twice the window, twice the rate, both well below the
// loop with the CU's own window.
func TestStreamInFlight(t *testing.T) {
	c := frontier(t)
	loop := func(inFlight int64) float64 {
		res := runStream(t, c, Stream{GCDs: []int{0}, Alloc: "local", Sizes: []int64{1 << 20}, Kernels: []string{"scale"},
			Iterations: 2, Workgroup: 128, NUMA: c.Host.GCDNUMA, Passes: 256, InFlight: inFlight})
		return res.Rows[0].Value
	}
	own, four, eight := loop(0), loop(4<<10), loop(8<<10)
	if r := eight / four; r < 1.8 || r > 2.2 || eight > own/2 {
		t.Errorf("4 and 8 KiB in flight: %.0f and %.0f GB/s (x%.2f), the CU's own window %.0f; want x2 and below half of it", four, eight, r, own)
	}
}
