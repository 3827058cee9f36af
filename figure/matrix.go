package figure

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// drawMatrix draws one value per (src, dst) as a heat map, source rows
// top to bottom and destinations left to right, each cell's value written
// in it, as p2pBandwidthLatencyTest prints its matrices. Sources are of one
// kind (gcd, numa) and destinations of one kind, not always the same.
func drawMatrix(t *Table, rows []Row, s Spec) (*Figure, error) {
	if s.Case == "" { // one case: the first that forms a matrix (a trace's first rows may be events)
		c := rows[0].Case
		for _, cs := range distinct(rows, func(r Row) string { return r.Case }) {
			_, of := firstMetric(keep(rows, func(r Row) bool { return r.Case == cs }), s.Metric)
			if len(of) > 0 && unpaired(of) == nil {
				c = cs
				break
			}
		}
		rows = keep(rows, func(r Row) bool { return r.Case == c })
	}
	if len(t.Keys) > 0 && len(s.Where) < len(t.Keys) { // one sweep point: the first left
		pt := strings.Join(rows[0].Point, "\x00")
		rows = keep(rows, func(r Row) bool { return strings.Join(r.Point, "\x00") == pt })
	}
	metric, rows := firstMetric(rows, s.Metric)
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no rows of metric %s in this case", t.File, metric)
	}
	if r := unpaired(rows); r != nil {
		return nil, fmt.Errorf("%s: a matrix needs rows from numbered endpoints of one kind to numbered endpoints of one kind (gcd0 -> gcd1, numa3 -> gcd0); %q -> %q is not: pick rows with -case and -metric", t.File, r.Src, r.Dst)
	}
	_, srcKind, _ := endpoint(rows[0].Src)
	_, dstKind, _ := endpoint(rows[0].Dst)
	ns, nd := 0, 0
	for _, r := range rows {
		a, _, _ := endpoint(r.Src)
		b, _, _ := endpoint(r.Dst)
		ns, nd = max(ns, a+1), max(nd, b+1)
	}
	if ns > MaxEnds || nd > MaxEnds { // cells enough for a cluster, not for a number's worth
		return nil, fmt.Errorf("%s: a matrix of %d sources by %d destinations, at most %d each: pick rows with -src and -dst", t.File, ns, nd, MaxEnds)
	}
	// a square matrix when both ends are of one kind, as the p2p sample prints it
	if srcKind == dstKind {
		ns = max(ns, nd)
		nd = ns
	}
	grid := &cells{rows: ns, cols: nd, z: make([]float64, ns*nd)}
	for i := range grid.z {
		grid.z[i] = math.NaN()
	}
	seen := map[[2]int]int64{}
	for _, r := range rows {
		a, _, _ := endpoint(r.Src)
		b, _, _ := endpoint(r.Dst)
		if prev, dup := seen[[2]int{a, b}]; dup {
			return nil, fmt.Errorf("%s: %s -> %s has values at %d and %d bytes; a matrix takes one per pair: pick a size with -bytes", t.File, r.Src, r.Dst, prev, r.Bytes)
		}
		seen[[2]int{a, b}] = r.Bytes
		grid.z[a*nd+b] = r.Value
	}
	p := newPlot(title(rows, metric) + pointTitle(t, rows[0]))
	// a GCD to itself is apart: its copy within HBM, 30 times a link's,
	// would set the scale and leave every link the same colour
	self := func(a, b int) bool { return srcKind == dstKind && a == b }
	scale := &cells{rows: ns, cols: nd, z: make([]float64, len(grid.z))}
	for i, v := range grid.z {
		scale.z[i] = v
		if self(i/nd, i%nd) {
			scale.z[i] = math.NaN()
		}
	}
	cm, err := heatColors(scale.Min(), scale.Max())
	if err != nil {
		return nil, err
	}
	hm := plotter.NewHeatMap(scale, cm.Palette(256)) // even: gonum's reversed palette of an odd count leaves its middle colour nil
	hm.Min, hm.Max = cm.Min(), cm.Max()
	p.Add(hm)
	var labels plotter.XYLabels
	var inks []color.Color
	for a := range ns {
		for b := range nd {
			v := grid.z[a*nd+b]
			if math.IsNaN(v) {
				continue
			}
			x, y := float64(b), float64(ns-1-a)
			ink := color.Color(color.Black)
			if self(a, b) {
				cell, err := plotter.NewPolygon(plotter.XYs{{X: x - 0.5, Y: y - 0.5}, {X: x + 0.5, Y: y - 0.5}, {X: x + 0.5, Y: y + 0.5}, {X: x - 0.5, Y: y + 0.5}})
				if err != nil {
					return nil, err
				}
				cell.Color, cell.LineStyle.Width = selfColor, 0
				p.Add(cell)
			} else if c, _ := cm.At(v); dark(c) {
				ink = color.White
			}
			labels.XYs = append(labels.XYs, plotter.XY{X: x, Y: y})
			labels.Labels = append(labels.Labels, cellText(v))
			inks = append(inks, ink)
		}
	}
	l, err := plotter.NewLabels(labels)
	if err != nil {
		return nil, err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].XAlign, l.TextStyle[i].YAlign = -0.5, -0.5
		l.TextStyle[i].Font.Size = 8
		l.TextStyle[i].Color = inks[i]
	}
	p.Add(l)
	var xt, yt []plot.Tick
	for i := range nd {
		xt = append(xt, plot.Tick{Value: float64(i), Label: strconv.Itoa(i)})
	}
	for i := range ns {
		yt = append(yt, plot.Tick{Value: float64(ns - 1 - i), Label: strconv.Itoa(i)})
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.ConstantTicks(xt), plot.ConstantTicks(yt)
	p.X.Label.Text = "destination " + strings.ToUpper(dstKind)
	if srcKind == dstKind && ns > 1 {
		p.X.Label.Text += "   (grey: a " + strings.ToUpper(srcKind) + " to itself, off the colour scale)"
	}
	p.Y.Label.Text = "source " + strings.ToUpper(srcKind)
	p.X.Min, p.X.Max = -0.5, float64(nd)-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(ns)-0.5
	return &Figure{Plot: p, Bar: colourBar(cm, axisLabel(metric, rows)), scale: cm}, nil
}

