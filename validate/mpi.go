package validate

import (
	"fmt"
	"strconv"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/workloads"
)

// mpiPoints are E7 with SDMA: osu_bw of 1 GiB messages from GCD 0 to each
// other GCD is a chain of SDMA peer copies, so it stays at or below
// 50 GB/s and within 10% of the hipMemcpyPeer plateau to the same GCD
// (the published p2p matrix, E4).
func mpiPoints(c *config.Node, ref Reference) ([]Point, error) {
	var pts []Point
	for g := 1; g < c.GCD.Count; g++ {
		bw, err := osu(c, "osu_bw", []int{0, g}, 1<<30)
		if err != nil {
			return nil, err
		}
		name := fmt.Sprintf("osu_bw GCD 0 -> %d, 1 GiB", g)
		if pub, ok := ref[[3]string{"bandwidth", "0", strconv.Itoa(g)}]; ok {
			pts = append(pts, Point{Experiment: "E7 MPI over SDMA", Name: name + " / hipMemcpyPeer",
				Simulated: bw, Published: pub, Tolerance: 0.10, Unit: "GB/s"})
		}
		pts = append(pts, Point{Experiment: "E7 MPI over SDMA", Name: name + ", at most 50",
			Simulated: bw, Published: 50, AtMost: true, Unit: "GB/s"})
	}
	nos, err := mpiBlitPoints(c)
	if err != nil {
		return nil, err
	}
	return append(pts, nos...), nil
}

// mpiBlitPoints are E7 without SDMA (HSA_ENABLE_SDMA=0: the library's
// copies are blit kernels): osu_bw against the seed's "direct P2P" copy, a
// STREAM copy on GCD 0 reading GCD k and writing its own memory, whose row
// counts read and write while the link carries half; and non-neighbours
// against neighbours behind the same bottleneck link. 64 MiB messages: the
// plateau (1 GiB is within 3%, and 16 times the simulation).
func mpiBlitPoints(c *config.Node) ([]Point, error) {
	const n = 64 << 20
	bw := map[int]float64{}
	blit := *c
	blit.Env.EnableSDMA = 0
	var err error
	for _, g := range []int{1, 2, 3} {
		if bw[g], err = osu(&blit, "osu_bw", []int{0, g}, n); err != nil {
			return nil, err
		}
	}
	var pts []Point
	for _, g := range []int{1, 2} {
		direct, err := stream(c, []int{0}, fmt.Sprintf("%d:0", g), n)
		if err != nil {
			return nil, err
		}
		pts = append(pts, Point{Experiment: "E7 MPI without SDMA", Name: fmt.Sprintf("osu_bw GCD 0 -> %d / direct P2P link rate, 0.85-0.90", g),
			Simulated: bw[g] / (direct / 2), Published: 0.875, Tolerance: 0.03, Unit: "x"})
	}
	pts = append(pts, Point{Experiment: "E7 MPI without SDMA", Name: "osu_bw GCD 0 -> 3 (two hops) / -> 2 (same single-link bottleneck)",
		Simulated: bw[3] / bw[2], Published: 1, Tolerance: 0.10, Unit: "x"})
	return pts, nil
}

// osu is the result of OSU's bench on gcds for bytes messages on c (one
// row: osu_bw's bandwidth, a collective's average latency).
func osu(c *config.Node, bench string, gcds []int, bytes int64) (float64, error) {
	runs, err := workloads.OSU{Bench: bench, GCDs: gcds, Sizes: []int64{bytes}, Window: 64, Iterations: 1}.Runs()
	if err != nil {
		return 0, err
	}
	return firstValue(c, runs)
}

// firstValue runs runs on c and returns the first row's value.
func firstValue(c *config.Node, runs []job.Run) (float64, error) {
	res, err := run.Execute(c, runs)
	if err != nil {
		return 0, err
	}
	if len(res.Rows) == 0 {
		return 0, fmt.Errorf("validate: %s gave no rows", runs[0].Name)
	}
	return res.Rows[0].Value, nil
}
