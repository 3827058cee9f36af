package validate

import (
	"fmt"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/workloads"
)

// haloPoints are seed 001's packing claims (shared/docs/halo-exchange.md):
// at 256 per axis, in 2D and above, the fully fused kernel
// (acm-pack-batched) is 10-100x faster than MPI_Pack of subarray types
// (mpi-pack); as the field count grows 1..16 it grows least of acm's
// kernels.
func haloPoints(c *config.Node) ([]Point, error) {
	const exp = "Halo packing (seed 001)"
	h := workloads.Halo{Bench: "pack", Radius: 4, Strategies: []string{"mpi-pack", "acm-pack", "acm-pack-packed", "acm-pack-batched"},
		NUMA: c.Host.GCDNUMA[0], QueryNs: c.Runtime.APICallNs, Yaksa: c.Env.EnableYaksa == 1, Warmup: 1, Samples: 1}
	var pts []Point
	for _, dims := range [][]int{{256, 256}, {256, 256, 256}} {
		h.Dims, h.Fields = dims, []int{1, 16}
		t, err := haloTimes(c, h)
		if err != nil {
			return nil, err
		}
		ratio := t[workloads.HaloCase("mpi-pack", dims, 1, 4)] / t[workloads.HaloCase("acm-pack-batched", dims, 1, 4)]
		name := fmt.Sprintf("%dD 256 per axis, nf 1: mpi-pack / acm-pack-batched", len(dims))
		low := Point{Experiment: exp, Name: name + ", at least 10", Simulated: ratio, Published: 10, AtLeast: true, Unit: "x"}
		if len(dims) == 2 {
			low.Gap = "an MPI_Pack of yaksa's engine is one pack kernel and its wait, about the one fused kernel's time, so the ratio is about the 8 calls (docs/model.md, Halo packing)"
		}
		pts = append(pts, low, Point{Experiment: exp, Name: name + ", at most 100", Simulated: ratio, Published: 100, AtMost: true, Unit: "x"})
		grow := func(l string) float64 {
			return t[workloads.HaloCase(l, dims, 16, 4)] - t[workloads.HaloCase(l, dims, 1, 4)]
		}
		if len(dims) == 2 { // where launches, not HBM, set the times
			pts = append(pts, Point{Experiment: exp, Name: fmt.Sprintf("%dD nf 1 -> 16: growth of acm-pack-batched / of acm-pack-packed, below 1", len(dims)),
				Simulated: grow("acm-pack-batched") / grow("acm-pack-packed"), Published: 1, AtMost: true, Unit: "x"})
		}
	}
	return pts, nil
}

// haloTimes runs the pack benchmark h on c: each case's median time, us.
func haloTimes(c *config.Node, h workloads.Halo) (map[string]float64, error) {
	runs, err := h.Runs()
	if err != nil {
		return nil, err
	}
	res, err := workloads.Execute(c, runs)
	if err != nil {
		return nil, err
	}
	t := map[string]float64{}
	for _, r := range res.Rows {
		t[r.Case] = r.Value
	}
	return t, nil
}
