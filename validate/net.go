package validate

import (
	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/workloads"
)

// netPoints are the inter-node reference values LUMI's regression tests
// check (docs/references.md [lumi-reframe]): GPU-buffer osu_bw 23.8 GB/s at
// 4 MiB and osu_latency 2.5 us at 8 B between GCD 0 of two nodes, and
// rccl-tests all_reduce_perf on 2 nodes x 8 GCDs reaching 85 GB/s busbw
// at 128 MiB (at most the 4 NICs' 100 GB/s).
func netPoints(c *config.Node) ([]Point, error) {
	two := *c
	two.Network.Nodes = 2
	bw, err := osu(&two, "osu_bw", []int{0, 8}, 4<<20)
	if err != nil {
		return nil, err
	}
	lat, err := osu(&two, "osu_latency", []int{0, 8}, 8)
	if err != nil {
		return nil, err
	}
	const exp = netExperiment
	pts := []Point{
		{Experiment: exp, Name: "osu_bw GCD 0 -> 8 (two nodes), 4 MiB", Simulated: bw, Published: 23.82, Tolerance: 0.10, Unit: "GB/s"},
		{Experiment: exp, Name: "osu_latency GCD 0 -> 8 (two nodes), 8 B", Simulated: lat, Published: 2.5, Tolerance: 0.20, Unit: "us"},
	}
	var gcds []int
	for g := range 2 * c.GCD.Count {
		gcds = append(gcds, g)
	}
	m := lumiAllReduce
	t := workloads.RCCLTests{Bench: m.Bench, GCDs: gcds, Sizes: []int64{m.Bytes}, Datatype: "float",
		Warmup: 1, Iterations: 1, GCDsPerNode: c.GCD.Count, OutOfPlace: true}
	runs, err := t.Runs()
	if err != nil {
		return nil, err
	}
	res, err := run.Execute(&two, runs)
	if err != nil {
		return nil, err
	}
	for _, r := range res.Rows {
		if r.Metric == m.Metric {
			pts = append(pts, Point{Experiment: exp, Name: "rccl-tests all_reduce_perf, 2 nodes x 8 GCDs, 128 MiB, busbw >= 85",
				Simulated: r.Value, Published: m.Value, AtLeast: m.AtLeast, Unit: m.Unit},
				Point{Experiment: exp, Name: "rccl-tests all_reduce_perf, 2 nodes x 8 GCDs, 128 MiB, busbw <= 4 NICs",
					Simulated: r.Value, Published: 4 * c.Network.Link.BandwidthGBps, AtMost: true, Unit: "GB/s"})
			break
		}
	}
	return pts, nil
}

const netExperiment = "Slingshot (LUMI R values)"
