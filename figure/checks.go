package figure

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Check is one validated point: the published measurement, the model's
// value and the band the model must land in.
type Check struct {
	Name             string
	Published, Model float64
	Lo, Hi           float64 // the tolerance band; ±Inf for a one-sided point
	GapLo, GapHi     float64 // a known gap's band, where the model is expected instead; NaN: none
	Within, KnownGap bool    // the model is inside its tolerance, or inside its known gap's band
}

// Colours of a check figure: the tolerance band, a known gap's band, and
// the model's point by outcome.
var (
	bandColour   = color.RGBA{R: 0xc7, G: 0xe9, B: 0xc0, A: 0xff} // light green
	gapColour    = color.RGBA{R: 0xfd, G: 0xd0, B: 0xa2, A: 0xff} // light orange
	okColour     = color.RGBA{R: 0x00, G: 0x6d, B: 0x2c, A: 0xff}
	gapDotColour = color.RGBA{R: 0xd9, G: 0x48, B: 0x01, A: 0xff}
	failColour   = color.RGBA{R: 0xcb, G: 0x18, B: 0x1d, A: 0xff}
)

// rowHeight is a check's height: the figure grows with its points.
const rowHeight = 5 * vg.Millimeter

// Checks draws a family of validated points, a row each, as the model's
// value over the published one: the published value at 1, the tolerance
// band around it and a known gap's band, so a point outside its band
// shows at a glance whatever its size. Each row writes both values.
func Checks(family, unit string, checks []Check) (*Figure, error) {
	if len(checks) == 0 {
		return nil, fmt.Errorf("%s: no points", family)
	}
	lo, hi := 1.0, 1.0
	for _, c := range checks {
		if c.Published == 0 || math.IsNaN(c.Published) || math.IsInf(c.Published, 0) {
			return nil, fmt.Errorf("%s, %s: published value %g: no ratio to draw", family, c.Name, c.Published)
		}
		for _, v := range []float64{c.Model, c.Lo, c.Hi, c.GapLo, c.GapHi} {
			if r := v / c.Published; !math.IsInf(r, 0) && !math.IsNaN(r) {
				lo, hi = math.Min(lo, r), math.Max(hi, r)
			}
		}
	}
	pad := 0.08 * (hi - lo)
	lo, hi = lo-pad, hi+pad
	textAt := hi + 0.05*(hi-lo) // the values, written right of every band and point
	p := newPlot(family)
	n := len(checks)
	y := func(i int) float64 { return float64(n - 1 - i) } // the first point on top
	band := func(from, to float64, i int, fill color.Color) error {
		from, to = math.Max(from, lo), math.Min(to, hi) // a one-sided band runs to the axis' end
		if !(from < to) {
			return nil
		}
		r, err := plotter.NewPolygon(plotter.XYs{{X: from, Y: y(i) - 0.35}, {X: to, Y: y(i) - 0.35}, {X: to, Y: y(i) + 0.35}, {X: from, Y: y(i) + 0.35}})
		if err != nil {
			return err
		}
		r.Color, r.LineStyle.Width = fill, 0
		p.Add(r)
		return nil
	}
	var ok, gapped, failed plotter.XYs
	var values plotter.XYLabels
	var ticks []plot.Tick
	for i, c := range checks {
		lo, hi := c.Lo/c.Published, c.Hi/c.Published
		if err := band(math.Min(lo, hi), math.Max(lo, hi), i, bandColour); err != nil {
			return nil, err
		}
		if !math.IsNaN(c.GapLo) {
			g1, g2 := c.GapLo/c.Published, c.GapHi/c.Published
			if err := band(math.Min(g1, g2), math.Max(g1, g2), i, gapColour); err != nil {
				return nil, err
			}
		}
		at := plotter.XY{X: c.Model / c.Published, Y: y(i)}
		switch {
		case c.Within:
			ok = append(ok, at)
		case c.KnownGap:
			gapped = append(gapped, at)
		default:
			failed = append(failed, at)
		}
		ticks = append(ticks, plot.Tick{Value: y(i), Label: c.Name})
		values.XYs = append(values.XYs, plotter.XY{X: textAt, Y: y(i)})
		values.Labels = append(values.Labels, fmt.Sprintf("%s → %s %s", cellText(c.Published), cellText(c.Model), unit))
	}
	p.Add(plotter.NewGrid())
	one, err := plotter.NewLine(plotter.XYs{{X: 1, Y: -0.5}, {X: 1, Y: float64(n) - 0.5}})
	if err != nil {
		return nil, err
	}
	one.Color, one.Width = color.Black, vg.Points(1)
	p.Add(one)
	p.Legend.Add("published (1)", one)
	for _, l := range []struct {
		name  string
		xy    plotter.XYs
		shape draw.GlyphDrawer
		col   color.Color
	}{
		{"model, within tolerance", ok, draw.CircleGlyph{}, okColour},
		{"model, in its known gap's band", gapped, draw.BoxGlyph{}, gapDotColour},
		{"model, outside its band", failed, draw.CrossGlyph{}, failColour},
	} {
		if len(l.xy) == 0 {
			continue
		}
		s, err := plotter.NewScatter(l.xy)
		if err != nil {
			return nil, err
		}
		s.Shape, s.Color, s.Radius = l.shape, l.col, vg.Points(3.5)
		p.Add(s)
		p.Legend.Add(l.name, s)
	}
	for _, b := range []struct {
		name string
		col  color.Color
		show bool
	}{{"tolerance", bandColour, true}, {"known gap's band", gapColour, anyGap(checks)}} {
		if !b.show {
			continue
		}
		sw, err := plotter.NewPolygon(plotter.XYs{{}, {X: 1}, {X: 1, Y: 1}})
		if err != nil {
			return nil, err
		}
		sw.Color, sw.LineStyle.Width = b.col, 0
		p.Legend.Add(b.name, sw)
	}
	text, err := plotter.NewLabels(values)
	if err != nil {
		return nil, err
	}
	for i := range text.TextStyle {
		text.TextStyle[i].Font.Size, text.TextStyle[i].YAlign = vg.Points(8), -0.5
	}
	p.Add(text)
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	p.X.Min, p.X.Max = lo, textAt+0.45*(hi-lo) // room for "published → model unit"
	p.X.Tick.Marker = ratioTicks{lo: lo, hi: hi}
	p.X.Label.Text = "model / published   (right: published → model)"
	f := &Figure{Plot: p, Legend: sideLegend(p)}
	f.height = max(plotHeight, vg.Length(n)*rowHeight+4*vg.Centimeter)
	var names vg.Length // the rows' names take the left; the bands keep 11 cm
	for _, t := range ticks {
		names = max(names, p.Y.Tick.Label.Width(t.Label))
	}
	f.width = max(plotWidth, names+11*vg.Centimeter)
	return f, nil
}

// ratioTicks marks the ratio axis over the bands only, not over the
// values written right of them.
type ratioTicks struct{ lo, hi float64 }

func (r ratioTicks) Ticks(min, max float64) []plot.Tick {
	return plot.DefaultTicks{}.Ticks(r.lo, r.hi)
}

// anyGap says whether a check has a known gap's band.
func anyGap(checks []Check) bool {
	for _, c := range checks {
		if !math.IsNaN(c.GapLo) {
			return true
		}
	}
	return false
}
