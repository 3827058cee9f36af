// Package job is what a workload hands the run layer and what it gets
// back: a Run (the operations a benchmark's host threads issue and how
// its numbers follow from their times), and a Replay (when each operation
// was issued, began and ended, in seconds). It knows no engine: package
// run simulates a Run on a node and hands its Rows the Replay.
package job

import (
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// Run is one benchmark invocation on a fresh node.
type Run struct {
	Name string     // e.g. the Comm|Scope benchmark name
	Ops  []trace.Op // what the benchmark's host thread calls
	// Build, when set, makes Ops as the run starts, so a workload of many
	// large runs holds one run's operations at a time.
	Build func() []trace.Op
	// BuildCount is how many ops Build makes, at most (0: unknown), known
	// before it makes them: the run layer checks the memory they take
	// before any run starts, and runs side by side within it.
	BuildCount int64
	// Rows computes the benchmark's numbers from the replay.
	Rows func(r *Replay) []report.Row
	// Keep, when set, names the only ops whose results Rows reads: the run
	// may then be replayed as a stream, its ranks' calls interleaved and
	// each result dropped once final, and the Replay holds the results of
	// those ops alone, in no order Rows may rely on.
	Keep func(*trace.Op) bool
	// Cost estimates the run's simulation work against its neighbours'
	// (e.g. the bytes its collectives move; 0: unknown): when runs go side
	// by side, the costliest start first. It changes no result.
	Cost int64
}

// OpCount is how many operations the run holds: Ops's, or what Build
// will make (BuildCount); 0 if unknown.
func (r Run) OpCount() int64 {
	if r.Build != nil {
		return r.BuildCount
	}
	return int64(len(r.Ops))
}

// Operations is the run's operations: Ops, or what Build makes.
func (r Run) Operations() []trace.Op {
	if r.Build != nil {
		return r.Build()
	}
	return r.Ops
}

// OpResult is what one operation did, its times in simulated seconds
// from the run's start.
type OpResult struct {
	Index      int
	Op         *trace.Op // the loaded trace's op
	Issue      float64   // host called it
	Start, End float64   // GPU-side work began and ended (copies), or host return
	Done       bool      // it ended (at End, which may be 0: zero-cost calls at the start)
	Begin      float64   // a kernel's workgroups were dispatched (a profiler's start); 0 otherwise
	Engine     string    // SDMA engine that ran a copy
	// AccessEnd: for a kernel whose accesses are given to some of its
	// workgroups, when each (in Access order) was all moved, as the last
	// block touching it would clock it; nil otherwise.
	AccessEnd []float64
}

// Replay is what a run's operations did.
type Replay struct {
	Ops []OpResult
	// Events are the times the run's events were recorded, by name: rank
	// 0's, else the first rank's to record it.
	Events map[string]float64
}

// Elapsed is hipEventElapsedTime(start, stop) in seconds.
func (r *Replay) Elapsed(start, stop string) float64 {
	return r.Events[stop] - r.Events[start]
}
