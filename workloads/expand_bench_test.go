package workloads

import (
	"fmt"
	"testing"

	"github.com/akisim/akisim/halo"
	"github.com/akisim/akisim/mpi"
)

// BenchmarkHaloExpand is the MPI expansion alone of the comm-aggr case's
// 64³ part (BenchmarkHaloCommAggr/64): every run's ops made outside the
// timer, then mpi.Expand, so its CPU and allocations can be read apart
// from the simulation's. cmds/op is how many commands an op became.
func BenchmarkHaloExpand(b *testing.B) {
	c := frontier(b, fmt.Sprintf("network.nodes=%d", 8))
	h := Halo{Bench: "exchange", Dims: []int{64, 64, 64}, Radius: 4, Fields: []int{1, 2, 4, 8, 16}, Strategies: HaloExchangeLabels,
		QueryNs: c.Runtime.APICallNs, Yaksa: c.Env.EnableYaksa == 1, Warmup: 1, Samples: 3, Procs: 64, Decomps: []string{halo.MPIDefault},
		Levels: halo.LUMILevels, GCDNUMA: c.GlobalGCDNUMA(), GCDsPerNode: c.GCD.Count, PostNs: c.MPI.PostNs, NUMA: c.Host.GCDNUMA[0]}
	runs, err := h.Runs()
	if err != nil {
		b.Fatal(err)
	}
	p := mpi.FromConfig(c)
	b.ReportAllocs()
	var ops, cmds int
	for b.Loop() {
		ops, cmds = 0, 0
		for _, r := range runs {
			b.StopTimer()
			in := r.Operations()
			b.StartTimer()
			ops += len(in)
			cmds += len(mpi.Expand(in, p))
		}
	}
	b.ReportMetric(float64(cmds)/float64(ops), "cmds/op")
}
