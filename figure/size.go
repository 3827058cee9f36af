package figure

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// drawSize draws value against bytes on a log2 axis, a line per case,
// pair (and sweep point), as the seeds' bandwidth figures.
func drawSize(t *Table, rows []Row, s Spec) (*Figure, error) {
	metric, rows := firstMetric(rows, s.Metric)
	lines := series(rows, labeller(rows, t.Keys, -1), func(r Row) plotter.XY { return plotter.XY{X: float64(r.Bytes), Y: r.Value} })
	if len(lines) > maxLines {
		return nil, fmt.Errorf("%s: %d lines (cases x pairs) in one figure, at most %d: narrow with -case, -src, -dst or -where", t.File, len(lines), maxLines)
	}
	for _, l := range lines {
		for _, xy := range l.xy {
			if xy.X <= 0 {
				return nil, fmt.Errorf("%s: %s has a row of %v bytes: a size axis is log2, sizes must be positive", t.File, l.label(), xy.X)
			}
		}
	}
	p := newPlot(title(rows, metric))
	if lo, hi := sizeRange(lines); lo == hi { // one size: an octave either side, where gonum's ±1 would reach 0 on a log axis
		p.X.Min, p.X.Max = lo/2, hi*2
	}
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = log2Ticks{}
	p.X.Label.Text = "size"
	p.Y.Label.Text = axisLabel(metric, rows)
	f, err := addLines(p, lines)
	if err != nil {
		return nil, err
	}
	return f, addReferences(f, s.Published, rows, metric, true)
}

// sizeRange is the smallest and largest size of the lines.
func sizeRange(lines []line) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, l := range lines {
		for _, xy := range l.xy {
			lo, hi = math.Min(lo, xy.X), math.Max(hi, xy.X)
		}
	}
	return lo, hi
}
