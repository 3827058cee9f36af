package validate

import (
	"fmt"
	"strconv"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/workloads"
)

// mpiPoints are E7 with SDMA: osu_bw of 1 GiB messages from GCD 0 to each
// other GCD is a chain of SDMA peer copies, so it stays at or below
// 50 GB/s and within 10% of the hipMemcpyPeer plateau to the same GCD
// (the published p2p matrix, E4).
func mpiPoints(c *config.Node, ref Reference) ([]Point, error) {
	var pts []Point
	for g := 1; g < c.GCD.Count; g++ {
		runs, err := workloads.OSU{Bench: "osu_bw", GCDs: []int{0, g}, Sizes: []int64{1 << 30}, Window: 64, Iterations: 1}.Runs()
		if err != nil {
			return nil, err
		}
		res, err := workloads.Execute(c, runs)
		if err != nil {
			return nil, err
		}
		bw := res.Rows[0].Value
		name := fmt.Sprintf("osu_bw GCD 0 -> %d, 1 GiB", g)
		if pub, ok := ref[[3]string{"bandwidth", "0", strconv.Itoa(g)}]; ok {
			pts = append(pts, Point{Experiment: "E7 MPI over SDMA", Name: name + " / hipMemcpyPeer",
				Simulated: bw, Published: pub, Tolerance: 0.10, Unit: "GB/s"})
		}
		pts = append(pts, Point{Experiment: "E7 MPI over SDMA", Name: name + ", at most 50",
			Simulated: bw, Published: 50, AtMost: true, Unit: "GB/s"})
	}
	return pts, nil
}
