package figure

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Kinds of figure.
const (
	Matrix = "matrix" // src x dst heat map, values written in the cells (p2pBandwidthLatencyTest's matrices)
	Size   = "size"   // value against bytes on a log2 axis, a line per case and pair (the seeds' E1 figures)
	Sweep  = "sweep"  // value against a swept key, a line per case, pair and other keys
)

// Spec says what to draw.
type Spec struct {
	Kind   string // Matrix, Size, Sweep; "" picks one (Auto)
	Filter        // the rows drawn
	Bytes  int64  // only rows of this size, when Sized
	Sized  bool   // rows of one size only (-bytes given; 0 is a size: a trace's events)
	X      string // Sweep: the swept key on the x axis ("" : the first)
	// Published are measurements to draw beside the rows they match
	// (Size and Sweep figures).
	Published []Reference
}

// maxLines is the most lines a figure draws: past it a legend is unreadable.
const maxLines = 16

// Auto is the kind of figure rows suit: a sweep's key, sizes, or a
// matrix of pairs.
func Auto(t *Table, rows []Row) string {
	if len(t.Keys) > 0 {
		return Sweep
	}
	sizes := map[string]map[int64]bool{}
	for _, r := range rows {
		k := r.Case + "\x00" + r.Src + "\x00" + r.Dst + "\x00" + r.Metric
		if sizes[k] == nil {
			sizes[k] = map[int64]bool{}
		}
		sizes[k][r.Bytes] = true
		if len(sizes[k]) > 1 {
			return Size
		}
	}
	return Matrix
}

// Draw makes the figure s of table t.
func Draw(t *Table, s Spec) (*Figure, error) {
	rows, err := t.Select(s.Filter)
	if err != nil {
		return nil, err
	}
	if s.Sized {
		kept := rows[:0:0]
		for _, r := range rows {
			if r.Bytes == s.Bytes {
				kept = append(kept, r)
			}
		}
		rows = kept
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no rows match %s", t.File, s.describe())
	}
	kind := s.Kind
	if kind == "" {
		kind = Auto(t, rows)
	}
	if kind != Matrix && s.Dst == "" { // -dst names the pairs drawn, itself among them if asked
		rows = apart(rows)
	}
	switch kind {
	case Matrix:
		return drawMatrix(t, rows, s)
	case Size:
		return drawSize(t, rows, s)
	case Sweep:
		return drawSweep(t, rows, s)
	}
	return nil, fmt.Errorf("-kind: unknown figure %q (want matrix, size or sweep)", kind)
}

// describe words a spec's filter for messages.
func (s Spec) describe() string {
	var parts []string
	for _, f := range []struct{ name, v string }{{"workload", s.Workload}, {"case", s.Case}, {"src", s.Src}, {"dst", s.Dst}, {"metric", s.Metric}} {
		if f.v != "" {
			parts = append(parts, "-"+f.name+" "+f.v)
		}
	}
	for k, v := range s.Where {
		parts = append(parts, "-where "+k+"="+v)
	}
	if s.Sized {
		parts = append(parts, "-bytes "+strconv.FormatInt(s.Bytes, 10))
	}
	if len(parts) == 0 {
		return "(no filter)"
	}
	return strings.Join(parts, " ")
}

// firstMetric picks the metric drawn: the one asked for, else busbw
// (what rccl-tests users read), else bandwidth, else the first the rows
// have; the rows of it returned.
func firstMetric(rows []Row, asked string) (string, []Row) {
	m := asked
	if m == "" {
		m = rows[0].Metric
		for _, r := range rows {
			if r.Metric == "busbw" || r.Metric == "bandwidth" && m != "busbw" {
				m = r.Metric
			}
		}
	}
	var out []Row
	for _, r := range rows {
		if r.Metric == m {
			out = append(out, r)
		}
	}
	return m, out
}

