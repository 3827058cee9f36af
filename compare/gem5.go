package compare

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"text/tabwriter"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/internal/usage"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/profile"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/workloads"
)

// Gem5 replays the kernels and SDMA copies of a gem5 run (m5out, its debug
// trace debug) on node c, and writes per kernel and copy gem5's time
// beside akisim's, then the totals of gem5's stats.txt beside akisim's.
// Input it cannot read or replay is bad input (usage.Error).
func Gem5(stdout io.Writer, m5out, debug string, c *config.Node) error {
	dumps, err := profile.ReadGem5Stats(filepath.Join(m5out, "stats.txt"))
	if err != nil {
		return usage.Errorf("compare gem5: %v", err)
	}
	p, err := profile.ReadGem5Trace(debug)
	if err != nil {
		return usage.Errorf("compare gem5: %v", err)
	}
	ops, err := p.Trace(profile.Limits{GCDs: c.GCD.Count, NUMA: c.Host.NUMADomains})
	if err != nil {
		return usage.Errorf("compare gem5: %v", err)
	}
	res, err := run.Execute(c, []job.Run{workloads.TraceRun(debug, ops)}, run.WithCalls())
	if err != nil {
		return usage.Errorf("compare gem5: %v", err)
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
	var simRead, simWritten float64 // every GCD's HBM, as gem5's dram totals are every controller's
	for g := range c.GCD.Count {
		simRead += res.Stats.Total("node.gcd" + strconv.Itoa(g) + ".hbm.bytesRead")
		simWritten += res.Stats.Total("node.gcd" + strconv.Itoa(g) + ".hbm.bytesWritten")
	}
	fmt.Fprintf(stdout, "HBM bytes read, written: gem5 %.0f, %.0f; akisim %.0f, %.0f\n", read, written, simRead, simWritten)
	fmt.Fprintf(stdout, "simulated seconds: gem5 %g (the whole run, boot included), akisim %g (the replayed kernels and copies)\n", last["simSeconds"], float64(simEnd)/1e9)
	for _, l := range p.Report.Lines()[1:] {
		fmt.Fprintf(stdout, "# %s\n", l)
	}
	fmt.Fprintln(stdout, "# kernels are held at gem5's times (its trace has no kernel's bytes or instructions); gem5's SDMA copies are not timed by a bandwidth model (store-and-forward, host side untimed): compare their packets and bytes")
	return nil
}
