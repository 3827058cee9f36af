package compare

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/internal/usage"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/profile"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/workloads"
)

// Rocprof replays profile p, read from path, on node c and writes each
// kernel's and copy's recorded time beside the replay's (profile.Compare
// lines them up). whatIf is the -set overrides that changed c, as typed
// after the command's name ("" for none). Input it cannot replay is bad
// input (usage.Error).
func Rocprof(stdout io.Writer, path string, p *profile.Profile, c *config.Node, whatIf string) error {
	ops, err := p.Trace(profile.Limits{GCDs: c.GCD.Count, NUMA: c.Host.NUMADomains})
	if err != nil {
		return usage.Errorf("compare rocprof: %v", err)
	}
	res, err := run.Execute(c, []job.Run{workloads.TraceRun(path, ops)}, run.WithCalls())
	if err != nil {
		return usage.Errorf("compare rocprof: %v", err)
	}
	lines, err := profile.Compare(p, res.Recorded[0])
	if err != nil {
		return usage.Errorf("compare rocprof: %s: %v", path, err)
	}
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "# akisim compare rocprof %s on %s%s: per kernel (first workgroup to end) and copy, the profile's time and akisim's (us)\n", path, c.Name, whatIf)
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
