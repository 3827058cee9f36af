package main

import (
	"cmp"
	"fmt"
	"io"
	"iter"
	"slices"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/internal/errtext"
	"github.com/akisim/akisim/report"
)

// A benchmark whose own tool prints each size as it finishes (rccl-tests,
// OSU) prints its text the same way: a run's lines as the run ends, the
// head with the first. It writes to stdout itself, not through the held
// output, so a run whose first size fails prints nothing and one that
// fails later keeps the lines of the sizes that finished, as the tools do.

// liveText is a benchmark's text printed a run at a time.
type liveText interface {
	Size(rows []report.Row) error // the rows of one run, one size
	Close() error                 // the end, after the last run
}

// openLive is the run's live text; nil when its text is not printed so
// (another format or workload, or OSU sizes not in increasing order,
// which OSU's output sorts).
func openLive(o *options, c *config.Node, stdout *stdoutBuffer) (liveText, error) {
	if o.format != "text" {
		return nil, nil
	}
	out := printableWriter{stdout.w}
	switch {
	case o.workload == "rccl":
		t, err := rcclTestsOf(o, c)
		if err != nil {
			return nil, err
		}
		return report.NewRCCLTestsWriter(out, t), nil
	case o.workload == "osu" && slices.IsSorted(o.osu.sizes):
		return osuLive{report.NewOSUWriter(out, cmp.Or(o.osu.window, 64), osuBanner(o, c))}, nil
	}
	return nil, nil
}

// osuLive prints OSU's lines as its sizes finish.
type osuLive struct{ w *report.OSUWriter }

func (l osuLive) Size(rows []report.Row) error {
	for _, r := range rows {
		if err := l.w.Row(r); err != nil {
			return err
		}
	}
	return nil
}

func (l osuLive) Close() error { return nil }

// printableWriter writes text with no terminal controls (a text output
// prints the names and labels the user gave), a write at a time.
type printableWriter struct{ w io.Writer }

func (p printableWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, report.PrintableText(string(b))); err != nil {
		return 0, fmt.Errorf("stdout: %v", errtext.Of(err))
	}
	return len(b), nil
}

// sameBytes yields rows in runs of one size, in order: what one rccl run
// makes.
func sameBytes(rows []report.Row) iter.Seq[[]report.Row] {
	return func(yield func([]report.Row) bool) {
		for i := 0; i < len(rows); {
			j := i + 1
			for j < len(rows) && rows[j].Bytes == rows[i].Bytes {
				j++
			}
			if !yield(rows[i:j]) {
				return
			}
			i = j
		}
	}
}
