package job

import (
	"github.com/akisim/akisim/commcheck"
	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/trace"
)

// Limits is what trace.Check needs to know of the node c.
func Limits(c *config.Node) trace.Limits {
	return trace.Limits{GCDs: c.TotalGCDs(), NUMADomains: c.TotalNUMA(),
		GCDsPerNode: c.GCD.Count, NUMAPerNode: c.Host.NUMADomains,
		HBMBytes: c.GCD.HBMBytes, NUMABytes: c.Host.NUMABytes, Unified: c.Host.Unified(),
		Libraries: commcheck.Libraries}
}

// Check runs trace.Check on the operations of every run against the node
// c, so built-in workloads pass the same checks as trace files. The error,
// a *trace.Error, names the run and the op's position in it.
func Check(c *config.Node, runs []Run) error {
	lim := Limits(c)
	for _, r := range runs {
		if r.Build != nil {
			continue // checked when it is built (run.Execute)
		}
		if err := trace.Check(r.Ops, lim, r.Name); err != nil {
			return err
		}
	}
	return nil
}
