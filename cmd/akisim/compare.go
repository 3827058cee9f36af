package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/profile"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/workloads"
)

// compareUsage is akisim compare's synopsis.
const compareUsage = "akisim compare gem5 M5OUT [-debug FILE] [-config NODE]: M5OUT holds stats.txt and the debug trace (trace.out)"

// runCompare is `akisim compare gem5 M5OUT`: it replays gem5's kernels and
// SDMA copies (its debug trace) on the matching node (gem5-mi200.toml) and
// prints, per kernel and copy, gem5's time beside akisim's, then the
// totals of gem5's stats.txt beside akisim's.
func runCompare(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "rocprof" { // compare_rocprof.go
		return runCompareRocprof(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("akisim compare", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	debug := fs.String("debug", "", "the gem5 debug trace (default M5OUT/trace.out)")
	cfg := fs.String("config", "gem5-mi200.toml", "the node gem5's device is matched by")
	pos, err := commandArgs(fs, args, stderr, "compare", compareUsage)
	if err != nil {
		return err
	}
	if len(pos) != 2 || pos[0] != "gem5" {
		return bad("compare: want gem5 and M5OUT (%s)", compareUsage)
	}
	m5out := pos[1]
	if *debug == "" {
		*debug = filepath.Join(m5out, "trace.out")
	}
	dumps, err := profile.ReadGem5Stats(filepath.Join(m5out, "stats.txt"))
	if err != nil {
		return bad("compare gem5: %v", err)
	}
	p, err := profile.ReadGem5Trace(*debug)
	if err != nil {
		return bad("compare gem5: %v", err)
	}
	c, err := loadConfig(&options{config: *cfg})
	if err != nil {
		return err
	}
	ops, err := p.Trace(profile.Limits{GCDs: c.GCD.Count, NUMA: c.Host.NUMADomains})
	if err != nil {
		return bad("compare gem5: %v", err)
	}
	res, err := run.Execute(c, []job.Run{workloads.TraceRun(*debug, ops)}, run.WithCalls())
	if err != nil {
		return bad("compare gem5: %v", err)
	}
	sim := res.Recorded[0]
	if len(sim.Kernels) != len(p.Kernels) || len(sim.Copies) != len(p.Copies) {
		return fmt.Errorf("compare gem5: the replay has %d kernels and %d copies, gem5's trace %d and %d", len(sim.Kernels), len(sim.Copies), len(p.Kernels), len(p.Copies))
	}
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "# akisim compare gem5 %s on %s: per kernel and copy, gem5's time and akisim's (us)\n", m5out, c.Name)
	fmt.Fprintln(w, "kind\tid\tname\tbytes\tgem5_us\takisim_us\tratio")
	us := func(start, end int64) float64 { return float64(end-start) / 1e3 }
	for i, k := range p.Kernels {
		g, a := us(k.Start, k.End), us(sim.Kernels[i].Start, sim.Kernels[i].End)
		fmt.Fprintf(w, "kernel\t%d\t%s\t-\t%.3f\t%.3f\t%.3f\n", k.Corr, k.Name, g, a, a/g)
	}
	for i, cp := range p.Copies {
		g, a := us(cp.Start, cp.End), us(sim.Copies[i].Start, sim.Copies[i].End)
		dir := map[[2]bool]string{{false, true}: "H2D", {true, false}: "D2H", {true, true}: "D2D", {false, false}: "H2H"}[[2]bool{cp.Src == 1, cp.Dst == 1}]
		fmt.Fprintf(w, "copy\t%d\tsdma %s\t%d\t%.3f\t%.3f\t%.3f\n", cp.Corr, dir, cp.Bytes, g, a, a/g)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	last := dumps[len(dumps)-1]
	launched, _ := last.Suffix(".numKernelLaunched")
	read, _ := last.Suffix("gpu_mem_ctrls.dram.bytesRead::total")
	written, _ := last.Suffix("gpu_mem_ctrls.dram.bytesWritten::total")
	var simEnd int64
	for _, k := range sim.Kernels {
		simEnd = max(simEnd, k.End)
	}
	for _, cp := range sim.Copies {
		simEnd = max(simEnd, cp.End)
	}
	fmt.Fprintln(stdout, "# totals (gem5: its stats.txt, last dump; akisim: the replay)")
	fmt.Fprintf(stdout, "kernels launched: gem5 %.0f (in its trace %d), akisim %d\n", launched, len(p.Kernels), len(sim.Kernels))
	fmt.Fprintf(stdout, "HBM bytes read, written: gem5 %.0f, %.0f\n", read, written)
	fmt.Fprintf(stdout, "simulated seconds: gem5 %g (the whole run, boot included), akisim %g (the replayed kernels and copies)\n", last["simSeconds"], float64(simEnd)/1e9)
	for _, l := range p.Report.Lines()[1:] {
		fmt.Fprintf(stdout, "# %s\n", l)
	}
	fmt.Fprintln(stdout, "# kernels are held at gem5's times (its trace has no kernel's bytes or instructions); gem5's SDMA copies are not timed by a bandwidth model (store-and-forward, host side untimed): compare their packets and bytes")
	return nil
}
