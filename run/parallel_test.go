package run

import (
	"math"
	"reflect"
	"regexp"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/internal/limit"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
	"github.com/akisim/akisim/workloads"
)

// mixedRuns are runs of several workloads on one node: copies between
// GCDs and with the host, kernels, RCCL collectives and MPI messages.
func mixedRuns(t *testing.T, c *config.Node) []job.Run {
	t.Helper()
	runs := workloads.DefaultP2P(c.GCD.Count).Runs()[:4]
	cs := workloads.DefaultCommScope(c.GCD.Count, c.Host.NUMADomains)
	cs.Filter = regexp.MustCompile(`^Comm_hipMemcpyAsync_GPUToGPU/0/1/(12|20)$|^Comm_implicit_managed_GPURdHost/0/0/14$`)
	runs = append(runs, cs.Runs()...)
	more := func(r []job.Run, err error) {
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r...)
	}
	more(workloads.RCCLTests{Bench: "all_reduce_perf", Datatype: "float", GCDs: []int{0, 1, 2, 3, 4, 5, 6, 7},
		Sizes: []int64{1 << 10, 1 << 20}, Warmup: 1, Iterations: 2}.Runs())
	more(workloads.OSU{Bench: "osu_latency", GCDs: []int{0, 3}, Sizes: []int64{8, 1 << 16}, Window: 64, Iterations: 2}.Runs())
	more(workloads.Stream{GCDs: []int{0}, Sizes: []int64{1 << 20}, Iterations: 2, Workgroup: 128,
		NUMA: c.Host.GCDNUMA, Kernels: []string{"copy", "triad"}}.Runs())
	return runs
}

// deterministic are the stats dumps without the lines of the machine
// that simulated (host*).
func deterministic(s *Stats) []report.Dump {
	var out []report.Dump
	for d := range s.List() {
		out = append(out, slices.DeleteFunc(slices.Clone(d), func(st report.Stat) bool {
			return st.Name == "hostSeconds" || st.Name == "hostTickRate"
		}))
	}
	return out
}

// Runs side by side give what one after another gives: rows, runs,
// stats, events, bytes, timeline, counters, profile and tasks, in run order.
func TestWorkersGiveTheSerialResult(t *testing.T) {
	c := frontier(t)
	runs := mixedRuns(t, c)
	one, err := Execute(c, runs, WithWorkers(1), WithTimeline(), WithCalls(), WithTasks())
	if err != nil {
		t.Fatal(err)
	}
	if len(one.Runs) != len(runs) || len(one.Rows) == 0 || len(one.Timeline) == 0 || len(one.Counters) == 0 || len(one.Tasks) == 0 || one.Events == 0 || one.Bytes == 0 {
		t.Fatalf("serial: %d runs of %d, %d rows, %d spans, %d counter values, %d tasks, %d events, %d bytes",
			len(one.Runs), len(runs), len(one.Rows), len(one.Timeline), len(one.Counters), len(one.Tasks), one.Events, one.Bytes)
	}
	for _, w := range []int{2, 3} {
		var rows []report.Row
		got, err := Execute(c, runs, WithWorkers(w), WithTimeline(), WithCalls(), WithTasks())
		if err != nil {
			t.Fatal(err)
		}
		streamed, err := Execute(c, runs, WithWorkers(w), WithRows(func(r []report.Row) error { rows = append(rows, r...); return nil }))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []struct {
			what      string
			got, want any
		}{
			{"rows", got.Rows, one.Rows}, {"rows handed on", rows, one.Rows}, {"runs", got.Runs, one.Runs},
			{"stats", deterministic(got.Stats), deterministic(one.Stats)}, {"events", got.Events, one.Events},
			{"bytes", got.Bytes, one.Bytes}, {"timeline", got.Timeline, one.Timeline}, {"profiles", got.Recorded, one.Recorded},
			{"counters", got.Counters, one.Counters}, {"tasks", got.Tasks, one.Tasks},
			{"runs kept with rows handed on", streamed.Runs, one.Runs},
		} {
			if !reflect.DeepEqual(d.got, d.want) {
				t.Errorf("%d workers: %s differ from one worker's", w, d.what)
			}
		}
	}
}

