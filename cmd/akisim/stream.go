package main

import (
	"bufio"
	"fmt"
	"io"

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
	csvTo, jsonTo := []io.Writer{}, []io.Writer{} // each format is written once, to all its places
	keep := false
	switch o.format {
	case "csv":
		csvTo = append(csvTo, stdout)
	case "json":
		jsonTo = append(jsonTo, stdout)
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
		for _, name := range []string{"results.csv", "results.json"} {
			sf, err := out.dir.create(name)
			if err != nil {
				return nil, err
			}
			files = append(files, sf)
			if name == "results.csv" {
				csvTo = append(csvTo, sf.bw)
			} else {
				jsonTo = append(jsonTo, sf.bw)
			}
		}
		out.streamed = true
	}
	var writers []report.RowWriter
	if len(csvTo) > 0 {
		writers = append(writers, report.NewCSVWriter(io.MultiWriter(csvTo...)))
	}
	if len(jsonTo) > 0 {
		writers = append(writers, report.NewJSONWriter(io.MultiWriter(jsonTo...)))
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
	}, workloads.WithStop(stopAsked))
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
