package main

import (
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/output"
	"github.com/akisim/akisim/sweep"
	"github.com/akisim/akisim/trace"
	"github.com/akisim/akisim/workloads"
)

// A sweep checks what each point's run would check before it simulates
// (the workload's flags, -cfg, the trace against the point's node), so
// bad input exits 2 before any point runs. Every point reads the same
// trace, so it is read once and checked once per node size it runs on.

// sweepChecks are what the points' checks share: each config decoded
// once, the trace read once, the workload's checks once per node size and
// environment.
type sweepChecks struct {
	sources  sync.Map // -config -> its *config.Source
	trace    sweepTrace
	workload sweepWorkload
}

// point checks point p's command line as akisim would, and returns the
// files its run reads and writes; with toRun, also what its run checks of
// its inputs before simulating.
func (s *sweepChecks) point(sw *sweep.Sweep, p sweep.Point, toRun bool) (ins, outs []output.Path, err error) {
	o, err := parse(append(append([]string{}, p.Args...), "-outdir", sw.PointDir(p)), io.Discard)
	if err != nil {
		return nil, nil, bad("sweep point %d (%s): %v", p.Index, sw.Label(p), err)
	}
	if o.command != "run" {
		return nil, nil, bad("sweep: akisim %s is not a run to sweep", o.command)
	}
	if err := sweepFile("-config", o.config); err != nil { // before it is read: a pipe would give it to this check alone
		return nil, nil, bad("sweep point %d (%s): %v", p.Index, sw.Label(p), err)
	}
	if src, ok := s.sources.Load(o.config); ok {
		o.source = src.(*config.Source)
	}
	if _, err := loadConfig(o); err != nil {
		return nil, nil, bad("sweep point %d (%s): %v", p.Index, sw.Label(p), err)
	}
	s.sources.LoadOrStore(o.config, o.read.src)
	if toRun {
		if err := s.checkInputs(o); err != nil {
			return nil, nil, bad("sweep point %d (%s): %v", p.Index, sw.Label(p), err)
		}
	}
	ins, outs = o.runPaths(o.read.src.Files())
	return ins, outs, nil
}

// newSweep parses akisim sweep's command line into a sweep whose points
// are checked as akisim checks a run.
func newSweep(args []string, stderr io.Writer) (*sweep.Sweep, error) {
	s, err := sweep.Parse(args, stderr)
	if err != nil {
		return nil, err
	}
	checks := &sweepChecks{}
	s.CheckPoint = func(p sweep.Point, toRun bool) ([]output.Path, []output.Path, error) {
		return checks.point(s, p, toRun)
	}
	s.Signal = func() int { return int(interrupt.Load()) }
	s.Graceful = graceful.Store
	s.Note = noteFile
	return s, nil
}

// runSweep is akisim sweep (package sweep).
func runSweep(args []string, stderr io.Writer) error {
	s, err := newSweep(args, stderr)
	if err != nil {
		return err
	}
	failed, err := s.Run()
	if err != nil {
		return err
	}
	if sig := interrupt.Load(); sig != 0 {
		return &interruptedError{signal: int(sig)}
	}
	if failed > 0 {
		return &failedError{n: failed, what: "sweep points failed"}
	}
	return nil
}

// sweepWorkload memoises a workload's check by what its runs and their
// check read of a point's node: its size (job.Limits), its GCDs' NUMA
// domains and its environment. Points that differ in other keys (a link's
// width) share one check; a commscope check builds 15 000 runs.
type sweepWorkload struct {
	mu     sync.Mutex
	checks map[string]*sweepOnce
}

// sweepOnce is one check, made by the first point that needs it.
type sweepOnce struct {
	once sync.Once
	err  error
}

// of is the check of node size and environment key, new or shared.
func (w *sweepWorkload) of(key string) *sweepOnce {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.checks == nil {
		w.checks = map[string]*sweepOnce{}
	}
	if w.checks[key] == nil {
		w.checks[key] = &sweepOnce{}
	}
	return w.checks[key]
}

// sweepTrace is the trace every point replays, read once.
type sweepTrace struct {
	once    sync.Once
	ops     []trace.Op // nil when it streams
	streams bool       // checked a chunk at a time, as its runs read it
	err     error
	mu      sync.Mutex
	checked map[trace.Limits]error // its check against each node size
}

// checkInputs runs a point's inputs through the checks its run makes
// before simulating; o holds the point's config (loadConfig).
func (s *sweepChecks) checkInputs(o *options) error {
	if o.tracePath == "" {
		if err := sweepFile("-cfg", o.tbConfig); err != nil {
			return err
		}
		c := o.read.node
		check := s.workload.of(fmt.Sprintf("%+v %v %+v", job.Limits(c), c.GlobalGCDNUMA(), c.Env))
		check.once.Do(func() {
			rs, err := runs(o, o.read)
			if err == nil {
				if err = job.Check(c, rs); err != nil {
					err = bad("%v", err)
				}
			}
			check.err = err
		})
		return check.err
	}
	t := &s.trace
	t.once.Do(func() { t.err = t.read(o) })
	if t.err != nil {
		return t.err
	}
	node := o.read.node
	if !t.streams {
		var err error
		if node, _, err = traceNode(o, o.read.src, node, t.ops); err != nil {
			return err
		}
	}
	lim := job.Limits(node)
	t.mu.Lock()
	defer t.mu.Unlock() // one check at a time: a trace's check can hold much memory
	err, done := t.checked[lim]
	if !done {
		if t.streams {
			err = checkStream(o.tracePath, lim)
		} else {
			err = job.Check(node, []job.Run{workloads.TraceRun(o.tracePath, t.ops)})
		}
		if err != nil {
			err = bad("%v", err)
		}
		if t.checked == nil {
			t.checked = map[trace.Limits]error{}
		}
		t.checked[lim] = err
	}
	return err
}

// read reads the trace whole, or only sees that it streams (a run reads
// such a trace a chunk at a time, and so does its check).
func (t *sweepTrace) read(o *options) error {
	if err := sweepFile("-trace", o.tracePath); err != nil {
		return err
	}
	lim := job.Limits(o.read.node)
	s, err := trace.OpenStream(o.tracePath, lim)
	if err != nil {
		return bad("%v", err)
	}
	if s != nil { // checked against this node size as it is read: no second read for it
		t.streams = true
		if err = drain(s); err != nil {
			err = bad("%v", err)
		}
		t.checked = map[trace.Limits]error{lim: err}
		return nil
	}
	if t.ops, err = trace.ReadFile(o.tracePath); err != nil {
		return bad("%v", err)
	}
	return nil
}

// checkStream passes a streaming trace through its checks against lim,
// holding a chunk at a time.
func checkStream(path string, lim trace.Limits) error {
	s, err := trace.OpenStream(path, lim)
	if err != nil || s == nil {
		return err
	}
	return drain(s)
}

// drain reads a stream to its end or first error, and closes it.
func drain(s *trace.Stream) error {
	defer s.Close()
	for {
		ops, err := s.Next()
		if err != nil || ops == nil {
			return err
		}
	}
}

// sweepFile refuses an input every point must read that is a pipe or
// socket: it gives its bytes to one reader only. Anything else is left to
// the run's own check, which words it.
func sweepFile(flagName, path string) error {
	if path == "" {
		return nil
	}
	if st, err := os.Stat(path); err == nil && st.Mode()&(os.ModeNamedPipe|os.ModeSocket) != 0 {
		return bad("%s %s: a pipe, which only one reader empties; every point of a sweep reads it, so give a file", flagName, path)
	}
	return nil
}
