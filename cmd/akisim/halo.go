package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/halo"
	"github.com/akisim/akisim/internal/usage"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/workloads"
)

// haloFlags are the halo workload's own flags.
type haloFlags struct {
	dims, fields, strategy, decomp string
	radius, procs                  int
}

// register adds the halo flags to fs.
func (h *haloFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&h.dims, "dims", "256,256,256", "halo: grid points per axis, x first, 1-5 axes (pack: the local grid)")
	fs.IntVar(&h.radius, "radius", 4, "halo: halo radius (points)")
	fs.StringVar(&h.fields, "fields", "1,2,4,8,16", "halo: field counts, comma separated (a row per count)")
	fs.StringVar(&h.strategy, "strategy", "", "halo: acm labels, comma separated (default all): pack: mpi-pack, mpi-pack-indexed, acm-pack, acm-pack-packed, acm-pack-batched; exchange: mpi-he, mpi-he-hindexed, acm-packed-he, acm-batched-he")
	fs.IntVar(&h.procs, "procs", 64, "halo exchange: ranks, 8 per node (nodes added as needed unless -nodes is given)")
	fs.StringVar(&h.decomp, "decomp", workloads.HaloDefaultDecomp, "halo exchange: decompositions, comma separated: mpi-no, mpi-default, custom, hierarchical (LUMI levels {2,2,2})")
}

// haloRuns builds the halo runs from -bench, -dims, -radius, -fields and
// -strategy, and for exchange -procs and -decomp. pack: one rank on GCD
// 0, its cores on GCD 0's NUMA domain. exchange: ranks 8 per node; unless
// -nodes (or -set network.nodes) is given the run gets the nodes they
// need. One warm-up and three samples, whose median is reported.
func haloRuns(o *options, in *input) ([]job.Run, error) {
	if o.bench == "mhd" {
		return mhdRuns(o, in)
	}
	if o.bench != "" && !slices.Contains(workloads.HaloBenchmarks, o.bench) {
		return nil, bad("-bench: unknown halo benchmark %q (want %s, mhd)", o.bench, strings.Join(workloads.HaloBenchmarks, ", "))
	}
	c := in.node
	h := workloads.Halo{Bench: cmp.Or(o.bench, "pack"), Radius: o.halo.radius, NUMA: c.Host.GCDNUMA[0],
		QueryNs: c.Runtime.APICallNs, Yaksa: c.Env.EnableYaksa == 1, Warmup: 1, Samples: 3}
	var err error
	if h.Dims, err = haloInts("-dims", o.halo.dims, true); err != nil {
		return nil, err
	}
	if h.Fields, err = haloInts("-fields", o.halo.fields, false); err != nil {
		return nil, err
	}
	h.Strategies = workloads.HaloPackLabels
	if h.Bench == "exchange" {
		h.Strategies = workloads.HaloExchangeLabels
	}
	if o.given["strategy"] {
		if h.Strategies, err = usage.List("-strategy", o.halo.strategy); err != nil {
			return nil, err
		}
	}
	if h.Bench != "exchange" {
		for _, f := range []string{"procs", "decomp"} {
			if o.given[f] {
				return nil, bad("-%s: applies to -bench exchange only, not to %s", f, h.Bench)
			}
		}
	} else if c, err = haloNodes(o, in); err != nil {
		return nil, err
	} else {
		if h.Decomps, err = usage.List("-decomp", o.halo.decomp); err != nil {
			return nil, err
		}
		h.Procs, h.Levels, h.GCDsPerNode = o.halo.procs, halo.LUMILevels, c.GCD.Count
		h.GCDNUMA, h.PostNs = c.GlobalGCDNUMA(), c.MPI.PostNs
	}
	runs, err := h.Runs()
	if err != nil {
		return nil, bad("%v", err)
	}
	return runs, nil
}

// haloNodes makes the run's node count hold -procs ranks at a node's GCDs
// each: given nodes (-nodes, -set network.nodes) must suffice, else the
// config is resolved again with the nodes needed.
func haloNodes(o *options, in *input) (*config.Node, error) {
	c, per := in.node, max(in.node.GCD.Count, 1)
	need := (o.halo.procs + per - 1) / per
	if o.halo.procs < 1 || c.Nodes() >= need {
		return c, nil
	}
	// the nodes needed are -procs's doing: its errors name it
	n, err := in.src.NodeWith(append(slices.Clone(o.overrides), config.Override{Set: fmt.Sprintf("network.nodes=%d", need), Flag: fmt.Sprintf("-procs %d", o.halo.procs)}))
	if ce := (*config.Error)(nil); errors.As(err, &ce) && ce.Also != "" { // the user gave the nodes
		return nil, bad("-procs %d: %d ranks at %d per node need %d nodes, the run has %d (%s)", o.halo.procs, o.halo.procs, per, need, c.Nodes(), ce.Also)
	}
	if err != nil {
		return nil, bad("%v", err)
	}
	in.node = n
	return n, nil
}

// haloInts reads a comma-separated list of positive integers; a grid's
// axes may repeat, a list of cases (field counts) may not.
func haloInts(flagName, v string, repeats bool) ([]int, error) {
	items, err := usage.List(flagName, v)
	if repeats {
		items, err = strings.Split(v, ","), nil
	}
	if err != nil {
		return nil, err
	}
	out := make([]int, len(items))
	for i, s := range items {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return nil, bad("%s: want positive integers, comma separated, got %q", flagName, s)
		}
		out[i] = n
	}
	return out, nil
}
