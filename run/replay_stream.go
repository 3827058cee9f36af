package run

import (
	"errors"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/invariant"
	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// ExecuteStream replays a streamed trace on a node built from c, as
// Execute replays workloads.TraceRun(name, ops), but holds only the ops in
// progress: rows (workloads.StreamRows) appends each op's rows to the
// slice it is given, and they go to sink, in trace order, once the op is
// final. The result has no rows.
func ExecuteStream(c *config.Node, name string, src *trace.Stream, rows func([]report.Row, job.OpResult) []report.Row, sink func(report.Row) error, opts ...Option) (*Result, error) {
	var opt execOptions
	for _, o := range opts {
		o(&opt)
	}
	res := &Result{Stats: NewStats(), Planned: 1} // host time counts from here, as in Execute
	n, count, err := newNode(c, opt.stop)
	if err != nil {
		return nil, err
	}
	var made []report.Row
	device := c.DeviceName()
	var tally *invariant.Tally
	if opt.checking() {
		tally = invariant.NewTally(c.GCD.LineBytes)
	}
	stopped, err := runStoppable(func() error {
		return n.RunStream(commands{src}, src.Ranks(), func(o *hip.OpResult) error {
			if tally != nil { // a streamed trace has no library calls: its flags are its own
				tally.TraceOp(&o.Op.Call)
				tally.Add(o)
			}
			made = finite(rows(made[:0], result(o)))
			report.Devices(made, device)
			for _, r := range made {
				if err := sink(r); err != nil {
					return err
				}
			}
			return nil
		}, false) // the rows go out in trace order
	})
	var te *trace.Error
	if errors.As(err, &te) && te.File == "" {
		te.File = name
	}
	if err != nil {
		return nil, err
	}
	if stopped { // the rows of the ops that finished went to sink already
		res.Interrupted, res.Events = true, count.N
		return res, nil
	}
	if tally != nil {
		if err := checkRun(name, n, tally); err != nil {
			return nil, err
		}
	}
	res.ran(name, take(n), count.N, copied(n))
	return res, nil
}

// commands hands out a streamed trace's chunks as the runtime's commands:
// a trace has no library calls, so nothing is lowered.
type commands struct{ src *trace.Stream }

func (c commands) Next() ([]ir.Command, error) {
	ops, err := c.src.Next()
	if len(ops) == 0 {
		return nil, err
	}
	return ir.FromTrace(ops), err
}
