// Package workloads holds the built-in benchmark replicas. Each is a trace
// generator: it emits the operations the real benchmark issues, the replay
// engine runs them, and the workload turns event times into rows the way
// the real benchmark computes its numbers.
package workloads

import (
	"errors"
	"fmt"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/mpi"
	"github.com/akisim/akisim/node"
	"github.com/akisim/akisim/profile"
	"github.com/akisim/akisim/rccl"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"
)

// Run is one benchmark invocation on a fresh node.
type Run struct {
	Name string     // e.g. the Comm|Scope benchmark name
	Ops  []trace.Op // what the benchmark's host thread calls
	// Build, when set, makes Ops as the run starts, so a workload of many
	// large runs holds one run's operations at a time.
	Build func() []trace.Op
	// Rows computes the benchmark's numbers from the replay.
	Rows func(r *Replay) []report.Row
}

// Operations is the run's operations: Ops, or what Build makes.
func (r Run) Operations() []trace.Op {
	if r.Build != nil {
		return r.Build()
	}
	return r.Ops
}

// Replay is what a run's operations did.
type Replay struct {
	Ops    []hip.OpResult
	events map[string]sim.VTimeInSec
}

// Elapsed is hipEventElapsedTime(start, stop) in seconds.
func (r *Replay) Elapsed(start, stop string) float64 {
	return float64(r.events[stop] - r.events[start])
}

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

// afterRun, when set (by tests), sees every run's node once it has run.
var afterRun func(n *node.Node, run Run, out []hip.OpResult)

// Execute checks every run (Check) and simulates each on a fresh node
// built from c.
func Execute(c *config.Node, runs []Run, opts ...Option) (*Result, error) {
	var opt execOptions
	for _, o := range opts {
		o(&opt)
	}
	if err := Check(c, runs); err != nil {
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
			err = trace.Check(ops, Limits(c), run.Name)
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
		if afterRun != nil {
			afterRun(n, run, out)
		}
		if opt.checking() {
			if err := checkRun(run.Name, n, tallyOps(n, traced, out)); err != nil {
				return nil, err
			}
		}
		rp := &Replay{Ops: out, events: map[string]sim.VTimeInSec{}}
		for _, o := range ops {
			if _, seen := rp.events[o.Event]; o.Op == trace.EventRecord && (o.Rank == 0 || !seen) {
				rp.events[o.Event], _ = n.Runtime.EventOf(o.Rank, o.Event) // by name: rank 0's, else the first rank's
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

func intp(v int) *int { return &v }

func alloc(name string, gcd int, bytes int64) trace.Op {
	return trace.Op{Op: trace.Malloc, Buf: name, GCD: intp(gcd), Bytes: bytes}
}

func hostAlloc(name string, numa int, bytes int64) trace.Op {
	return trace.Op{Op: trace.HostMalloc, Buf: name, NUMA: intp(numa), Bytes: bytes}
}

func record(event string, stream int) trace.Op {
	return trace.Op{Op: trace.EventRecord, Event: event, Stream: stream}
}

func gbps(bytes float64, seconds float64) float64 { return bytes / seconds / 1e9 }

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
