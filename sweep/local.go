package sweep

import (
	"fmt"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/akisim/akisim/internal/errtext"
	"github.com/akisim/akisim/output"
)

// runLocal runs the points as akisim processes, s.jobs at a time, and
// returns a line for each that failed.
// A signal stops the sweep: no point starts after it, the points running
// get it too (and keep what they finished, marked incomplete, so a rerun
// runs them again), and the finished points are merged.
func (s *Sweep) runLocal(todo []Point) []string {
	var mu sync.Mutex
	var failures []string
	running := map[*exec.Cmd]bool{}
	s.started = func(c *exec.Cmd, on bool) {
		mu.Lock()
		defer mu.Unlock()
		if !on {
			delete(running, c)
			return
		}
		running[c] = true
		if sig := s.Signal(); sig != 0 {
			c.Process.Signal(syscall.Signal(sig))
		}
	}
	s.Graceful(true)
	defer s.Graceful(false)
	watchDone := make(chan struct{})
	defer close(watchDone)
	go func() { // pass a signal on to the points running
		for {
			select {
			case <-watchDone:
				return
			case <-time.After(20 * time.Millisecond):
			}
			if sig := s.Signal(); sig != 0 {
				mu.Lock()
				for c := range running {
					c.Process.Signal(syscall.Signal(sig))
				}
				mu.Unlock()
				return
			}
		}
	}()
	done, stopped, start := 0, 0, time.Now()
	next := make(chan Point)
	var wg sync.WaitGroup
	for range min(s.jobs, max(1, len(todo))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				if s.stopped() {
					continue // stopped: the points left wait for a rerun
				}
				msg := s.runPoint(p)
				mu.Lock()
				switch {
				case msg != "":
					done++
					failures = append(failures, msg)
				case s.done(p):
					done++
				default: // a signal stopped it: it runs again next time
					stopped++
				}
				if !s.quiet {
					note := ""
					if stopped > 0 {
						note = fmt.Sprintf(", %d interrupted", stopped)
					}
					fmt.Fprintf(s.stderr, "akisim sweep: %d/%d points run, %d failed%s, %s\n", done, len(todo), len(failures), note,
						time.Since(start).Round(time.Second))
				}
				mu.Unlock()
			}
		}()
	}
	for _, p := range todo {
		if s.stopped() {
			break
		}
		next <- p
	}
	close(next)
	wg.Wait()
	return failures
}

// runPoint runs one point, its output into its log; a failure's line.
func (s *Sweep) runPoint(p Point) string {
	logOut, err := output.Open("sweep: point "+p.ID+"'s log", s.logPath(p))
	if err == nil {
		defer logOut.Close()
	}
	var log *output.Buffered
	if err == nil {
		log, err = logOut.Create()
	}
	if err != nil {
		return fmt.Sprintf("point %d (%s): its log: %v", p.Index, s.Label(p), errtext.Of(err))
	}
	cmd := exec.Command(s.binary, s.pointArgs(p)...)
	cmd.Stdout, cmd.Stderr = log.W, log.W
	start := time.Now()
	if err = cmd.Start(); err == nil {
		s.started(cmd, true)
		err = cmd.Wait()
		s.started(cmd, false)
	}
	s.took(p, time.Since(start))
	// the log is kept whatever the point did: a failure's is read below
	if lerr := logOut.Finish(log); lerr == nil {
		if lerr = logOut.Commit(); lerr != nil && err == nil {
			err = lerr
		}
	} else if err == nil {
		err = lerr
	}
	if err == nil || s.stopped() {
		return "" // interrupted: not a failure, it runs again next time
	}
	return fmt.Sprintf("point %d (%s) failed (%v): %s; log %s", p.Index, s.Label(p), err, lastLine(s.logPath(p)), s.logPath(p))
}
