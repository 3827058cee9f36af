package workloads

import (
	"errors"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/node"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// ExecuteStream replays a streamed trace on a node built from c, as
// Execute replays TraceRun(name, ops), but holds only the ops in
// progress: each op's rows go to sink, in trace order, once it is final.
// The result has no rows.
func ExecuteStream(c *config.Node, name string, src *trace.Stream, sink func(report.Row) error, opts ...Option) (*Result, error) {
	var opt execOptions
	for _, o := range opts {
		o(&opt)
	}
	stats := NewStats() // host time counts from here, as in Execute
	n, err := node.Build(c)
	if err != nil {
		return nil, err
	}
	count := &eventCounter{}
	n.Engine.AcceptHook(count)
	if opt.stop != nil {
		n.Engine.AcceptHook(&stopHook{stop: opt.stop})
	}
	t := traceRows{bufs: map[string]trace.Buffer{}}
	var rows []report.Row
	stopped, err := runStoppable(func() error {
		return n.RunStream(src, src.Ranks(), func(o *hip.OpResult) error {
			rows = t.add(rows[:0], *o, false)
			for _, r := range rows {
				if err := sink(r); err != nil {
					return err
				}
			}
			return nil
		})
	})
	var te *trace.Error
	if errors.As(err, &te) && te.File == "" {
		te.File = name
	}
	if err != nil {
		return nil, err
	}
	res := &Result{Stats: stats, Runs: []string{name}, Events: count.n, Planned: 1}
	if stopped { // the rows of the ops that finished went to sink already
		res.Runs, res.Interrupted = nil, true
		return res, nil
	}
	res.Stats.Add(name, n)
	for _, g := range n.GCDs {
		for _, e := range g.Engines() {
			res.Bytes += e.BytesCopied
		}
	}
	return res, nil
}
