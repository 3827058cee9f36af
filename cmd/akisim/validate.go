package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/akisim/akisim/output"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/validate"
)

// failedError means validation ran and some point is out of tolerance.
type failedError struct {
	n    int
	what string // what failed ("" : validate's points outside tolerance)
}

func (e *failedError) Error() string {
	if e.what == "" {
		return fmt.Sprintf("%d points outside tolerance or their known gap's band", e.n)
	}
	return fmt.Sprintf("%d %s", e.n, e.what)
}

// tally counts one kind's points.
type tally struct{ points, failed, gaps int }

func runValidate(o *options, w io.Writer) error {
	in, err := readConfig(o)
	if err != nil {
		return err
	}
	run.CheckAll(true) // validate checks every run's invariants, -check or not
	cal, err := validate.CalibrationOf(in.src)
	if err != nil {
		return bad("%v", err)
	}
	if err := cal.Known(); err != nil {
		return bad("%v", err)
	}
	var d *output.Outdir
	if o.outdir != "" { // checked before anything runs: a previous run needs -force
		if d, err = output.OpenOutdir(o.outdir, o.force, o.stderr); err != nil {
			return err
		}
		defer d.Close()
	}
	sel := validate.Select{Kind: validate.Kind(o.only), Experiment: o.experiment}
	pts, err := validate.Run(in.node, validate.SeedReference(), cal, sel)
	if err != nil {
		return err
	}
	if d != nil { // the figures too where a point fails: that is when they are looked at
		if err := writeValidateFigures(d, pts); err != nil {
			return err
		}
		if err := d.Commit(); err != nil {
			return err
		}
	}
	return printPoints(w, pts, sel.Kind)
}

// kinds are the point kinds in the order validate totals them.
var kinds = []struct {
	kind validate.Kind
	name string
}{{validate.Calibrated, "calibration"}, {validate.Derived, "derived"}, {validate.Checks, "check"}}

// printPoints writes validate's summary (the independent checks within
// tolerance, a total per kind, each known gap with its band, each failure
// and why), then the table and the check points' sources; only, if set,
// is the one kind run. Any failure is an error.
func printPoints(w io.Writer, pts []validate.Point, only validate.Kind) error {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "experiment\tkind\tpoint\tsimulated\tpublished\terror\ttolerance\tresult\t")
	t := map[validate.Kind]*tally{}
	for _, k := range kinds {
		t[k.kind] = &tally{}
	}
	var gaps, fails, sources []string
	seen := map[string]bool{}
	for _, p := range pts {
		k := t[p.Kind]
		if k == nil {
			return fmt.Errorf("validate: point %q has no kind", p.Name)
		}
		k.points++
		res, why := p.Status()
		switch res {
		case validate.Gap:
			k.gaps++
			gaps = append(gaps, fmt.Sprintf("GAP %s, %s: %s", p.Experiment, p.Name, why))
		case validate.Fail:
			k.failed++
			fails = append(fails, fmt.Sprintf("FAIL %s %s, %s: %s", p.Kind, p.Experiment, p.Name, why))
		}
		if p.Kind == validate.Checks && !seen[p.Source] {
			seen[p.Source] = true
			sources = append(sources, p.Source)
		}
		tol := fmt.Sprintf("%.0f%%", 100*p.Tolerance)
		if p.AtMost {
			tol = "<= +" + tol
		}
		if p.AtLeast {
			tol = ">= -" + tol
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.2f %s\t%.2f %s\t%+.1f%%\t%s\t%s\t\n", p.Experiment, p.Kind, p.Name,
			p.Simulated, p.Unit, p.Published, p.Unit, 100*p.Error(), tol, res)
	}
	tw.Flush()
	if c := t[validate.Checks]; only == validate.All || only == validate.Checks {
		in := c.points - c.failed - c.gaps
		fmt.Fprintf(w, "independent checks within tolerance: %d/%d (%.0f%%)\n", in, c.points, 100*float64(in)/math.Max(1, float64(c.points)))
	}
	for _, k := range kinds {
		if only == validate.All || only == k.kind {
			c := t[k.kind]
			fmt.Fprintf(w, "%s: %d points, %d passed, %d failed, %d known gaps\n", k.name,
				c.points, c.points-c.failed-c.gaps, c.failed, c.gaps)
		}
	}
	for _, l := range append(gaps, fails...) {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w)
	io.WriteString(w, b.String())
	fmt.Fprintln(w)
	for _, s := range sources {
		fmt.Fprintln(w, "check source:", s)
	}
	if len(fails) > 0 {
		return &failedError{n: len(fails)}
	}
	return nil
}
