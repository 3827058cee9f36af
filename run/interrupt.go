package run

import (
	"github.com/akisim/akisim/report"
)

// A long run can be stopped early (a signal): the runs that finished keep
// their rows, the run under way is dropped, and Result.Interrupted says so.

// WithStop has Execute check stop before each run, as each is taken and,
// every few thousand events, within one; once it says true the runs not
// yet taken are dropped (those under way, and any that finished beside
// them) and Execute returns the runs taken, a prefix of the runs in
// order. Execute never calls stop, progress and rows at once, though it
// asks stop from the goroutines of the runs under way.
func WithStop(stop func() bool) Option { return func(o *execOptions) { o.stop = stop } }

// WithProgress has Execute call progress after each run with the runs done,
// the runs in all and the simulated seconds so far.
func WithProgress(progress func(done, total int, simulated float64)) Option {
	return func(o *execOptions) { o.progress = progress }
}

// WithRows hands each run's rows to rows as the run ends, in run order,
// instead of keeping them in Result.Rows; its error stops Execute.
func WithRows(rows func([]report.Row) error) Option { return func(o *execOptions) { o.rows = rows } }

// errStopped unwinds a run that was asked to stop from inside its engine.
type errStopped struct{}

// stopEvery is how many events a run handles between checks of its stop.
const stopEvery = 4096

// runStoppable runs f, turning a stop from inside it into stopped.
func runStoppable(f func() error) (stopped bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(errStopped); !ok {
				panic(p)
			}
			stopped = true
		}
	}()
	return false, f()
}
