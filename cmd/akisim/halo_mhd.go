package main

import (
	"github.com/akisim/akisim/halo"
	"github.com/akisim/akisim/internal/usage"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/workloads"
)

// mhdRuns builds -bench mhd: the tfm-mpi time step over the global grid
// -dims (default 128,128,128) on -procs ranks, one run per strategy of
// -strategy (default acm-batched-he, acm-packed-he and mpi-he) and
// decomposition (-decomp, default hierarchical for the acm exchanges and
// mpi-default for mpi-he). The
// solver fixes its fields and radius: -fields and -radius are errors. One
// warm-up step and one timed step (the model is deterministic).
func mhdRuns(o *options, in *input) ([]job.Run, error) {
	for _, f := range []string{"fields", "radius"} {
		if o.given[f] {
			return nil, bad("-%s: the MHD solver exchanges its own 4 + 12 fields with radius %d; -%s applies to pack and exchange", f, workloads.MHDRadius, f)
		}
	}
	dims := "128,128,128"
	if o.given["dims"] {
		dims = o.halo.dims
	}
	d, err := haloInts("-dims", dims, true)
	if err != nil {
		return nil, err
	}
	strategies := workloads.MHDStrategies
	if o.given["strategy"] {
		if strategies, err = usage.List("-strategy", o.halo.strategy); err != nil {
			return nil, err
		}
	}
	var decomps []string
	if o.given["decomp"] {
		if decomps, err = usage.List("-decomp", o.halo.decomp); err != nil {
			return nil, err
		}
	}
	c, err := haloNodes(o, in)
	if err != nil {
		return nil, err
	}
	var runs []job.Run
	for _, s := range strategies {
		ds := decomps
		if ds == nil {
			ds = []string{workloads.MHDDefaultDecomp[s]}
		}
		for _, dc := range ds {
			m := workloads.MHD{Strategy: s, Decomp: dc, FP64GFlops: c.GCD.FP64GFlops, ComputeUnits: c.GCD.XCDs * c.GCD.ComputeUnits,
				WorkgroupSlot: c.GCD.WorkgroupSlots, Warmup: 1, Steps: 1}
			m.Bench, m.Dims, m.Procs, m.Levels, m.GCDsPerNode = "mhd", d, o.halo.procs, halo.LUMILevels, c.GCD.Count
			m.GCDNUMA, m.PostNs, m.QueryNs, m.Yaksa = c.GlobalGCDNUMA(), c.MPI.PostNs, c.Runtime.APICallNs, c.Env.EnableYaksa == 1
			r, err := m.Runs()
			if err != nil {
				return nil, bad("%v", err)
			}
			runs = append(runs, r...)
		}
	}
	return runs, nil
}