// InOrder takes every result in index order, each once, though later
// indexes finish first, and holds at most twice its workers unfinished
// or untaken than ahead per worker.
func TestInOrderTakesInIndexOrder(t *testing.T) {
	const n, workers = 3*ahead*3 + 5, 3
	var started, taken atomic.Int32
	var most atomic.Int32
	var order []int
	InOrder(n, workers, func(i int, _ func() bool) int {
		if s := started.Add(1) - taken.Load(); s > most.Load() {
			most.Store(s)
		}
		time.Sleep(time.Duration(n-i) * 20 * time.Microsecond) // later ones finish first
		return i * i
	}, func(i, v int) bool {
		if v != i*i {
			t.Errorf("index %d took %d", i, v)
		}
		order = append(order, i)
		taken.Add(1)
		return true
	})
	for i, v := range order {
		if i != v || len(order) != n {
			t.Fatalf("taken %v, want 0..%d in order", order, n-1)
		}
	}
	if m := most.Load(); m > ahead*workers || m < 2 {
		t.Errorf("%d under way or waiting at once, want 2..%d", m, ahead*workers)
	}
}

// A panic in a run is raised again on Execute's goroutine, with its
// message, once the runs before it are taken; those after it are not.
func TestWorkerPanicIsRaisedInOrder(t *testing.T) {
	c := frontier(t)
	runs := workloads.DefaultP2P(c.GCD.Count).Runs()[:5]
	bad := runs[2]
	bad.Rows = func(*job.Replay) []report.Row {
		return []report.Row{{Workload: "w", Case: "c", Metric: "m", Unit: "u", Value: math.NaN()}}
	}
	runs[2] = bad
	var done []int
	func() {
		defer func() {
			if p := recover(); p != "row w c m: u is NaN" {
				t.Errorf("panic %v, want the run's", p)
			}
		}()
		Execute(c, runs, WithWorkers(2), WithProgress(func(d, _ int, _ float64) { done = append(done, d) }))
		t.Error("Execute returned")
	}()
	if !slices.Equal(done, []int{1, 2}) {
		t.Errorf("runs taken before the panic: %v, want [1 2]", done)
	}
}

// A stop keeps exactly the runs taken before it, whatever finished after:
// here run 1 ends first and asks to stop, so run 0, under way, is dropped
// and run 1 with it.
func TestInterruptKeepsTheTakenPrefix(t *testing.T) {
	c := frontier(t)
	p2p := workloads.DefaultP2P(c.GCD.Count).Runs()
	first, second := p2p[0], p2p[1]
	var stop atomic.Bool
	ended := make(chan struct{})
	build := first.Ops
	first.Ops, first.Build = nil, func() []trace.Op {
		select {
		case <-ended:
		case <-time.After(20 * time.Second):
			t.Error("run 1 did not end while run 0 waited")
		}
		return build
	}
	rows := second.Rows
	second.Rows = func(r *job.Replay) []report.Row { stop.Store(true); close(ended); return rows(r) }
	res, err := Execute(c, []job.Run{first, second, p2p[2]}, WithWorkers(2), WithStop(stop.Load))
	if err != nil || !res.Interrupted || len(res.Runs) != 0 || len(res.Rows) != 0 || res.Planned != 3 {
		t.Errorf("%v, interrupted %v, %d runs, %d rows, %d planned", err, res.Interrupted, len(res.Runs), len(res.Rows), res.Planned)
	}
}

// Stopped after two runs, side by side as one after another, Execute
// keeps those two runs and their rows.
func TestInterruptAfterTwoRuns(t *testing.T) {
	c := frontier(t)
	runs := workloads.DefaultP2P(c.GCD.Count).Runs()[:6]
	all, err := Execute(c, runs[:2])
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{1, 2} {
		var done atomic.Int32
		res, err := Execute(c, runs, WithWorkers(w), WithStop(func() bool { return done.Load() >= 2 }),
			WithProgress(func(d, _ int, _ float64) { done.Store(int32(d)) }))
		if err != nil || !res.Interrupted || !slices.Equal(res.Runs, all.Runs) || !reflect.DeepEqual(res.Rows, all.Rows) {
			t.Errorf("%d workers: %v, interrupted %v, runs %v, want %v", w, err, res.Interrupted, res.Runs, all.Runs)
		}
	}
}

