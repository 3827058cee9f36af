// Package run simulates runs: for each job.Run it builds a fresh node
// (package node), replays the run's operations on Akita's engine, hands
// the run's Rows what they did (a job.Replay), and keeps what was asked
// of the runs: the nodes' statistics, invariant checks, the timeline,
// Akita's tasks for Daisen and what a profiler would have recorded.
// The runs are independent, so several run at once (parallel.go), kept
// in run order. Package workloads makes the runs; cmd/akisim and validate execute them
// here.
package run

import (
	"errors"
	"slices"
	"sync"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/invariant"
	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/mpi"
	"github.com/akisim/akisim/node"
	"github.com/akisim/akisim/profile"
	"github.com/akisim/akisim/rccl"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"
)

// Result holds the rows of all runs and the nodes' statistics.
type Result struct {
	Rows     []report.Row
	Runs     []string
	Stats    *Stats
	Events   uint64             // simulation events handled, for speed reports
	Bytes    uint64             // bytes the SDMA engines copied
	Timeline []report.Span      // the copies and kernels on their engines (WithTimeline)
	Counters []report.Counter   // the data rates of the link directions and memories (WithTimeline)
	Tasks    []tracing.Task     // the work as Akita's task tracing saw it (WithTasks)
	Recorded []*profile.Profile // per run, what a profiler would have recorded (WithCalls)
	// Interrupted: asked to stop (WithStop) before all runs finished;
	// Rows are those of the runs in Runs, Planned the runs asked for.
	Interrupted bool
	Planned     int
}

// newNode builds a fresh node from c for one run, counting its events
// (fabric.EventCount: the engine's and its calendars') and, every
// stopEvery, asking stop (when set) whether to end the run: then it
// unwinds the engine's Run (Akita's engine has no way to end a Run early).
func newNode(c *config.Node, stop func() bool) (*node.Node, *fabric.EventCount, error) {
	n, err := node.Build(c)
	if err != nil {
		return nil, nil, err
	}
	count := &fabric.EventCount{}
	if stop != nil {
		count.Every, count.Check = stopEvery, func() {
			if stop() {
				panic(errStopped{})
			}
		}
	}
	n.Engine.AcceptHook(count)
	return n, count, nil
}

// ran adds a finished run to the result: its name, statistics, events
// and the bytes its SDMA engines copied.
func (res *Result) ran(name string, d *dump, events, bytes uint64) {
	res.Runs = append(res.Runs, name)
	res.Stats.keep(name, d)
	res.Events += events
	res.Bytes += bytes
}

// copied is the bytes node n's SDMA engines copied.
func copied(n *node.Node) uint64 {
	var b uint64
	for _, g := range n.GCDs {
		if g == nil {
			continue // not built
		}
		for _, e := range g.Engines() {
			b += e.BytesCopied
		}
	}
	return b
}

// AfterRun, when set (by tests, here and in package workloads), sees
// every run's node once it has run.
var AfterRun func(n *node.Node, run job.Run, out []hip.OpResult)

// libraries are the MPI and RCCL settings every run of a node expands
// its calls with.
type libraries struct {
	mpi  mpi.Params
	rccl rccl.Params
	topo rccl.Topology
}

// simulated is what Execute keeps of one run, made on the goroutine that
// ran it: everything that needs the node, so the node goes once it ends.
type simulated struct {
	stopped       bool // asked to stop before it ended: dropped
	err           error
	stats         *dump
	end           float64 // the engine's time at the end
	events, bytes uint64
	rows          []report.Row
	timeline      []report.Span
	counters      []report.Counter
	tasks         []tracing.Task
	recorded      *profile.Profile
}

