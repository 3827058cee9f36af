package figure

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// drawSweep draws value against a swept key, a line per case, pair and
// the other keys' values.
func drawSweep(t *Table, rows []Row, s Spec) (*Figure, error) {
	if len(t.Keys) == 0 {
		return nil, fmt.Errorf("%s: not a sweep's results (no swept keys before the columns)", t.File)
	}
	x := 0
	if s.X != "" {
		x = -1
		for k, key := range t.Keys {
			if key == s.X {
				x = k
			}
		}
		if x < 0 {
			return nil, fmt.Errorf("-x %s: not a swept key of %s (its keys: %s)", s.X, t.File, strings.Join(t.Keys, ", "))
		}
	}
	metric, rows := firstMetric(rows, s.Metric)
	values := distinct(rows, func(r Row) string { return r.Point[x] }) // the x axis, in sweep order
	// numbers place their values along the axis; names, "inf", one value
	// or values past ±2^63 (whose span an axis cannot hold) are categories
	numeric := len(values) > 1
	at := map[float64]bool{}
	for _, v := range values {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.Abs(f) > MaxValue || at[f] { // 1 and 1.0: one place
			numeric = false
		}
		at[f] = true
	}
	pos := func(v string) float64 {
		if numeric {
			f, _ := strconv.ParseFloat(v, 64)
			return f
		}
		for i, w := range values {
			if w == v {
				return float64(i)
			}
		}
		return 0
	}
	name := labeller(rows, t.Keys, x)
	seen := map[string]int64{}
	for _, r := range rows {
		l := strings.Join(name(r), " ")
		if prev, dup := seen[l+"\x00"+r.Point[x]]; dup {
			return nil, fmt.Errorf("%s: %s at %s=%s has two values (at %d and %d bytes): narrow with -case, -metric or -where", t.File, l, t.Keys[x], r.Point[x], prev, r.Bytes)
		}
		seen[l+"\x00"+r.Point[x]] = r.Bytes
	}
	lines := series(rows, name, func(r Row) plotter.XY { return plotter.XY{X: pos(r.Point[x]), Y: r.Value} })
	if len(lines) > maxLines {
		return nil, fmt.Errorf("%s: %d lines (cases x pairs x other keys) in one figure, at most %d: narrow with -case, -src, -dst or -where", t.File, len(lines), maxLines)
	}
	p := newPlot(title(rows, metric))
	p.X.Label.Text = keyWords(t.Keys[x])
	p.Y.Label.Text = axisLabel(metric, rows)
	var ticks []plot.Tick
	for _, v := range values {
		ticks = append(ticks, plot.Tick{Value: pos(v), Label: v})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	f, err := addLines(p, lines)
	if err != nil {
		return nil, err
	}
	return f, addReferences(f, s.Published, rows, metric, false)
}
