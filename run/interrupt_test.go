package run

import (
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/workloads"
)

// A stop between runs keeps the runs that finished; a stop inside a run
// drops that run, whatever its engine was doing.
func TestExecuteStops(t *testing.T) {
	c, err := config.Load("../configs/frontier-node.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	runs := workloads.DefaultP2P(c.GCD.Count).Runs()[:6]
	all, err := Execute(c, runs)
	if err != nil || all.Interrupted {
		t.Fatal(err)
	}
	var done []int
	res, err := Execute(c, runs, WithStop(func() bool { return len(done) == 2 }),
		WithProgress(func(d, total int, _ float64) { done = append(done, d) }))
	if err != nil || !res.Interrupted || len(res.Runs) != 2 || res.Planned != 6 {
		t.Fatalf("stopped after 2: %v, interrupted %v, %d runs of %d", err, res.Interrupted, len(res.Runs), res.Planned)
	}
	if len(res.Rows) == 0 || len(res.Rows) >= len(all.Rows) {
		t.Errorf("%d rows of %d", len(res.Rows), len(all.Rows))
	}
	calls := 0 // the check before the first run passes; the engine's first check stops it
	res, err = Execute(c, runs, WithStop(func() bool { calls++; return calls > 1 }))
	if err != nil || !res.Interrupted || len(res.Runs) != 0 || len(res.Rows) != 0 {
		t.Errorf("stopped inside the first run: %v, %v, %d runs, %d rows", err, res.Interrupted, len(res.Runs), len(res.Rows))
	}
}
