// Package run simulates runs: for each job.Run it builds a fresh node
// (package node), replays the run's operations on Akita's engine, hands
// the run's Rows what they did (a job.Replay), and keeps what was asked
// of the runs: the nodes' statistics, invariant checks, the timeline,
// Akita's tasks for Daisen and what a profiler would have recorded.
// Package workloads makes the runs; cmd/akisim and validate execute them
// here.
package run

import (
	"errors"
	"fmt"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/hip"
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
	Tasks    []tracing.Task     // the copies and kernels as Akita's tracer saw them (WithTasks)
	Recorded []*profile.Profile // per run, what a profiler would have recorded (WithCalls)
	// Interrupted: asked to stop (WithStop) before all runs finished;
	// Rows are those of the runs in Runs, Planned the runs asked for.
	Interrupted bool
	Planned     int
}

// eventCounter counts the events an engine handles and, every
// stopEvery, asks stop (when set) whether to end the run: then it unwinds
// the engine's Run (Akita's engine has no way to end a Run early).
type eventCounter struct {
	n    uint64
	stop func() bool
}

func (c *eventCounter) Func(ctx sim.HookCtx) {
	if ctx.Pos != sim.HookPosBeforeEvent {
		return
	}
	if c.n++; c.stop != nil && c.n%stopEvery == 0 && c.stop() {
		panic(errStopped{})
	}
}

// newNode builds a fresh node from c for one run, counting its events.
func newNode(c *config.Node, opt execOptions) (*node.Node, *eventCounter, error) {
	n, err := node.Build(c)
	if err != nil {
		return nil, nil, err
	}
	count := &eventCounter{stop: opt.stop}
	n.Engine.AcceptHook(count)
	return n, count, nil
}

// ran adds a finished run on node n to the result: its name, statistics,
// events and the bytes its SDMA engines copied.
func (res *Result) ran(name string, n *node.Node, count *eventCounter) {
	res.Runs = append(res.Runs, name)
	res.Stats.Add(name, n)
	res.Events += count.n
	for _, g := range n.GCDs {
		if g == nil {
			continue // not built
		}
		for _, e := range g.Engines() {
			res.Bytes += e.BytesCopied
		}
	}
}

// AfterRun, when set (by tests, here and in package workloads), sees
// every run's node once it has run.
var AfterRun func(n *node.Node, run job.Run, out []hip.OpResult)

// Execute checks every run (job.Check) and simulates each on a fresh node
// built from c.
func Execute(c *config.Node, runs []job.Run, opts ...Option) (*Result, error) {
	var opt execOptions
	for _, o := range opts {
		o(&opt)
	}
	if err := job.Check(c, runs); err != nil {
		return nil, err
	}
	res := &Result{Stats: NewStats(), Planned: len(runs)}
	mpiP, rcclP, rcclT := mpi.FromConfig(c), rccl.ParamsFromConfig(c), rccl.FromConfig(c) // the libraries' settings, once
	var simulated float64
	for _, run := range runs {
		if opt.stop != nil && opt.stop() {
			res.Interrupted = true
			break
		}
		n, count, err := newNode(c, opt)
		if err != nil {
			return nil, err
		}
		var tasks *taskLog
		var tracer *tracing.DBTracer
		if opt.tasks {
			tasks = &taskLog{prefix: fmt.Sprintf("run[%d].", len(res.Runs)), offset: sim.VTimeInSec(simulated)}
			tracer = tracing.NewDBTracer(n.Engine, tasks)
			n.TraceTasks(tracer)
		}
		// MPI and RCCL calls become what the libraries do, then the run
		ops, err := run.Operations(), error(nil)
		if run.Build != nil {
			err = trace.Check(ops, job.Limits(c), run.Name)
		}
		traced := ops
		if err == nil {
			ops, err = rccl.Expand(mpi.Expand(ops, mpiP), rcclP, rcclT)
		}
		var out []hip.OpResult
		if err == nil {
			var stopped bool
			stopped, err = runStoppable(func() (e error) { out, e = n.Run(ops); return e })
			if stopped {
				res.Interrupted = true
				break
			}
		}
		var te *trace.Error
		if errors.As(err, &te) && te.File == "" {
			te.File = run.Name // found after Check (an RCCL call with no algorithm, a deadlock): the run names the file
		}
		if err != nil {
			return nil, err
		}
		if AfterRun != nil {
			AfterRun(n, run, out)
		}
		if opt.checking() {
			if err := checkRun(run.Name, n, tallyOps(n, traced, out)); err != nil {
				return nil, err
			}
		}
		rp := &job.Replay{Ops: results(out), Events: map[string]float64{}}
		for _, o := range ops {
			if _, seen := rp.Events[o.Event]; o.Op == trace.EventRecord && (o.Rank == 0 || !seen) {
				t, _ := n.Runtime.EventOf(o.Rank, o.Event) // by name: rank 0's, else the first rank's
				rp.Events[o.Event] = float64(t)
			}
		}
		if rows := finite(run.Rows(rp)); opt.rows != nil {
			if err := opt.rows(rows); err != nil {
				return nil, err
			}
		} else {
			res.Rows = append(res.Rows, rows...)
		}
		if opt.timeline {
			res.Timeline = append(res.Timeline, spans(run.Name, out)...)
		}
		if tracer != nil {
			tracer.Terminate() // every task has ended: this flushes nothing unfinished
			res.Tasks = append(res.Tasks, tasks.tasks...)
			tasks.tasks = nil // Akita keeps each tracer (an exit handler) until the process ends
		}
		if opt.calls {
			rec := recorded(out, c.GCD.Count, c.Host.NUMADomains)
			rec.Source = run.Name
			res.Recorded = append(res.Recorded, rec)
		}
		res.ran(run.Name, n, count)
		simulated += float64(n.Engine.CurrentTime())
		if opt.progress != nil {
			opt.progress(len(res.Runs), len(runs), simulated)
		}
	}
	return res, nil
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
	r := job.OpResult{Index: o.Index, Op: o.Op, Issue: float64(o.Issue), Start: float64(o.Start), End: float64(o.End),
		Done: o.Done, Begin: float64(o.Begin), Engine: o.Engine}
	if o.AccessEnd != nil {
		r.AccessEnd = make([]float64, len(o.AccessEnd))
		for i, t := range o.AccessEnd {
			r.AccessEnd[i] = float64(t)
		}
	}
	return r
}