// endpoint splits a row's src or dst into its number and kind (gcd3: 3,
// "gcd"); ok is false for an endpoint without a number ("", gcd0+gcd4).
func endpoint(name string) (int, string, bool) {
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	n, err := strconv.Atoi(name[i:])
	return n, name[:i], err == nil && i > 0 && !strings.Contains(name, "+")
}

// unpaired is the first row that breaks what a matrix needs, rows from
// numbered endpoints of one kind to numbered endpoints of one kind, or nil.
func unpaired(rows []Row) *Row {
	_, sk, _ := endpoint(rows[0].Src)
	_, dk, _ := endpoint(rows[0].Dst)
	for i, r := range rows {
		_, ka, ok1 := endpoint(r.Src)
		_, kb, ok2 := endpoint(r.Dst)
		if !ok1 || !ok2 || ka != sk || kb != dk {
			return &rows[i]
		}
	}
	return nil
}

// cells is a matrix as gonum's heat map reads it: column c is dst c, row
// r is src rows-1-r (source 0 on top).
type cells struct {
	rows, cols int
	z          []float64
}

func (g *cells) Dims() (int, int)   { return g.cols, g.rows }
func (g *cells) Z(c, r int) float64 { return g.z[(g.rows-1-r)*g.cols+c] }
func (g *cells) X(c int) float64    { return float64(c) }
func (g *cells) Y(r int) float64    { return float64(r) }
func (g *cells) Min() float64       { return extreme(g.z, math.Min, math.Inf(1)) }
func (g *cells) Max() float64       { return extreme(g.z, math.Max, math.Inf(-1)) }
func extreme(z []float64, f func(a, b float64) float64, start float64) float64 {
	v := start
	for _, x := range z {
		if !math.IsNaN(x) {
			v = f(v, x)
		}
	}
	return v
}

// cellText is a cell's value with three significant digits or more.
func cellText(v float64) string {
	switch a := math.Abs(v); {
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

// keep returns the rows f keeps.
func keep(rows []Row, f func(Row) bool) []Row {
	var out []Row
	for _, r := range rows {
		if f(r) {
			out = append(out, r)
		}
	}
	return out
}

// pointTitle names the sweep point a figure of one point shows.
func pointTitle(t *Table, r Row) string {
	if len(t.Keys) == 0 {
		return ""
	}
	parts := make([]string, len(t.Keys))
	for k, key := range t.Keys {
		parts[k] = key + "=" + r.Point[k]
	}
	return " (" + strings.Join(parts, " ") + ")"
}