// An error in a run ends Execute with it, as one after another would:
// the runs after it are dropped, those before it were handed on.
func TestWorkerErrorEndsInOrder(t *testing.T) {
	c := frontier(t)
	runs := workloads.DefaultP2P(c.GCD.Count).Runs()[:5]
	deadlock := []trace.Op{{Op: trace.FlagWait, Flag: "never", Line: 1}}
	runs[3] = job.Run{Name: "deadlock.jsonl", Build: func() []trace.Op { return deadlock }, Rows: runs[3].Rows}
	var handed int
	_, err := Execute(c, runs, WithWorkers(2), WithRows(func([]report.Row) error { handed++; return nil }))
	if err == nil || handed != 3 {
		t.Errorf("error %v after %d runs handed on, want one after 3", err, handed)
	}
	if err != nil && !regexp.MustCompile(`deadlock\.jsonl`).MatchString(err.Error()) {
		t.Errorf("error %q does not name the run", err)
	}
}

// Over its memory budget, a run that is not the first under way waits
// until the first ends; the first never waits.
func TestMemGuardHoldsAllButTheFirst(t *testing.T) {
	g := newMemGuard()
	g.budget = func(uint64) uint64 { return 1 } // any heap is over it
	g.start(0)
	g.start(1)
	g.wait(0, func() bool { return false }) // returns at once
	released := make(chan struct{})
	go func() { g.wait(1, func() bool { return false }); close(released) }()
	select {
	case <-released:
		t.Fatal("run 1 went on while run 0 was under way")
	case <-time.After(100 * time.Millisecond):
	}
	g.end(0)
	select {
	case <-released:
	case <-time.After(10 * time.Second):
		t.Fatal("run 1 still waits after run 0 ended")
	}
}

// InOrderBy has every worker start the costliest index within the window
// first, and still hands the results over in index order; with more
// indexes than the window, cost rising with the index (the lowest, which
// take waits for, is always the cheapest), every index still runs.
func TestInOrderByStartsTheCostliestFirst(t *testing.T) {
	for _, n := range []int{10, 1000} {
		var count atomic.Int32
		startedAs := make([]int32, n) // index i was the startedAs[i]-th to start
		var got []int
		var both sync.WaitGroup // the first two runs wait for each other: one per worker
		both.Add(2)
		InOrderBy(n, 2, func(i int) int64 { return int64(i) }, func(i int, _ func() bool) int {
			if startedAs[i] = count.Add(1); startedAs[i] <= 2 {
				both.Done()
				both.Wait()
			}
			return i * i
		}, func(i, v int) bool {
			if v != i*i {
				t.Errorf("index %d got %d", i, v)
			}
			got = append(got, i)
			return true
		})
		if len(got) != n || !slices.IsSorted(got) {
			t.Fatalf("n %d: taken %d results, in order %v", n, len(got), slices.IsSorted(got))
		}
		if n == 10 && (startedAs[9] > 2 || startedAs[8] > 2 || startedAs[0] != 10) {
			t.Errorf("n 10: the two costliest indexes started %dth and %dth, the cheapest %dth: want the first two and the last", startedAs[9], startedAs[8], startedAs[0])
		}
	}
}

// The guard's budget is half of what the process may hold: all of
// AKISIM_MEMORY_BYTES, or its heap and the memory left beside it.
func TestMemGuardBudget(t *testing.T) {
	t.Setenv("AKISIM_MEMORY_BYTES", "8000000000")
	if got := halfOfWhatIsLeft(3 << 30); got != 4000000000 {
		t.Errorf("AKISIM_MEMORY_BYTES=8000000000: budget %d, want 4000000000 whatever the heap", got)
	}
	t.Setenv("AKISIM_MEMORY_BYTES", "")
	if a, _ := limit.Binding(); a <= 0 {
		t.Skip("no memory limit known here")
	}
	if d := halfOfWhatIsLeft(2<<30) - halfOfWhatIsLeft(0); d != 1<<30 {
		t.Errorf("2 GiB more heap raised the budget by %d, want 1 GiB (half of what the heap holds beside what is left)", d)
	}
}
