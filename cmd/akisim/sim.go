package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
	"github.com/akisim/akisim/workloads"
)

// loadConfig finds, loads and resolves the node config; its errors are
// bad input.
func loadConfig(o *options) (*config.Node, error) {
	path, err := config.Find(o.config)
	if err != nil {
		return nil, bad("%v", err)
	}
	c, err := config.Load(path, o.sets)
	if err != nil {
		return nil, bad("%v", err)
	}
	return c, nil
}

// runs builds the operation streams of the chosen workload or trace.
func runs(o *options, c *config.Node) ([]workloads.Run, error) {
	switch {
	case o.tracePath != "":
		ops, err := trace.ReadFile(o.tracePath)
		if err != nil {
			return nil, bad("%v", err)
		}
		if err := trace.Check(ops, workloads.Limits(c), o.tracePath); err != nil {
			return nil, bad("%v", err)
		}
		return []workloads.Run{workloads.TraceRun(o.tracePath, ops)}, nil
	case o.workload == "stream":
		return streamRuns(o, c)
	case o.workload == "commscope":
		cs := workloads.DefaultCommScope(c.GCD.Count, c.Host.NUMADomains)
		if o.filter != "" {
			re, err := regexp.Compile(o.filter)
			if err != nil {
				return nil, bad("-filter: %v", err)
			}
			cs.Filter = re
		}
		r := cs.Runs()
		if len(r) == 0 {
			return nil, bad("-filter %q matches no benchmark", o.filter)
		}
		return r, nil
	default:
		p := workloads.DefaultP2P(c.GCD.Count)
		p.Cases = nil
		for _, cs := range strings.Split(o.cases, ",") {
			switch cs {
			case "unidirectional", "bidirectional", "latency":
				p.Cases = append(p.Cases, cs)
			default:
				return nil, bad("-cases: unknown case %q (want unidirectional, bidirectional or latency)", cs)
			}
		}
		return p.Runs(), nil
	}
}

func runSim(o *options, stdout io.Writer) error {
	c, err := loadConfig(o)
	if err != nil {
		return err
	}
	if c, err = traceEnv(o, c); err != nil {
		return err
	}
	rs, err := runs(o, c)
	if err != nil {
		return err
	}
	start := time.Now()
	res, err := workloads.Execute(c, rs)
	if err != nil {
		return err
	}
	wall := time.Since(start)
	if err := write(o, c, res, stdout); err != nil {
		return err
	}
	if o.timeline != "" {
		f, err := os.Create(o.timeline)
		if err != nil {
			return bad("-timeline: %v", err)
		}
		defer f.Close()
		if err := report.WriteTimeline(f, res.Timeline); err != nil {
			return err
		}
	}
	if o.outdir != "" {
		return writeOutdir(o, c, res, wall)
	}
	return nil
}

func write(o *options, c *config.Node, res *workloads.Result, w io.Writer) error {
	switch o.format {
	case "csv":
		return report.WriteCSV(w, res.Rows)
	case "json":
		return report.WriteJSON(w, res.Rows)
	case "gbench":
		return report.WriteGBench(w, gbenchContext(), report.GBenchRuns(res.Rows))
	}
	fmt.Fprintf(w, "akisim: %s on %s (%d runs)\n\n", what(o), c.Name, len(res.Runs))
	if o.workload == "p2p" {
		return report.WriteP2P(w, res.Rows, c.GCD.Count)
	}
	return report.WriteTable(w, res.Rows)
}

func what(o *options) string {
	if o.tracePath != "" {
		return "trace " + o.tracePath
	}
	return o.workload
}

func gbenchContext() report.GBenchContext {
	return report.GBenchContext{Date: "simulated", HostName: "akisim", Executable: "akisim",
		NumCPUs: 64, MHzPerCPU: 2000, LibraryBuildType: "release"}
}

// writeOutdir writes results.csv, results.json, the resolved config (TOML
// and gem5-style config.json) and stats.txt, as gem5 writes m5out/.
func writeOutdir(o *options, c *config.Node, res *workloads.Result, wall time.Duration) error {
	if err := os.MkdirAll(o.outdir, 0o755); err != nil {
		return bad("-outdir: %v", err)
	}
	files := []struct {
		name string
		fn   func(w io.Writer) error
	}{
		{"results.csv", func(w io.Writer) error { return report.WriteCSV(w, res.Rows) }},
		{"results.json", func(w io.Writer) error { return report.WriteJSON(w, res.Rows) }},
		{"config.toml", c.WriteTOML},
		{"config.json", c.WriteJSON},
		{"stats.txt", func(w io.Writer) error { return report.WriteStats(w, res.Stats.List()) }},
	}
	if o.workload == "commscope" {
		files = append(files, struct {
			name string
			fn   func(w io.Writer) error
		}{"commscope.json", func(w io.Writer) error {
			return report.WriteGBench(w, gbenchContext(), report.GBenchRuns(res.Rows))
		}})
	}
	_ = wall // host time is not written: outputs stay byte-identical across runs
	for _, f := range files {
		var b bytes.Buffer
		if err := f.fn(&b); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(o.outdir, f.name), b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// streamRuns builds the STREAM runs from -exec, -alloc, -sizes, -kernels.
func streamRuns(o *options, c *config.Node) ([]workloads.Run, error) {
	st := workloads.Stream{Alloc: o.alloc, Iterations: 2, Workgroup: 128, NUMA: c.Host.GCDNUMA,
		Kernels: strings.Split(o.kernels, ",")}
	flag, list := "-exec", o.exec
	if o.gcds != "" {
		flag, list = "-gcds", o.gcds
	}
	for _, g := range strings.Split(list, ",") {
		id, err := strconv.Atoi(strings.TrimSpace(g))
		if err != nil || id < 0 || id >= c.GCD.Count {
			return nil, bad("%s: want GCD ids 0..%d, comma separated, got %q", flag, c.GCD.Count-1, list)
		}
		st.GCDs = append(st.GCDs, id)
	}
	if o.sizes == "e6" {
		st.Sizes = workloads.E6Sizes()
	} else {
		for _, s := range strings.Split(o.sizes, ",") {
			n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
			if err != nil || n < 1024 {
				return nil, bad("-sizes: want byte counts >= 1024 or e6, got %q", s)
			}
			st.Sizes = append(st.Sizes, n)
		}
	}
	runs, err := st.Runs()
	if err != nil {
		return nil, bad("%v", err)
	}
	return runs, nil
}

// traceEnv applies a trace's setenv lines to the config, as -env would, so
// the resolved config holds them.
func traceEnv(o *options, c *config.Node) (*config.Node, error) {
	if o.tracePath == "" {
		return c, nil
	}
	ops, err := trace.ReadFile(o.tracePath)
	if err != nil {
		return nil, bad("%v", err)
	}
	sets := append([]string(nil), o.sets...)
	for _, op := range ops {
		if op.Op != trace.SetEnv {
			continue
		}
		sets = append(sets, "env."+op.Name+"="+op.Value)
		path, _ := config.Find(o.config)
		if _, err := config.Load(path, sets); err != nil {
			return nil, bad("%s:%d: name: %v", o.tracePath, op.Line, err)
		}
	}
	if len(sets) == len(o.sets) {
		return c, nil
	}
	path, _ := config.Find(o.config)
	n, err := config.Load(path, sets)
	if err != nil {
		return nil, bad("%v", err)
	}
	return n, nil
}