// labeller names a row's series by the fields that differ among rows,
// a part per field.
func labeller(rows []Row, keys []string, skipKey int) func(Row) []string {
	vary := func(f func(Row) string) bool { return len(distinct(rows, f)) > 1 }
	workload, cs := vary(func(r Row) string { return r.Workload }), vary(func(r Row) string { return r.Case })
	pair := vary(func(r Row) string { return r.Src + "\x00" + r.Dst })
	oneSrc := !vary(func(r Row) string { return r.Src })                                       // the title names it: a line is "to gcd1"
	size := skipKey >= 0 && vary(func(r Row) string { return strconv.FormatInt(r.Bytes, 10) }) // a sweep: a line per size
	var keyIdx []int
	for k := range keys {
		if k != skipKey && vary(func(r Row) string { return r.Point[k] }) {
			keyIdx = append(keyIdx, k)
		}
	}
	return func(r Row) []string {
		var parts []string
		if workload {
			parts = append(parts, r.Workload)
		}
		if cs {
			parts = append(parts, r.Case)
		}
		switch {
		case pair && oneSrc:
			parts = append(parts, "to "+r.Dst)
		case pair:
			parts = append(parts, pairWords(r))
		}
		for _, k := range keyIdx {
			parts = append(parts, keys[k]+"="+r.Point[k])
		}
		if size {
			parts = append(parts, sizeName(float64(r.Bytes)))
		}
		return parts
	}
}

// title is the figure's title: what the rows are.
func title(rows []Row, metric string) string {
	ws := distinct(rows, func(r Row) string { return r.Workload })
	cs := distinct(rows, func(r Row) string { return r.Case })
	ps := distinct(rows, pairWords)
	t := strings.Join(ws, ", ")
	if len(cs) == 1 {
		t += " " + cs[0]
	}
	if srcs := distinct(rows, func(r Row) string { return r.Src }); len(ps) == 1 {
		t += " " + ps[0]
	} else if len(srcs) == 1 && srcs[0] != "" {
		t += " from " + srcs[0]
	}
	return t + ": " + metricWords(ws[0], metric)
}

// pairWords names a row's endpoints: gcd0→gcd1, or a collective's
// "on 8 GCDs" where its destination is every rank (gcd0+gcd1+...).
func pairWords(r Row) string {
	if !strings.Contains(r.Dst, "+") {
		return r.Src + "→" + r.Dst
	}
	ends := strings.Split(r.Dst, "+")
	_, kind, _ := endpoint(ends[0])
	return fmt.Sprintf("on %d %ss", len(ends), strings.ToUpper(kind))
}

// apart drops the rows of an endpoint to itself (a GCD's copy in its own
// HBM, 30 times a link's) where other pairs are drawn: a line figure's
// scale would be set by it, as a heat map's was.
func apart(rows []Row) []Row {
	self := func(r Row) bool { return r.Src != "" && r.Src == r.Dst }
	others := keep(rows, func(r Row) bool { return !self(r) })
	if len(others) == 0 {
		return rows
	}
	return others
}

// axisLabel is a metric in words with its unit.
func axisLabel(metric string, rows []Row) string {
	w := metricWords(rows[0].Workload, metric)
	if u := rows[0].Unit; u != "" {
		return w + " (" + u + ")"
	}
	return w
}

// sizeName prints bytes as a power-of-two size where it is one.
func sizeName(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	for i := len(units) - 1; i > 0; i-- {
		if u := math.Pow(1024, float64(i)); b >= u && math.Mod(b, u) == 0 {
			return strconv.FormatFloat(b/u, 'f', -1, 64) + " " + units[i]
		}
	}
	return strconv.FormatFloat(b, 'f', -1, 64) + " B"
}

// log2Ticks marks powers of two, labelled as sizes, thinned to about ten.
type log2Ticks struct{}

func (log2Ticks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0 && min <= max) || math.IsInf(max, 0) { // no power of two to count from: -Inf would never reach hi
		return nil
	}
	lo, hi := math.Floor(math.Log2(min)), math.Ceil(math.Log2(max))
	step := math.Max(1, math.Ceil((hi-lo)/10))
	var ticks []plot.Tick
	for e := lo; e <= hi; e++ {
		v := math.Pow(2, e)
		if v < min || v > max {
			continue
		}
		label := ""
		if math.Mod(e-lo, step) == 0 {
			label = sizeName(v)
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: label})
	}
	return ticks
}

// newPlot is a plot with akisim's common look.
func newPlot(titleText string) *plot.Plot {
	p := plot.New()
	p.Title.Text = titleText
	p.BackgroundColor = color.White
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	p.X.Tick.Label.Font.Size = vg.Points(8)
	p.Y.Tick.Label.Font.Size = vg.Points(8)
	return p
}
