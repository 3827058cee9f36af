package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestProgressLines(t *testing.T) {
	old := statusEvery
	defer func() { statusEvery = old }()
	var b bytes.Buffer
	statusEvery = time.Hour
	p := newProgress(&b, false)
	p.runDone(1, 4, 1e-3)
	if b.Len() != 0 {
		t.Errorf("a short run printed %q", b.String())
	}
	statusEvery = 0
	p.runDone(2, 4, 2.5e-3)
	p.runDone(4, 4, 4e-3)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "akisim: 2/4 runs, 2.5 ms simulated, ") || !strings.Contains(lines[1], "4/4 runs") ||
		!strings.HasSuffix(lines[1], "about 0s left") {
		t.Errorf("status lines %q", lines)
	}
	b.Reset()
	p.terminal, p.last = true, time.Time{} // a bar redraws at most ten times a second
	p.runDone(3, 4, 3)
	p.end()
	if s := b.String(); !strings.HasPrefix(s, "\r[######################........] 3/4 runs, 3 s simulated") || !strings.HasSuffix(s, "\x1b[K\n") {
		t.Errorf("bar %q", s)
	}
	b.Reset()
	p.terminal = false
	p.unlikeRuns()
	p.runDone(2, 4, 1)
	if s := b.String(); !strings.HasSuffix(s, " wall\n") || strings.Contains(s, "left") {
		t.Errorf("runs of unlike sizes: %q, want no estimate of the time left", s)
	}
	if q := newProgress(&b, true); q != nil {
		t.Error("-quiet reports progress")
	}
	var nilP *progress
	nilP.runDone(1, 1, 1) // quiet: nothing, no panic
	nilP.end()
}

// A long trace replayed as a stream is one run, so it reports how many of
// its ops were issued while it goes (a 1 M-op trace ran 49 s silent).
func TestStreamedTraceReportsProgress(t *testing.T) {
	old := statusEvery
	defer func() { statusEvery = old }()
	statusEvery = time.Nanosecond
	var tr strings.Builder
	tr.WriteString(`{"op":"malloc","buf":"a","gcd":0,"bytes":4096}` + "\n" + `{"op":"malloc","buf":"b","gcd":1,"bytes":4096}` + "\n")
	for range 20000 {
		tr.WriteString(`{"op":"memcpy","src":"a","dst":"b","bytes":4096}` + "\n")
	}
	code, _, errs := akisim(t, "-trace", traceFile(t, tr.String()), "-format", "csv")
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if code != 0 || len(lines) < 2 || !strings.HasSuffix(strings.Fields(lines[0])[1], "/20002") || !strings.Contains(lines[0], "trace ops issued") {
		t.Errorf("exit %d, stderr %.300q: want lines of trace ops issued of 20002", code, errs)
	}
}
