package main

import (
	"fmt"
	"io"
	"text/tabwriter"

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
		return fmt.Sprintf("%d points outside tolerance", e.n)
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
	pts, err := validate.Run(in.node, validate.SeedReference(), cal, validate.Kind(o.only))
	if err != nil {
		return err
	}
	return printPoints(w, pts, validate.Kind(o.only))
}

// printPoints writes validate's table, its gaps, the check points' sources
// and a total per kind (only the kind run, if only is set).
func printPoints(w io.Writer, pts []validate.Point, only validate.Kind) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "experiment\tkind\tpoint\tsimulated\tpublished\terror\ttolerance\tresult\t")
	var cals, checks tally
	var notes, sources []string
	seen := map[string]bool{}
	for _, p := range pts {
		t, kind := &cals, "calibrated"
		if p.Check {
			t, kind = &checks, "check"
		}
		t.points++
		res := "ok"
		switch {
		case !p.Pass() && p.Gap != "":
			res = "GAP"
			t.gaps++
			notes = append(notes, fmt.Sprintf("GAP %s %s: %s", p.Experiment, p.Name, p.Gap))
		case !p.Pass():
			res = "FAIL"
			t.failed++
		}
		if p.Check && !seen[p.Source] {
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.2f %s\t%.2f %s\t%+.1f%%\t%s\t%s\t\n", p.Experiment, kind, p.Name,
			p.Simulated, p.Unit, p.Published, p.Unit, 100*p.Error(), tol, res)
	}
	tw.Flush()
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	fmt.Fprintln(w)
	for _, s := range sources {
		fmt.Fprintln(w, "check source:", s)
	}
	fmt.Fprintln(w)
	for _, k := range []struct {
		name string
		t    tally
	}{{"calibration", cals}, {"check", checks}} {
		if only == validate.All || (only == validate.Checks) == (k.name == "check") {
			fmt.Fprintf(w, "%s: %d points, %d passed, %d failed, %d known gaps\n", k.name,
				k.t.points, k.t.points-k.t.failed-k.t.gaps, k.t.failed, k.t.gaps)
		}
	}
	if failed := cals.failed + checks.failed; failed > 0 {
		return &failedError{n: failed}
	}
	return nil
}
