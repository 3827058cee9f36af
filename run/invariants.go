package run

import (
	"sync/atomic"

	"github.com/akisim/akisim/invariant"
	"github.com/akisim/akisim/node"
	"github.com/akisim/akisim/trace"
)

// WithCheck has Execute and ExecuteStream check the model's invariants
// after every run (akisim -check, package invariant); a broken one ends
// the run with an *invariant.Error.
func WithCheck() Option { return func(o *execOptions) { o.check = true } }

// checkAll turns WithCheck on for every Execute of the process: for
// callers that do not pass options (akisim validate's experiments) and
// for tests (a TestMain).
var checkAll atomic.Bool

// CheckAll has every later Execute and ExecuteStream check invariants, as
// WithCheck does, whether or not it was asked to (on) or only when asked.
func CheckAll(on bool) { checkAll.Store(on) }

// checking says whether a run's invariants are checked.
func (o *execOptions) checking() bool { return o.check || checkAll.Load() }

// checkRun checks run name's invariants on node n, whose ops tally t has.
func checkRun(name string, n *node.Node, t *invariant.Tally) error {
	if bad := invariant.Check(n, t); len(bad) > 0 {
		return &invariant.Error{Run: name, Violations: bad}
	}
	return nil
}

// traceTally is the tally of a run's own trace (before the libraries
// expanded it): the flags it names. The finished ops are added after.
func traceTally(n *node.Node, traced []trace.Op) *invariant.Tally {
	return invariant.NewTally(n.Config.GCD.LineBytes).Trace(traced)
}
