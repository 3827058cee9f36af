package whatif

import (
	"strings"
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/profile"
	"github.com/akisim/akisim/report"
)

// twoRuns are a baseline and a what-if that halves one bundle's lanes and
// so doubles its link's busy time and one latency.
func twoRuns() (*Run, *Run) {
	row := func(dst string, v float64) report.Row {
		return report.Row{Workload: "p2p", Case: "latency", Src: "gcd0", Dst: dst, Bytes: 16, Metric: "latency", Value: v, Unit: "us"}
	}
	a := &Run{Dir: "base", Setup: &report.Setup{Config: "n", Files: []string{"n.toml"}},
		Config: []config.KeyValue{{Key: "name", Value: `"n"`}, {Key: "xgmi.bundle[0].lanes", Value: "4"}},
		Rows:   []report.Row{row("gcd1", 2), row("gcd2", 3)},
		Stats:  []profile.Stats{{"link.busy": 10, "hostSeconds": 1, "simTicks": 3e10, "simSeconds": 0.1}, {"link.busy": 5, "hostSeconds": 2, "simTicks": 5e10, "simSeconds": 0.2}}}
	b := &Run{Dir: "lanes2", Setup: &report.Setup{Config: "n", Files: []string{"n.toml"}, Overrides: []string{"-set xgmi.bundle[0].lanes=2"}},
		Config: []config.KeyValue{{Key: "name", Value: `"n"`}, {Key: "xgmi.bundle[0].lanes", Value: "2"}},
		Rows:   []report.Row{row("gcd1", 4), row("gcd2", 3), row("gcd3", 1)},
		Stats:  []profile.Stats{{"link.busy": 20, "hostSeconds": 7, "simTicks": 3e10, "simSeconds": 0.1}, {"link.busy": 10, "hostSeconds": 9, "simTicks": 5e10 + 3, "simSeconds": 0.200001}}}
	return a, b
}

// TestWriteSetsTheWhatIfBesideTheBaseline: the changed key, every row with
// its ratio (a row one side lacks has none), the summed statistics that
// differ, and neither the equal key nor the host's own time.
func TestWriteSetsTheWhatIfBesideTheBaseline(t *testing.T) {
	a, b := twoRuns()
	var out strings.Builder
	if err := Write(&out, a, b); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	squash := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	lines := map[string]bool{}
	for _, l := range strings.Split(got, "\n") {
		lines[squash(l)] = true
	}
	for _, want := range []string{
		"B lanes2: config n (n.toml), overrides -set 'xgmi.bundle[0].lanes=2'",
		"config: 1 of 2 keys differ",
		"xgmi.bundle[0].lanes 4 2",
		"p2p latency gcd0 gcd1 16 latency us 2 4 2.000",
		"p2p latency gcd0 gcd2 16 latency us 3 3 1.000",
		"p2p latency gcd0 gcd3 16 latency us - 1 -",
		"stats, summed over 2 and 2 runs: 3 differ, 0 equal (not shown)",
		"link.busy 15 30 2.000",
		"simTicks 80000000000 80000000003 1.000", // counts exact, without an exponent
		"simSeconds 0.3 0.300001 1.000",          // 0.1 + 0.2 without its last-digit noise
	} {
		if !lines[want] {
			t.Errorf("no line %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "hostSeconds") || strings.Contains(got, "name ") {
		t.Errorf("the host's time or an equal key shown:\n%s", got)
	}
}

// TestWriteRefusesRowsItCannotPair: two rows of one key (a trace's
// repeated line) would pair the wrong values.
func TestWriteRefusesRowsItCannotPair(t *testing.T) {
	a, b := twoRuns()
	a.Rows = append(a.Rows, a.Rows[0])
	err := Write(&strings.Builder{}, a, b)
	if err == nil || !strings.Contains(err.Error(), "base: results.csv: two rows p2p latency gcd0 gcd1 16 latency") {
		t.Errorf("got %v", err)
	}
}
