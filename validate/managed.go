package validate

import "github.com/akisim/akisim/config"

// managedPoints is E1's managed page-migration curve: the peak bandwidth of
// Comm_implicit_managed_GPURdHost_fine/0/0/ over its sizes with HSA_XNACK=1
// (2.8 GB/s, within 10%). The zero-copy point (HSA_XNACK=0, 25.5 GB/s) is
// not a point yet: the model gives the pinned copy's 28.4 GB/s (README).
func managedPoints(c *config.Node) ([]Point, error) {
	x := *c
	x.Env.XNACK = 1
	rows, err := commScope(&x, `^Comm_implicit_managed_GPURdHost_fine/0/0/`)
	if err != nil {
		return nil, err
	}
	peak := 0.0
	for _, r := range rows {
		if r.Metric == "bandwidth" {
			peak = max(peak, r.Value)
		}
	}
	return []Point{{Experiment: "E1 managed migration", Name: "HSA_XNACK=1 GPURdHost_fine NUMA 0 -> GCD 0, peak",
		Simulated: peak, Published: 2.8, Tolerance: 0.10, Unit: "GB/s"}}, nil
}
