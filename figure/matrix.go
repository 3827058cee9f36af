package figure

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
)

// drawMatrix draws one value per (src, dst) as a heat map, source rows
// top to bottom and destinations left to right, each cell's value written
// in it, as p2pBandwidthLatencyTest prints its matrices.
func drawMatrix(t *Table, rows []Row, s Spec) (*plot.Plot, error) {
	if s.Case == "" { // one case: the first
		c := rows[0].Case
		rows = keep(rows, func(r Row) bool { return r.Case == c })
	}
	if len(t.Keys) > 0 && len(s.Where) < len(t.Keys) { // one sweep point: the first left
		pt := strings.Join(rows[0].Point, "\x00")
		rows = keep(rows, func(r Row) bool { return strings.Join(r.Point, "\x00") == pt })
	}
	metric, rows := firstMetric(rows, s.Metric)
	id := func(name string) (int, string, bool) {
		i := len(name)
		for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
			i--
		}
		n, err := strconv.Atoi(name[i:])
		return n, name[:i], err == nil
	}
	n := 0
	kind := ""
	for _, r := range rows {
		a, ka, ok1 := id(r.Src)
		b, kb, ok2 := id(r.Dst)
		if !ok1 || !ok2 || ka != kb || (kind != "" && ka != kind) {
			return nil, fmt.Errorf("%s: a matrix needs rows from one kind of endpoint to another (gcd0 -> gcd1); %q -> %q is not", t.File, r.Src, r.Dst)
		}
		kind = ka
		n = max(n, a+1, b+1)
	}
	grid := &cells{n: n, z: make([]float64, n*n)}
	for i := range grid.z {
		grid.z[i] = math.NaN()
	}
	seen := map[[2]int]int64{}
	for _, r := range rows {
		a, _, _ := id(r.Src)
		b, _, _ := id(r.Dst)
		if prev, dup := seen[[2]int{a, b}]; dup {
			return nil, fmt.Errorf("%s: %s -> %s has values at %d and %d bytes; a matrix takes one per pair: pick a size with -bytes", t.File, r.Src, r.Dst, prev, r.Bytes)
		}
		seen[[2]int{a, b}] = r.Bytes
		grid.z[a*n+b] = r.Value
	}
	p := newPlot(title(rows, metric) + pointTitle(t, rows[0]))
	hm := plotter.NewHeatMap(grid, moreland.SmoothBlueRed().Palette(255))
	p.Add(hm)
	var labels plotter.XYLabels
	for a := range n {
		for b := range n {
			if v := grid.z[a*n+b]; !math.IsNaN(v) {
				labels.XYs = append(labels.XYs, plotter.XY{X: float64(b), Y: float64(n - 1 - a)})
				labels.Labels = append(labels.Labels, cellText(v))
			}
		}
	}
	l, err := plotter.NewLabels(labels)
	if err != nil {
		return nil, err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].XAlign, l.TextStyle[i].YAlign = -0.5, -0.5
		l.TextStyle[i].Font.Size = 7
	}
	p.Add(l)
	var xt, yt []plot.Tick
	for i := range n {
		xt = append(xt, plot.Tick{Value: float64(i), Label: strconv.Itoa(i)})
		yt = append(yt, plot.Tick{Value: float64(n - 1 - i), Label: strconv.Itoa(i)})
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.ConstantTicks(xt), plot.ConstantTicks(yt)
	p.X.Label.Text = "destination " + strings.ToUpper(kind)
	p.Y.Label.Text = "source " + strings.ToUpper(kind) + "   [" + axisLabel(metric, rows) + "]"
	p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	return p, nil
}

// cells is a matrix as gonum's heat map reads it: column c is dst c, row
// r is src n-1-r (source 0 on top).
type cells struct {
	n int
	z []float64
}

func (g *cells) Dims() (int, int)   { return g.n, g.n }
func (g *cells) Z(c, r int) float64 { return g.z[(g.n-1-r)*g.n+c] }
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
