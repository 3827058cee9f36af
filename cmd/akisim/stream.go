package main

import (
	"fmt"
	"io"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/internal/errtext"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/output"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/trace"
	"github.com/akisim/akisim/workloads"
)

// A long trace streams (trace.OpenStream): its rows are written to stdout
// and the outdir as the run makes them, so neither the trace nor its rows
// are held whole; the text table spools its lines and keeps only its
// columns' widths. Outputs that need every row first (the timeline,
// -rocprof, -daisen) keep the rows, or read the trace whole.

// openStream opens the trace as a stream when it can stream and nothing
// asked for needs its ops whole; nil otherwise.
func openStream(o *options, in *input) (*trace.Stream, error) {
	if noStreaming || o.timeline != "" || o.rocprof != "" || o.daisen != "" {
		return nil, nil
	}
	s, err := trace.OpenStreamAs(in.read, o.tracePath, job.Limits(in.node))
	if err != nil {
		return nil, bad("%v", err)
	}
	return s, nil
}

// noStreaming reads every trace whole (tests compare both ways).
var noStreaming bool

// rowOutputs write rows as a run makes them: to stdout (csv, json) and
// to the outdir's results files, each format encoded once for all its
// places; rows are kept too where an output needs them all (stdout's
// other formats, the outdir's commscope.json).
type rowOutputs struct {
	writers []report.RowWriter
	files   []*output.Buffered
	keep    bool
	rows    []report.Row
	n       int // rows written
	// the text table of a workload printed as plain rows: its lines are
	// spooled as they come (in memory, then a temporary file), only the
	// columns' widths kept (report.Table)
	table      *report.Table
	tableSpool *stdoutBuffer
}

// openRowOutputs opens the row outputs of a run: stdout's, and the
// outdir's results files (which out.write then leaves alone).
func openRowOutputs(o *options, out *outputs, stdout *stdoutBuffer) (*rowOutputs, error) {
	ro := &rowOutputs{}
	var csvTo, jsonTo []io.Writer
	switch o.format {
	case "csv":
		csvTo = append(csvTo, stdout)
	case "json":
		jsonTo = append(jsonTo, stdout)
	case "text":
		if plainTable(o) {
			ro.tableSpool = &stdoutBuffer{}
			var err error
			if ro.table, err = report.NewTable(ro.tableSpool); err != nil {
				return nil, err
			}
			break
		}
		ro.keep = true
	default:
		ro.keep = true
	}
	if out.dir != nil {
		for _, name := range []string{"results.csv", "results.json"} {
			sf, err := out.dir.Create(name)
			if err != nil {
				ro.close()
				return nil, err
			}
			ro.files = append(ro.files, sf)
			if name == "results.csv" {
				csvTo = append(csvTo, sf.W)
			} else {
				jsonTo = append(jsonTo, sf.W)
			}
		}
		out.streamed = true
		ro.keep = ro.keep || o.workload == "commscope" // commscope.json
	}
	if len(csvTo) > 0 {
		ro.writers = append(ro.writers, report.NewCSVWriter(io.MultiWriter(csvTo...)))
	}
	if len(jsonTo) > 0 {
		ro.writers = append(ro.writers, report.NewJSONWriter(io.MultiWriter(jsonTo...)))
	}
	return ro, nil
}

// add writes a row.
func (ro *rowOutputs) add(r report.Row) error {
	for _, w := range ro.writers {
		if err := w.Write(r); err != nil {
			return err
		}
	}
	if ro.table != nil {
		if err := ro.table.Write(r); err != nil {
			return err
		}
	}
	if ro.keep {
		ro.rows = append(ro.rows, r)
	}
	ro.n++
	return nil
}

// finish ends the outputs and puts the kept rows in res.
func (ro *rowOutputs) finish(o *options, res *run.Result) error {
	if ro.n == 0 { // rows the run kept instead of handing on (a replaced simulate)
		for _, r := range res.Rows {
			if err := ro.add(r); err != nil {
				return err
			}
		}
	}
	for _, w := range ro.writers {
		if err := w.Close(); err != nil {
			return err
		}
	}
	for _, f := range ro.files {
		if err := f.Close(true); err != nil {
			return fmt.Errorf("-outdir %s: %v", o.outdir, errtext.Of(err))
		}
	}
	ro.files = nil
	res.Rows = ro.rows
	return nil
}

// close closes files left open (a failed run; the outdir goes) and drops
// a spooled table.
func (ro *rowOutputs) close() {
	for _, f := range ro.files {
		f.Abort()
	}
	if ro.tableSpool != nil {
		ro.tableSpool.discard()
	}
}

// writeTable writes the spooled table to w under its heading.
func (ro *rowOutputs) writeTable(o *options, c *config.Node, res *run.Result, w io.Writer) error {
	if _, err := io.WriteString(w, report.PrintableText(tableHeading(o, c, res))); err != nil {
		return err
	}
	ro.tableSpool.w = ro.table.Aligner(w)
	return ro.tableSpool.flush()
}

// simulateStream replays the streamed trace of in, its rows to ro as they
// come; the stop checks report its progress.
func simulateStream(o *options, in *input, ro *rowOutputs, pr *progress) (*run.Result, error) {
	stop := func() bool {
		pr.within(in.stream.Progress())
		return stopAsked()
	}
	return run.ExecuteStream(in.node, o.tracePath, in.stream, workloads.StreamRows(), ro.add, o.runOptions(run.WithStop(stop))...)
}
