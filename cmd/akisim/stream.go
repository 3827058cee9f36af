package main

import (
	"bufio"
	"fmt"

	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
	"github.com/akisim/akisim/workloads"
)

// A long trace streams (trace.OpenStream): its rows are written to stdout
// and the outdir as the run makes them, so neither the trace nor its rows
// are held whole. Outputs that need every row first (the table, the
// timeline, -rocprof) keep the rows, or read the trace whole.

// openStream opens the trace as a stream when it can stream and nothing
// asked for needs its ops whole; nil otherwise.
func openStream(o *options, in *input) (*trace.Stream, error) {
	if noStreaming || o.timeline != "" || o.rocprof != "" {
		return nil, nil
	}
	s, err := trace.OpenStream(o.tracePath, workloads.Limits(in.node))
	if err != nil {
		return nil, bad("%v", err)
	}
	return s, nil
}

// noStreaming reads every trace whole (tests compare both ways).
var noStreaming bool

// streamedFile is an outdir file written a row at a time.
type streamedFile struct {
	f  file
	bw *bufio.Writer
}

// create opens name in the run's folder, to be written as the run goes.
func (d *outdir) create(name string) (*streamedFile, error) {
	f, err := createFile(d.tmp + "/" + name)
	if err != nil {
		return nil, fmt.Errorf("-outdir %s: %s: %v", d.arg, name, errText(err))
	}
	return &streamedFile{f: f, bw: bufio.NewWriterSize(f, 1<<16)}, nil
}

// close flushes the file and syncs it to disk.
func (s *streamedFile) close() error {
	err := s.bw.Flush()
	if err == nil {
		err = s.f.Sync()
	}
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// simulateStream replays the streamed trace of in, writing its rows to
// stdout (csv, json) and to the outdir's results files as they come; the
// result keeps the rows only for stdout's other formats.
func simulateStream(o *options, in *input, out *outputs, stdout *stdoutBuffer) (*workloads.Result, error) {
	var writers []report.RowWriter
	keep := false
	switch o.format {
	case "csv":
		writers = append(writers, report.NewCSVWriter(stdout))
	case "json":
		writers = append(writers, report.NewJSONWriter(stdout))
	default:
		keep = true
	}
	var files []*streamedFile
	defer func() {
		for _, f := range files {
			f.f.Close() // closed again after close(): harmless
		}
	}()
	if out.dir != nil {
		for _, f := range []struct {
			name string
			mk   func(w *bufio.Writer) report.RowWriter
		}{
			{"results.csv", func(w *bufio.Writer) report.RowWriter { return report.NewCSVWriter(w) }},
			{"results.json", func(w *bufio.Writer) report.RowWriter { return report.NewJSONWriter(w) }},
		} {
			sf, err := out.dir.create(f.name)
			if err != nil {
				return nil, err
			}
			files = append(files, sf)
			writers = append(writers, f.mk(sf.bw))
		}
		out.streamed = true
	}
	var rows []report.Row
	res, err := workloads.ExecuteStream(in.node, o.tracePath, in.stream, func(r report.Row) error {
		for _, w := range writers {
			if err := w.Write(r); err != nil {
				return err
			}
		}
		if keep {
			rows = append(rows, r)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, w := range writers {
		if err := w.Close(); err != nil {
			return nil, err
		}
	}
	for _, f := range files {
		if err := f.close(); err != nil {
			return nil, fmt.Errorf("-outdir %s: %v", o.outdir, errText(err))
		}
	}
	res.Rows = rows
	return res, nil
}
