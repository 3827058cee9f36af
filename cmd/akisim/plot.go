package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/akisim/akisim/figure"
	"github.com/akisim/akisim/internal/errtext"
	"github.com/akisim/akisim/output"
	"github.com/akisim/akisim/report"
)

// runPlot is akisim plot PATH -o FILE.svg|png, or -outdir DIR for the
// default figures of the results at PATH (a run's or a sweep's outdir, or
// a results CSV).
func runPlot(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("akisim plot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var s figure.Spec
	var out, outdir string
	where := setFlags{}
	fs.StringVar(&out, "o", "", "the figure's file: .svg or .png")
	fs.StringVar(&outdir, "outdir", "", "write the default figures of the results (SVG) into DIR")
	fs.StringVar(&s.Kind, "kind", "", "matrix (src x dst heat map), size (value against size, log2), or sweep (value against a swept key); default: what the rows suit")
	fs.StringVar(&s.Workload, "workload", "", "only rows of this workload")
	fs.StringVar(&s.Case, "case", "", "only rows of this case (or any of a list; a matrix: default the first)")
	fs.StringVar(&s.Src, "src", "", "only rows from this endpoint (gcd0, numa1, ...; a comma-separated list: any of them)")
	fs.StringVar(&s.Dst, "dst", "", "only rows to this endpoint (or any of a list)")
	fs.StringVar(&s.Metric, "metric", "", "the metric drawn (default bandwidth where there is one)")
	fs.Int64Var(&s.Bytes, "bytes", 0, "only rows of this size in bytes (0: a trace's events and syncs; default every size)")
	fs.StringVar(&s.X, "x", "", "sweep: the swept key on the x axis (default the first)")
	fs.Var(&where, "where", "a sweep's rows where KEY=VALUE (repeatable)")
	var path string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		path, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return bad("plot: %v", err)
	}
	if err := refuseEmpty(fs, "plot "); err != nil {
		return err
	}
	fs.Visit(func(f *flag.Flag) { s.Sized = s.Sized || f.Name == "bytes" })
	if s.Sized && s.Bytes < 0 {
		return bad("plot -bytes %d: want a size in bytes, 0 or more (leave it out for every size)", s.Bytes)
	}
	if fs.NArg() > 0 || path == "" {
		return bad("plot: want akisim plot PATH (-o FILE.svg|png | -outdir DIR) [filters]: PATH is a run's or sweep's outdir or a results CSV")
	}
	if (out == "") == (outdir == "") {
		return bad("plot: give one of -o FILE and -outdir DIR")
	}
	for _, w := range where {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			return bad("plot -where %q: want KEY=VALUE", w)
		}
		if s.Where == nil {
			s.Where = map[string]string{}
		}
		s.Where[k] = v
	}
	t, err := figure.Open(path)
	if err != nil {
		return bad("plot: %v", errtext.Of(err))
	}
	s.Published = published(path)
	ins := []output.Path{{Flag: "plot PATH", Path: t.File}}
	if out != "" {
		if err := figure.CheckPath(out); err != nil {
			return bad("plot -o %v", err)
		}
		if err := output.Check(ins, []output.Path{{Flag: "plot -o", Path: out}}); err != nil {
			return err
		}
		dst, err := output.Open("plot -o", out)
		if err != nil {
			return err
		}
		defer dst.Close()
		p, err := figure.Draw(t, s)
		if err != nil {
			return bad("plot: %v", err)
		}
		if err := dst.Write(func(w io.Writer) error { return figure.Write(p, w, out) }); err != nil {
			return err
		}
		return dst.Commit()
	}
	figs := figure.Defaults(t)
	if len(figs) == 0 {
		return bad("plot: %s: no default figure fits these rows; draw one with -o and filters", path)
	}
	var outs []output.Path
	for _, f := range figs {
		outs = append(outs, output.Path{Flag: "plot -outdir", Path: filepath.Join(outdir, f.Name+".svg")})
	}
	if err := output.Check(ins, outs); err != nil {
		return err
	}
	if err := os.MkdirAll(outdir, 0o755); err != nil {
		return bad("plot -outdir %s: %v", outdir, errtext.Of(err))
	}
	dsts := make([]*output.File, len(figs))
	for i, o := range outs {
		if dsts[i], err = output.Open(o.Flag, o.Path); err != nil {
			return err
		}
		defer dsts[i].Close()
	}
	for i, f := range figs {
		f.Spec.Published = s.Published
		p, err := figure.Draw(t, f.Spec)
		if err != nil {
			return err
		}
		if err := dsts[i].Write(func(w io.Writer) error { return figure.Write(p, w, outs[i].Path) }); err != nil {
			return err
		}
	}
	for i, o := range outs {
		if err := dsts[i].Commit(); err != nil {
			return err
		}
		fmt.Fprintln(stdout, report.Printable(o.Path))
	}
	return nil
}
