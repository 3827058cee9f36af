package validate

import (
	"fmt"
	"strings"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/report"
)

// managedPoints are E1's managed-memory curves, Comm_implicit_managed_
// GPURdHost_fine/0/0/ over its sizes: with HSA_XNACK=1 (page migration)
// the peak is 2.8 GB/s (within 10%); with HSA_XNACK=0 (zero-copy) the peak
// is 25.5 GB/s (within 5%) and every size up to 32 MB is within 10% of the
// pinned copy of the same size ("zero-copy tracks pinned up to 32 MB").
func managedPoints(c *config.Node) ([]Point, error) {
	x := *c
	x.Env.XNACK = 1
	rows, err := commScope(&x, `^Comm_implicit_managed_GPURdHost_fine/0/0/`)
	if err != nil {
		return nil, err
	}
	pts := []Point{{Experiment: "E1 managed migration", Name: "HSA_XNACK=1 GPURdHost_fine NUMA 0 -> GCD 0, peak",
		Simulated: peak(rows), Published: 2.8, Tolerance: 0.10, Unit: "GB/s"}}
	x.Env.XNACK = 0
	rows, err = commScope(&x, `^Comm_(implicit_managed_GPURdHost_fine|hipMemcpyAsync_PinnedToGPU)/0/0/`)
	if err != nil {
		return nil, err
	}
	var zero []report.Row
	pinned := map[int64]float64{}
	for _, r := range rows {
		switch {
		case r.Metric != "bandwidth":
		case strings.HasSuffix(r.Case, "PinnedToGPU"):
			pinned[r.Bytes] = r.Value
		default:
			zero = append(zero, r)
		}
	}
	pts = append(pts, Point{Experiment: "E1 managed zero-copy", Name: "HSA_XNACK=0 GPURdHost_fine NUMA 0 -> GCD 0, peak",
		Simulated: peak(zero), Published: 25.5, Tolerance: 0.05, Unit: "GB/s"})
	for _, r := range zero {
		p, ok := pinned[r.Bytes]
		if !ok || r.Bytes > 32<<20 {
			continue
		}
		pts = append(pts, Point{Experiment: "E1 managed zero-copy",
			Name:      fmt.Sprintf("zero-copy / pinned at %s", sizeName(r.Bytes)),
			Simulated: r.Value / p, Published: 1, Tolerance: 0.10, Unit: "x pinned"})
	}
	return pts, nil
}

// peak is the highest bandwidth among rows.
func peak(rows []report.Row) float64 {
	best := 0.0
	for _, r := range rows {
		if r.Metric == "bandwidth" {
			best = max(best, r.Value)
		}
	}
	return best
}

// sizeName writes a power-of-two size as Comm|Scope's figures label it.
func sizeName(b int64) string {
	switch {
	case b >= 1<<30 && b%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", b>>30)
	case b >= 1<<20:
		return fmt.Sprintf("%d MiB", b>>20)
	case b >= 1<<10:
		return fmt.Sprintf("%d KiB", b>>10)
	}
	return fmt.Sprintf("%d B", b)
}
