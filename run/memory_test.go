package run

import (
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/akisim/akisim/internal/limit"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// A run whose operations would not fit is refused before any run starts
// or any operation is made, naming the run, its need and the limit.
func TestRunTooLargeRefusedBeforeAnyRun(t *testing.T) {
	t.Setenv("AKISIM_MEMORY_BYTES", strconv.FormatInt(100000*BytesPerOp, 10))
	c := frontier(t)
	var built sync.Map
	run := func(name string, count int64) job.Run {
		return job.Run{Name: name, BuildCount: count, Build: func() []trace.Op {
			built.Store(name, true)
			return []trace.Op{{Op: trace.DeviceSync}}
		}, Rows: noRows}
	}
	_, err := Execute(c, []job.Run{run("small", 10), run("big", 100001)}, WithWorkers(2))
	var le *limit.Error
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "run big (100001 operations) needs up to") ||
		!strings.Contains(err.Error(), "AKISIM_MEMORY_BYTES") {
		t.Fatalf("err = %v, want a limit error naming the run and AKISIM_MEMORY_BYTES", err)
	}
	built.Range(func(k, _ any) bool { t.Errorf("run %s built its operations before the check", k); return true })
	if _, err := Execute(c, []job.Run{run("small", 10), run("fits", 100000)}, WithWorkers(2)); err != nil {
		t.Errorf("runs within the limit: %v", err)
	}
}

// Runs side by side take together at most the memory allowed: two runs of
// 60% each run one after the other, two of 40% may run at once.
func TestRunsSideBySideWithinTheBudget(t *testing.T) {
	t.Setenv("AKISIM_MEMORY_BYTES", strconv.FormatInt(100000*BytesPerOp, 10))
	c := frontier(t)
	for _, c0 := range []struct {
		count    int64
		together bool // may overlap
	}{{60000, false}, {40000, true}} {
		var mu sync.Mutex
		under, most := 0, 0
		gate := make(chan struct{})
		run := func() job.Run {
			return job.Run{Name: "r", BuildCount: c0.count, Build: func() []trace.Op {
				mu.Lock()
				under++
				most = max(most, under)
				first := under == 1
				mu.Unlock()
				if first { // the other run, if let through, meets this one
					select {
					case <-gate:
					case <-time.After(300 * time.Millisecond):
					}
				} else {
					close(gate)
				}
				mu.Lock()
				under--
				mu.Unlock()
				return []trace.Op{{Op: trace.DeviceSync}}
			}, Rows: noRows}
		}
		if _, err := Execute(c, []job.Run{run(), run()}, WithWorkers(2)); err != nil {
			t.Fatal(err)
		}
		if c0.together && most != 2 || !c0.together && most != 1 {
			t.Errorf("runs of %d ops each of 100000 allowed: at most %d at once", c0.count, most)
		}
	}
}

func noRows(*job.Replay) []report.Row { return nil }
