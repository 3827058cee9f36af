package main

import (
	"errors"
	"io"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/internal/capped"
	"github.com/akisim/akisim/internal/errtext"
	"github.com/akisim/akisim/internal/usage"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/workloads"
)

// tbDefaultBytes is TransferBench's size per transfer when the command
// line gives none (DEFAULT_BYTES_PER_TRANSFER, 64 MiB).
const tbDefaultBytes = 1 << 26

// tbConfigBytes is the most akisim reads of a TransferBench config: a
// line per test, each a few hundred bytes.
const tbConfigBytes = 16 << 20

// transferBenchRuns reads -cfg and builds a run per test: per config line
// and size of -sizes (TransferBench's command-line N, with its K, M and G;
// default 64M), tests numbered in that order.
func transferBenchRuns(o *options, c *config.Node) ([]job.Run, error) {
	f, err := capped.Open(o.tbConfig, "a TransferBench config", tbConfigBytes)
	var tl *capped.TooLarge
	if errors.As(err, &tl) {
		return nil, bad("-cfg %v", err)
	}
	if err != nil {
		return nil, bad("-cfg %s: %v", o.tbConfig, errtext.Of(err))
	}
	defer f.Close()
	cfg, err := workloads.ParseTransferBench(o.tbConfig, f)
	if err != nil {
		return nil, bad("%v", err)
	}
	sizes := []int64{tbDefaultBytes}
	if o.sizes != "" {
		items, err := usage.List("-sizes", o.sizes)
		if err != nil {
			return nil, err
		}
		sizes = nil
		for _, s := range items {
			n, err := workloads.TBBytes(s)
			if err != nil || n == 0 {
				return nil, bad("-sizes: want bytes per transfer (K, M, G as TransferBench reads them), got %q", s)
			}
			sizes = append(sizes, n)
		}
	}
	tb := workloads.TransferBench{Config: cfg, Sizes: sizes, Iterations: c.Env.TBIterations, Warmups: c.Env.TBWarmups,
		BlockSize: c.Env.TBBlockSize, Unroll: c.Env.TBUnroll, GCDs: c.GCD.Count, NUMA: c.Host.NUMADomains}
	runs, err := tb.Runs()
	if err != nil {
		return nil, bad("%v", err)
	}
	o.tb, o.tbSizes = cfg, len(sizes)
	return runs, nil
}

// writeTransferBench prints the results as TransferBench does, echoing the
// config's "##" lines before the first test of their line.
func writeTransferBench(w io.Writer, o *options, c *config.Node, res *run.Result) error {
	echo := map[int][]string{}
	for k, l := range o.tb.Lines {
		echo[k*o.tbSizes+1] = l.Echo
	}
	return report.WriteTransferBench(w, res.Rows, echo, o.tb.Tail, c.Env.TBCSV == 1, o.setup.Lines("## ")) // "##" as the config's own comments
}
