package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/akisim/akisim/run"
)

// A long run reports progress on stderr: a bar redrawn in place when
// stderr is a terminal, else a status line every statusEvery; -quiet
// stops both. The first report waits for statusEvery, so short runs
// print nothing.

// statusEvery is how often progress is reported.
var statusEvery = 5 * time.Second

// progress reports a run's progress.
type progress struct {
	w        io.Writer
	terminal bool
	start    time.Time
	last     time.Time
	drawn    bool // a bar is on the terminal's last line
	noETA    bool // the runs differ in size: a count would mislead (unlikeRuns)
}

// newProgress reports to w, nil when quiet.
func newProgress(w io.Writer, quiet bool) *progress {
	if quiet {
		return nil
	}
	terminal := false
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			terminal = true
		}
	}
	now := time.Now()
	return &progress{w: w, terminal: terminal, start: now, last: now}
}

// runDone takes a finished run: done of total, simulated seconds so far.
func (p *progress) runDone(done, total int, simulated float64) {
	if p == nil {
		return
	}
	now := time.Now()
	wall := now.Sub(p.start)
	if wall < statusEvery || (!p.terminal && now.Sub(p.last) < statusEvery) || (p.terminal && now.Sub(p.last) < 100*time.Millisecond && done < total) {
		return
	}
	p.last = now
	status := fmt.Sprintf("%d/%d runs, %s simulated, %s wall", done, total, simTime(simulated), wall.Round(time.Second))
	if !p.noETA {
		eta := "?"
		if done > 0 && done < total {
			eta = (time.Duration(float64(wall) / float64(done) * float64(total-done))).Round(time.Second).String()
		} else if done == total {
			eta = "0s"
		}
		status += ", about " + eta + " left"
	}
	p.show(status, float64(done)/float64(max(total, 1)))
}

// unlikeRuns drops the estimate of the time left: the runs grow with their
// sizes (a 1 GiB all_reduce takes 10^5 times an 8 B one), so the time per
// run done so far says nothing of the runs to come.
func (p *progress) unlikeRuns() {
	if p != nil {
		p.noETA = true
	}
}

// within reports a run still under way, done of its total ops (a long
// trace replayed as a stream, whose one run ends only at its end): it is
// asked with the simulation's stop checks, every few thousand events.
func (p *progress) within(done, total int64) {
	if p == nil || total <= 0 {
		return
	}
	now := time.Now()
	wall := now.Sub(p.start)
	if wall < statusEvery || now.Sub(p.last) < statusEvery && (!p.terminal || now.Sub(p.last) < 100*time.Millisecond) {
		return
	}
	p.last = now
	eta := "?"
	if done > 0 {
		eta = (time.Duration(float64(wall) / float64(done) * float64(max(total-done, 0)))).Round(time.Second).String()
	}
	status := fmt.Sprintf("%d/%d trace ops issued, %s wall, about %s left", done, total, wall.Round(time.Second), eta)
	p.show(status, float64(done)/float64(total))
}

// show prints a status: a line, or on a terminal a bar filled to frac.
func (p *progress) show(status string, frac float64) {
	if !p.terminal {
		fmt.Fprintln(p.w, "akisim:", status)
		return
	}
	const width = 30
	fill := min(width, max(0, int(width*frac)))
	fmt.Fprintf(p.w, "\r[%s%s] %s\x1b[K", strings.Repeat("#", fill), strings.Repeat(".", width-fill), status)
	p.drawn = true
}

// end leaves the terminal's line to what follows.
func (p *progress) end() {
	if p != nil && p.drawn {
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}

// simTime prints simulated seconds in the unit that suits them.
func simTime(s float64) string {
	switch {
	case s >= 1:
		return fmt.Sprintf("%.3g s", s)
	case s >= 1e-3:
		return fmt.Sprintf("%.3g ms", s*1e3)
	default:
		return fmt.Sprintf("%.3g us", s*1e6)
	}
}

// Signals: the first SIGINT or SIGTERM during a simulation asks it to
// stop (interrupt); the rows of the runs that finished are written as a
// finished run's are, with a note, and akisim exits 128+N. A second
// signal, or one outside a simulation, ends akisim at once (trapSignals).

// graceful is set while a simulation can stop early and keep its rows.
var graceful atomic.Bool

// interrupt is the signal that asked the simulation to stop, 0 if none.
var interrupt atomic.Int32

// stopAsked tells the workloads whether to stop.
func stopAsked() bool { return interrupt.Load() != 0 }

// interruptedError ends a run that kept its rows: exit 128+signal.
type interruptedError struct{ signal int }

func (e *interruptedError) Error() string {
	return fmt.Sprintf("interrupted by %s: the rows of the runs that finished were written", signalName(e.signal))
}

func signalName(n int) string {
	switch n {
	case 2:
		return "SIGINT"
	case 15:
		return "SIGTERM"
	}
	return fmt.Sprintf("signal %d", n)
}

// interruptNote is the outdir's note of an interrupted run.
func interruptNote(res *run.Result) string {
	return fmt.Sprintf("This run was interrupted by %s: it is incomplete.\n%d of %d runs finished; the rows are theirs (a run under way when the signal came was dropped).\n",
		signalName(int(interrupt.Load())), len(res.Runs), res.Planned)
}
