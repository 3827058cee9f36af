package main

import (
	"strings"
	"testing"

	"github.com/akisim/akisim/validate"
)

// Each point's row says its kind, and each kind has its own total line;
// -only prints the kind it ran.
func TestPrintPointsTotalsPerKind(t *testing.T) {
	pts := []validate.Point{
		{Experiment: "E4 latency", Name: "a", Simulated: 10, Published: 10, Tolerance: 0.1},
		{Experiment: "E4 latency", Name: "b", Simulated: 20, Published: 10, Tolerance: 0.1},
		{Experiment: "P", Name: "c", Simulated: 10, Published: 10, Tolerance: 0.1, Check: true, Source: "a paper, Table 2"},
		{Experiment: "P", Name: "d", Simulated: 30, Published: 10, Tolerance: 0.1, Check: true, Source: "a paper, Table 2", Gap: "no such mechanism"},
	}
	var b strings.Builder
	err := printPoints(&b, pts, validate.All)
	out := b.String()
	if f, ok := err.(*failedError); !ok || f.n != 1 {
		t.Errorf("error %v, want 1 point outside tolerance", err)
	}
	for _, want := range []string{
		"calibration: 2 points, 1 passed, 1 failed, 0 known gaps\n",
		"check: 2 points, 1 passed, 0 failed, 1 known gaps\n",
		"GAP P d: no such mechanism\n",
		"check source: a paper, Table 2\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	kinds := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		for i := 1; i+1 < len(f); i++ { // after the experiment
			if f[i] == "calibrated" || f[i] == "check" {
				kinds[f[i+1]] = f[i]
				break
			}
		}
	}
	if kinds["a"] != "calibrated" || kinds["b"] != "calibrated" || kinds["c"] != "check" || kinds["d"] != "check" {
		t.Errorf("kinds %v, want a, b calibrated and c, d check, in\n%s", kinds, out)
	}
	b.Reset()
	printPoints(&b, pts[2:], validate.Checks)
	if out := b.String(); strings.Contains(out, "calibration:") || !strings.Contains(out, "check: 2 points") {
		t.Errorf("-only check totals:\n%s", out)
	}
}
