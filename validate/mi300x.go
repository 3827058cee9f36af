package validate

import (
	"fmt"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/configs"
)

// The MI300X experiments run on the shipped MI300X platform config,
// whatever node validate was given: they are about that hardware.
const (
	mi300xConfig = "mi300x-node.toml"
	mi300xGuide  = "ROCm documentation, AMD Instinct MI300X acceptance testing: Performance benchmarking"

	mi300xStream = "MI300X STREAM"
	mi300xCopy   = "MI300X peer copy"
)

func mi300xGroup() group {
	return group{experiments: []experiment{
		{mi300xStream, mi300xGuide + " (BabelStream v5.0, -s 268435456 doubles: 2 GiB arrays, copy)"},
		{mi300xCopy, mi300xGuide + " (TransferBench example.cfg Test 2: DMA copy of 64 MiB, GPU 0 to GPU 1)"},
	}, run: noRef(mi300xPoints)}
}

// shippedNode loads a config shipped with akisim, as -config NAME does, and
// the calibration its tags name.
func shippedNode(name string) (*config.Node, *Calibration, error) {
	data, err := configs.FS.ReadFile(name)
	if err != nil {
		return nil, nil, fmt.Errorf("validate: %s: %w", name, err)
	}
	src, err := config.NewSource(name, data, configs.FS)
	if err != nil {
		return nil, nil, err
	}
	n, err := src.Node(nil)
	if err != nil {
		return nil, nil, err
	}
	cal, err := CalibrationOf(src)
	return n, cal, err
}

// mi300xPoints: STREAM copy on GPU 0 with arrays far beyond the MALL (HBM),
// and an SDMA copy over one xGMI link.
func mi300xPoints(c *config.Node) ([]Point, error) {
	hbm, err := stream(c, []int{0}, "local", 2<<30)
	if err != nil {
		return nil, err
	}
	pts := []Point{{Experiment: mi300xStream, Name: "GPU 0, 2 GiB copy (HBM)", Simulated: hbm, Published: 4256, Tolerance: 0.05, Unit: "GB/s"}}
	rows, err := commScope(c, `^Comm_hipMemcpyAsync_GPUToGPU/0/1/log2\(N\):26$`)
	if err != nil {
		return nil, err
	}
	if len(rows) != 1 {
		return nil, fmt.Errorf("validate: MI300X peer copy: %d rows", len(rows))
	}
	pts = append(pts, Point{Experiment: mi300xCopy, Name: "GPU 0 to GPU 1, 64 MiB SDMA copy", Simulated: rows[0].Value,
		Published: 48.35, Tolerance: 0.05, Unit: "GB/s"})
	return pts, nil
}
