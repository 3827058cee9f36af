package main

import (
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/profile"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/workloads"
)

// compareRocprofUsage is akisim compare rocprof's synopsis.
const compareRocprofUsage = "akisim compare rocprof PATH [-config NODE] [-set KEY=VALUE]...: PATH is rocprofv3's output (rocpd, JSON or CSV)"

// runCompareRocprof is `akisim compare rocprof PATH`: it imports the
// profile, replays it, and prints each kernel and copy's recorded time
// beside the replay's (profile.Compare does the lining up).
func runCompareRocprof(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("akisim compare rocprof", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cfg := fs.String("config", "frontier-node.toml", "the node the profile was recorded on")
	var sets setFlags // a what-if: the replay on a changed node
	fs.Var(&sets, "set", "override a config value, KEY=VALUE (repeatable)")
	pos, err := parseMixed(fs, args)
	if err != nil {
		if help(fs, stderr, compareRocprofUsage, err) {
			return flag.ErrHelp
		}
		return bad("compare rocprof: %v (%s)", err, compareRocprofUsage)
	}
	if len(pos) != 1 {
		return bad("compare rocprof: want PATH (%s)", compareRocprofUsage)
	}
	p, err := readRocprof(pos[0])
	if err != nil {
		return bad("compare rocprof: %v", err)
	}
	c, err := loadConfig(&options{config: *cfg, overrides: config.Sets(sets)})
	if err != nil {
		return err
	}
	ops, err := p.Trace(profile.Limits{GCDs: c.GCD.Count, NUMA: c.Host.NUMADomains})
	if err != nil {
		return bad("compare rocprof: %v", err)
	}
	res, err := run.Execute(c, []job.Run{workloads.TraceRun(pos[0], ops)}, run.WithCalls())
	if err != nil {
		return bad("compare rocprof: %v", err)
	}
	lines, err := profile.Compare(p, res.Recorded[0])
	if err != nil {
		return bad("compare rocprof: %s: %v", pos[0], err)
	}
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	whatIf := ""
	for _, s := range sets {
		whatIf += " -set " + s
	}
	fmt.Fprintf(w, "# akisim compare rocprof %s on %s%s: per kernel (first workgroup to end) and copy, the profile's time and akisim's (us)\n", pos[0], c.Name, whatIf)
	fmt.Fprintln(w, "kind\trank\tgcd\tname\tbytes\tprofile_us\takisim_us\tratio")
	for _, l := range lines {
		a, b := float64(l.Profile)/1e3, float64(l.Simulated)/1e3
		ratio := "-"
		if a > 0 {
			ratio = fmt.Sprintf("%.3f", b/a)
		}
		fmt.Fprintf(w, "%s\t%d\t%d\t%s\t%d\t%.3f\t%.3f\t%s\n", l.Kind, l.Rank, l.GCD, l.Name, l.Bytes, a, b, ratio)
	}
	return w.Flush()
}