// Execute checks every run (job.Check) and simulates each on a fresh node
// built from c, several at once (WithWorkers), keeping them in run order.
func Execute(c *config.Node, runs []job.Run, opts ...Option) (*Result, error) {
	var opt execOptions
	for _, o := range opts {
		o(&opt)
	}
	if err := job.Check(c, runs); err != nil {
		return nil, err
	}
	if err := checkMemory(runs); err != nil {
		return nil, err
	}
	res := &Result{Stats: NewStats(), Planned: len(runs)}
	libs := libraries{mpi.FromConfig(c), rccl.ParamsFromConfig(c), rccl.FromConfig(c)} // once
	workers := opt.workerCount(len(runs))
	// The caller's stop, progress and rows never run at once: stop is
	// asked from the runs under way, the others as runs are taken.
	var callbacks sync.Mutex
	stop := func() bool {
		callbacks.Lock()
		defer callbacks.Unlock()
		return opt.stop != nil && opt.stop()
	}
	var guard *memGuard
	var budget *runBudget
	if workers > 1 {
		sim.GetIDGenerator() // made once, before the runs share it
		guard, budget = newMemGuard(), newRunBudget()
	}
	var err error
	var offset float64       // the runs' simulated seconds so far: where a run's tasks start
	var cost func(int) int64 // the costliest runs first, if the runs say
	if slices.ContainsFunc(runs, func(r job.Run) bool { return r.Cost != 0 }) {
		cost = func(i int) int64 { return runs[i].Cost }
	}
	InOrderBy(len(runs), workers, cost, func(i int, quit func() bool) simulated {
		var stopRun func() bool // nil: one run at a time, never stopped
		switch {
		case guard != nil:
			defer budget.take(runs[i])()
			guard.start(i)
			defer guard.end(i)
			stopRun = func() bool { guard.wait(i, stop); return quit() || stop() }
		case opt.stop != nil:
			stopRun = stop
		}
		if stopRun != nil && stopRun() {
			return simulated{stopped: true}
		}
		return simulate(c, runs[i], i, libs, opt, stopRun)
	}, func(i int, s simulated) bool {
		if s.stopped || opt.stop != nil && stop() { // a run that ended after the stop is dropped too, however many ran at once
			res.Interrupted = true
			return false
		}
		if err = s.err; err != nil {
			return false
		}
		callbacks.Lock()
		defer callbacks.Unlock()
		if opt.rows != nil {
			if err = opt.rows(s.rows); err != nil {
				return false
			}
		} else {
			res.Rows = append(res.Rows, s.rows...)
		}
		res.Timeline = append(res.Timeline, s.timeline...)
		res.Counters = append(res.Counters, s.counters...)
		res.Tasks = append(res.Tasks, shift(s.tasks, offset)...)
		if s.recorded != nil {
			res.Recorded = append(res.Recorded, s.recorded)
		}
		res.ran(runs[i].Name, s.stats, s.events, s.bytes)
		offset += s.end
		if opt.progress != nil {
			opt.progress(len(res.Runs), len(runs), offset)
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// simulate runs run number i on a fresh node built from c. stop, asked
// every few thousand events, drops the run.
func simulate(c *config.Node, run job.Run, i int, libs libraries, opt execOptions, stop func() bool) simulated {
	n, count, err := newNode(c, stop)
	if err != nil {
		return simulated{err: err}
	}
	var rec *recorder
	switch {
	case opt.tasks:
		rec = newRecorder(n.Engine)
	case opt.timeline: // its counters only
		rec = newRecorder(n.Engine, kindTransfer, kindAccess)
	}
	if rec != nil {
		n.TraceTasks(rec)
	}
	// MPI and RCCL calls become what the libraries do, then the run
	ops := run.Operations()
	hasRCCL := func() bool { return slices.ContainsFunc(ops, func(o trace.Op) bool { return o.IsRCCL() }) }
	if run.Build != nil {
		var t trace.Traits
		t, err = trace.Inspect(ops, job.Limits(c), run.Name)
		hasRCCL = func() bool { return t.RCCL } // the check passed over every op: no second pass
	}
	var tally *invariant.Tally
	if err == nil && opt.checking() {
		tally = traceTally(n, ops) // the flags the trace names, taken before it is let go
	}
	var rp *job.Replay
	var cmds []ir.Command
	var out []hip.OpResult
	switch {
	case err == nil && streams(run, opt, hasRCCL):
		var stopped bool
		rp, stopped, err = replayStream(n, ops, run.Keep, libs.mpi, tally)
		if stopped {
			return simulated{stopped: true}
		}
		if err == nil && tally != nil {
			err = checkRun(run.Name, n, tally)
		}
	case err == nil:
		if cmds, err = mpi.ExpandWithin(ops, libs.mpi); err == nil {
			cmds, err = rccl.Expand(cmds, libs.rccl, libs.topo)
		}
		ops = nil // the node runs the commands: the trace they came from need not stay for the run
		if err == nil {
			var stopped bool
			stopped, err = runStoppable(func() (e error) { out, e = n.RunCommands(cmds); return e })
			if stopped {
				return simulated{stopped: true}
			}
		}
	}
	var te *trace.Error
	if errors.As(err, &te) && te.File == "" {
		te.File = run.Name // found after Check (an RCCL call with no algorithm, a deadlock): the run names the file
	}
	if err != nil {
		return simulated{err: err}
	}
	if rp == nil { // the whole trace was run
		if AfterRun != nil {
			AfterRun(n, run, out)
		}
		if tally != nil {
			if err := checkRun(run.Name, n, tally.Ops(out)); err != nil {
				return simulated{err: err}
			}
		}
		rp = &job.Replay{Ops: results(out), Events: map[string]float64{}}
		for _, o := range cmds {
			if _, seen := rp.Events[o.Event]; o.Op == trace.EventRecord && (o.Rank == 0 || !seen) {
				t, _ := n.Runtime.EventOf(o.Rank, o.Event) // by name: rank 0's, else the first rank's
				rp.Events[o.Event] = float64(t)
			}
		}
	}
	s := simulated{rows: finite(run.Rows(rp)), stats: take(n), end: float64(n.Engine.CurrentTime()),
		events: count.N, bytes: copied(n)}
	report.Devices(s.rows, n.Config.DeviceName())
	if opt.timeline {
		s.timeline = spans(run.Name, out)
		s.counters = counters(run.Name, rec.tasks, s.end)
	}
	if opt.tasks {
		s.tasks = rec.finish(i)
	}
	if opt.calls {
		s.recorded = recorded(out, c.GCD.Count, c.Host.NUMADomains)
		s.recorded.Source = run.Name
	}
	return s
}

// spans are the copies, kernels and host accesses of a run, on the engine
// or compute units that ran them.
func spans(run string, ops []hip.OpResult) []report.Span {
	var out []report.Span
	for _, o := range ops {
		if o.Engine == "" && o.Op.Op != trace.HostAccess {
			continue
		}
		name, track := string(o.Op.Op), o.Engine
		if o.Op.Name != "" {
			name = o.Op.Name
		}
		if o.Op.Label != "" {
			name = o.Op.Label
		}
		if track == "" {
			track = "Node.Host.Cores"
		}
		bytes := o.Op.Bytes
		for _, a := range o.Op.Access {
			bytes += a.Bytes
		}
		out = append(out, report.Span{Run: run, Track: track, Name: name,
			Start: float64(o.Start) * 1e6, Dur: float64(o.End-o.Start) * 1e6, Bytes: bytes})
	}
	return out
}

// results are the runtime's op results as a workload reads them: times in
// seconds.
func results(out []hip.OpResult) []job.OpResult {
	rs := make([]job.OpResult, len(out))
	for i := range out {
		rs[i] = result(&out[i])
	}
	return rs
}

// result is one op's result as a workload reads it.
func result(o *hip.OpResult) job.OpResult {
	r := job.OpResult{Index: o.Index, Op: &o.Op.Call, Issue: float64(o.Issue), Start: float64(o.Start), End: float64(o.End),
		Done: o.Done, Begin: float64(o.Begin), Engine: o.Engine}
	if o.AccessEnd != nil {
		r.AccessEnd = make([]float64, len(o.AccessEnd))
		for i, t := range o.AccessEnd {
			r.AccessEnd[i] = float64(t)
		}
	}
	return r
}
