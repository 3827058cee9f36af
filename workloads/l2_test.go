package workloads

import (
	"testing"

	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/node"
	"github.com/akisim/akisim/run"
)

// streamL2 runs STREAM copy then scale (scale reads what copy wrote) on
// GCD 0 with local arrays of n bytes, and returns each kernel's best
// bandwidth and the L2's read hit and fetched bytes over the runs.
func streamL2(t *testing.T, n int64) (rows map[string]float64, hit, fetched uint64) {
	c := frontier(t)
	run.AfterRun = func(nd *node.Node, _ job.Run, _ []hip.OpResult) {
		hit += nd.GCDs[0].L2.HitBytes
		fetched += nd.GCDs[0].L2.FillBytes
	}
	defer func() { run.AfterRun = nil }()
	st := Stream{GCDs: []int{0}, Alloc: "local", Sizes: []int64{n}, Kernels: []string{"copy", "scale"},
		Iterations: 2, Workgroup: 128, NUMA: c.Host.GCDNUMA}
	res := runStream(t, c, st)
	rows = map[string]float64{}
	for _, r := range res.Rows {
		rows[r.Case] = r.Value
	}
	return rows, hit, fetched
}

// A working set four times the L2 streams from HBM: almost no read hits,
// and no kernel beats what HBM sustains. A working set that fits is read
// from the L2 the second time: the hit bytes explain the speed.
func TestStreamL2(t *testing.T) {
	c := frontier(t)
	hbm := c.GCD.HBMBandwidthGBps * c.GCD.HBMEfficiency
	big, hit, fetched := streamL2(t, 16<<20) // 32 MiB per kernel, L2 8 MiB
	t.Logf("16 MiB arrays: copy %.0f GB/s, scale %.0f GB/s; L2 read hits %d B, fetched %d B",
		big["copy"], big["scale"], hit, fetched)
	for k, v := range big {
		if v > hbm {
			t.Errorf("16 MiB %s: %.0f GB/s above the %.0f GB/s HBM sustains", k, v, hbm)
		}
	}
	// what a kernel finds of the previous one's data is at most what the L2
	// held when it started, and most of it is evicted before it is read
	if hit > uint64(c.GCD.L2Bytes) {
		t.Errorf("16 MiB: %d bytes hit in the L2 (against %d fetched), more than the L2 holds; "+
			"a working set 4x the L2 should stream", hit, fetched)
	}
	small, hit, fetched := streamL2(t, 1<<20) // 2 MiB per kernel fits
	t.Logf("1 MiB arrays: copy %.0f GB/s, scale %.0f GB/s; L2 read hits %d B, fetched %d B",
		small["copy"], small["scale"], hit, fetched)
	// copy's first read of a misses; scale reads c that copy left, and the
	// second run finds a and c again
	if fetched != 1<<20 || hit != 3<<20 {
		t.Errorf("1 MiB: %d bytes fetched, %d hit; want a fetched once (1 MiB) and every other read a hit (3 MiB)",
			fetched, hit)
	}
}
