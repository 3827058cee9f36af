package main

import (
	"cmp"
	"flag"
	"strconv"
	"strings"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/workloads"
)

// haloFlags are the halo workload's own flags.
type haloFlags struct {
	dims, fields, strategy string
	radius                 int
}

// register adds the halo flags to fs.
func (h *haloFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&h.dims, "dims", "256,256,256", "halo: grid points per axis, x first, 1-5 axes (pack: the local grid)")
	fs.IntVar(&h.radius, "radius", 4, "halo: halo radius (points)")
	fs.StringVar(&h.fields, "fields", "1,2,4,8,16", "halo: field counts, comma separated (a row per count)")
	fs.StringVar(&h.strategy, "strategy", "", "halo: acm labels, comma separated (default all): mpi-pack, mpi-pack-indexed, acm-pack, acm-pack-packed, acm-pack-batched")
}

// haloRuns builds the halo runs from -bench, -dims, -radius, -fields and
// -strategy: one rank on GCD 0, its cores on GCD 0's NUMA domain; one
// warm-up and three samples, whose median is reported.
func haloRuns(o *options, c *config.Node) ([]workloads.Run, error) {
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
	if o.given["strategy"] {
		if h.Strategies, err = list("-strategy", o.halo.strategy); err != nil {
			return nil, err
		}
	}
	runs, err := h.Runs()
	if err != nil {
		return nil, bad("%v", err)
	}
	return runs, nil
}

// haloInts reads a comma-separated list of positive integers; a grid's
// axes may repeat, a list of cases (field counts) may not.
func haloInts(flagName, v string, repeats bool) ([]int, error) {
	items, err := list(flagName, v)
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
