package validate

import (
	"math"

	"github.com/akisim/akisim/figure"
)

// family is validate's points of one experiment and unit: one figure.
type family struct {
	experiment, unit string
	points           []Point
}

// families groups points by experiment and unit, in validate's order.
func families(pts []Point) []family {
	var out []family
	at := map[[2]string]int{}
	for _, p := range pts {
		k := [2]string{p.Experiment, p.Unit}
		i, ok := at[k]
		if !ok {
			i, at[k] = len(out), len(out)
			out = append(out, family{experiment: p.Experiment, unit: p.Unit})
		}
		out[i].points = append(out[i].points, p)
	}
	return out
}

// check is a point as a figure draws it: its tolerance (one-sided to the
// axis' end) and its known gap's band as values, not relative errors.
func check(p Point) figure.Check {
	scaled := func(r float64) float64 { return p.Published * (1 + r) }
	lo, hi := scaled(-p.Tolerance), scaled(p.Tolerance)
	switch {
	case p.AtMost:
		lo = math.Inf(-1)
	case p.AtLeast:
		hi = math.Inf(1)
	}
	c := figure.Check{Name: p.Name, Published: p.Published, Model: p.Simulated, Lo: min(lo, hi), Hi: max(lo, hi),
		GapLo: math.NaN(), GapHi: math.NaN()}
	if p.Band != nil {
		c.GapLo, c.GapHi = min(scaled(p.Band.Low), scaled(p.Band.High)), max(scaled(p.Band.Low), scaled(p.Band.High))
	}
	res, _ := p.Status()
	c.Within, c.KnownGap = res == OK, res == Gap
	return c
}

// NamedFigure is one figure of validate's points and the file name it is
// written under (without its extension, figure.Formats).
type NamedFigure struct {
	Name   string
	Figure *figure.Figure
}

// Figures draws a figure per family of points (an experiment and a unit):
// the measured and the model's values with their tolerance band.
func Figures(pts []Point) ([]NamedFigure, error) {
	fams := families(pts)
	titles := make([]string, len(fams))
	for i, f := range fams {
		titles[i] = f.experiment
		if len(fams) > 1 && sharesExperiment(fams, i) {
			titles[i] += " " + f.unit
		}
	}
	var out []NamedFigure
	for i, name := range figure.FileNames(titles) {
		var cs []figure.Check
		for _, p := range fams[i].points {
			cs = append(cs, check(p))
		}
		fig, err := figure.Checks(titles[i], fams[i].unit, cs)
		if err != nil {
			return nil, err
		}
		out = append(out, NamedFigure{name, fig})
	}
	return out, nil
}

// sharesExperiment says whether family i's experiment has points in
// another unit too (its figures are then named by unit as well).
func sharesExperiment(fams []family, i int) bool {
	for j, f := range fams {
		if j != i && f.experiment == fams[i].experiment {
			return true
		}
	}
	return false
}
