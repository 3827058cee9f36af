package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/akisim/akisim/validate"
	"github.com/akisim/akisim/workloads"
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

func runValidate(o *options, w io.Writer) error {
	c, err := loadConfig(o)
	if err != nil {
		return err
	}
	workloads.CheckAll(true) // validate checks every run's invariants, -check or not
	pts, err := validate.Run(c, validate.SeedReference())
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "experiment\tpoint\tsimulated\tpublished\terror\ttolerance\tresult\t")
	failed, gaps := 0, 0
	var notes []string
	for _, p := range pts {
		res := "ok"
		switch {
		case !p.Pass() && p.Gap != "":
			res = "GAP"
			gaps++
			notes = append(notes, fmt.Sprintf("GAP %s %s: %s", p.Experiment, p.Name, p.Gap))
		case !p.Pass():
			res = "FAIL"
			failed++
		}
		tol := fmt.Sprintf("%.0f%%", 100*p.Tolerance)
		if p.AtMost {
			tol = "<= +" + tol
		}
		if p.AtLeast {
			tol = ">= -" + tol
		}
		fmt.Fprintf(tw, "%s\t%s\t%.2f %s\t%.2f %s\t%+.1f%%\t%s\t%s\t\n", p.Experiment, p.Name,
			p.Simulated, p.Unit, p.Published, p.Unit, 100*p.Error(), tol, res)
	}
	tw.Flush()
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	fmt.Fprintf(w, "\n%d points, %d passed, %d failed, %d known gaps\n", len(pts), len(pts)-failed-gaps, failed, gaps)
	if failed > 0 {
		return &failedError{n: failed}
	}
	return nil
}
