package main

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"
)

// runLocal runs the points as akisim processes, s.jobs at a time, and
// returns a line for each that failed.
func (s *sweep) runLocal(todo []sweepPoint) []string {
	var mu sync.Mutex
	var failures []string
	done, start := 0, time.Now()
	next := make(chan sweepPoint)
	var wg sync.WaitGroup
	for range min(s.jobs, max(1, len(todo))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				msg := s.runPoint(p)
				mu.Lock()
				done++
				if msg != "" {
					failures = append(failures, msg)
				}
				if !s.quiet {
					fmt.Fprintf(s.stderr, "akisim sweep: %d/%d points run, %d failed, %s\n", done, len(todo), len(failures),
						time.Since(start).Round(time.Second))
				}
				mu.Unlock()
			}
		}()
	}
	for _, p := range todo {
		if stopping.Load() {
			break
		}
		next <- p
	}
	close(next)
	wg.Wait()
	return failures
}

// runPoint runs one point, its output into its log; a failure's line.
func (s *sweep) runPoint(p sweepPoint) string {
	log, err := os.Create(s.logPath(p))
	if err != nil {
		return fmt.Sprintf("point %d (%s): its log: %v", p.index, s.label(p), errText(err))
	}
	defer log.Close()
	cmd := exec.Command(s.binary, s.pointArgs(p)...)
	cmd.Stdout, cmd.Stderr = log, log
	err = cmd.Run()
	if err == nil {
		return ""
	}
	return fmt.Sprintf("point %d (%s) failed (%v): %s; log %s", p.index, s.label(p), err, lastLine(s.logPath(p)), s.logPath(p))
}
