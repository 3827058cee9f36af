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
