package figure

import (
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// line is one drawn series: its name's parts (what differs among the
// rows: case, pair, other keys, size) and its points.
type line struct {
	parts []string
	xy    plotter.XYs
}

func (l line) label() string { return strings.Join(l.parts, "; ") }

// series groups rows into lines by name, in order of first use; at
// gives a row's point.
func series(rows []Row, name func(Row) []string, at func(Row) plotter.XY) []line {
	var lines []line
	index := map[string]int{}
	for _, r := range rows {
		parts := name(r)
		k, ok := index[strings.Join(parts, "\x00")]
		if !ok {
			k = len(lines)
			index[strings.Join(parts, "\x00")] = k
			lines = append(lines, line{parts: parts})
		}
		lines[k].xy = append(lines[k].xy, at(r))
	}
	return lines
}

// merged joins lines with the same points into one named by all of them:
// four pairs that measure alike draw one line, not four on top of each
// other. Alike is within half a percent, less than a line's width.
func merged(lines []line) []line {
	var out []line
	var members [][]line
	for _, l := range lines {
		i := slices.IndexFunc(out, func(o line) bool { return alike(o.xy, l.xy) })
		if i < 0 {
			out = append(out, l)
			members = append(members, []line{l})
			continue
		}
		members[i] = append(members[i], l)
	}
	for i, m := range members {
		if len(m) > 1 {
			out[i] = line{parts: joined(m), xy: m[0].xy}
		}
	}
	return out
}

// alike says whether two lines have their points at the same x and
// within half a percent in y.
func alike(a, b plotter.XYs) bool {
	return slices.EqualFunc(a, b, func(p, q plotter.XY) bool {
		return p.X == q.X && math.Abs(p.Y-q.Y) <= 0.005*math.Max(math.Abs(p.Y), math.Abs(q.Y))
	})
}

// joined names lines drawn as one by their parts' values: where they are
// every combination, each part lists its values ("to gcd1, gcd6;
// routing.sdma=widest, fewest"); else by blocks that are.
func joined(m []line) []string {
	var tuples [][]string
	for _, l := range m {
		if len(l.parts) != len(m[0].parts) { // cannot happen: one labeller names them all
			return []string{l.label()}
		}
		tuples = append(tuples, l.parts)
	}
	return []string{describe(tuples)}
}

// describe words a set of name tuples of one length: the values of each
// part where the set is their every combination, else blocks by the
// last part's values, joined by "and".
func describe(tuples [][]string) string {
	n := len(tuples[0])
	if n == 0 {
		return ""
	}
	values := make([][]string, n)
	combos := 1
	for d := range n {
		for _, t := range tuples {
			if !slices.Contains(values[d], t[d]) {
				values[d] = append(values[d], t[d])
			}
		}
		combos *= len(values[d])
	}
	if combos == len(tuples) {
		var parts []string
		for _, v := range values {
			parts = append(parts, listed(v))
		}
		return strings.Join(parts, "; ")
	}
	var heads [][]string
	lasts := map[string][]string{} // head -> its last parts
	for _, t := range tuples {
		h := strings.Join(t[:n-1], "\x00")
		if lasts[h] == nil {
			heads = append(heads, t[:n-1])
		}
		lasts[h] = append(lasts[h], t[n-1])
	}
	var blocks []string
	byLasts := map[string][][]string{}
	for _, h := range heads {
		k := strings.Join(lasts[strings.Join(h, "\x00")], "\x00")
		if byLasts[k] == nil {
			blocks = append(blocks, k)
		}
		byLasts[k] = append(byLasts[k], h)
	}
	var out []string
	for _, k := range blocks {
		out = append(out, describe(byLasts[k])+"; "+listed(strings.Split(k, "\x00")))
	}
	return strings.Join(out, " and ")
}

// listed lists values, their common lead ("to ", "routing.sdma=") once.
func listed(v []string) string {
	lead := v[0][:strings.IndexByte(v[0], '=')+1]
	if strings.HasPrefix(v[0], "to ") {
		lead = "to "
	}
	for _, w := range v {
		if !strings.HasPrefix(w, lead) {
			return strings.Join(v, ", ")
		}
	}
	rest := make([]string, len(v))
	for i, w := range v {
		rest[i] = strings.TrimPrefix(w, lead)
	}
	return lead + strings.Join(rest, ", ")
}

// style is a line's colour, dash pattern and glyph, by index.
type style struct{ colour, dash, glyph int }

// colours are dark enough to read on white; dashes and glyphs are
// gonum's.
var (
	colours = append(slices.Clone(plotutil.DarkColors), color.Gray{Y: 0x50})
	dashes  = plotutil.DefaultDashes[:4] // solid, long, short, dotted: told apart at a glance
	glyphs  = plotutil.DefaultGlyphShapes
)

// styles gives each line its own style. Where a part of the names takes
// a few values (an other key's), that part picks the dash and glyph and
// the rest picks the colour, so a reader can follow either; otherwise
// colours cycle, then dashes. Every pair of lines differs in colour or
// dash.
func styles(lines []line) []style {
	out := make([]style, len(lines))
	for i := range out {
		out[i] = style{colour: i % len(colours), dash: i / len(colours) % len(dashes), glyph: i % len(glyphs)}
	}
	n := len(lines[0].parts)
	for _, l := range lines {
		if len(l.parts) != n { // a merged line: names no longer split by part
			return out
		}
	}
	best, bestN := -1, len(dashes)+1
	for d := range n {
		if k := len(distinctOf(lines, func(l line) string { return l.parts[d] })); k > 1 && k < bestN {
			best, bestN = d, k
		}
	}
	if best < 0 || n < 2 {
		return out
	}
	rest := func(l line) string {
		return strings.Join(slices.Delete(slices.Clone(l.parts), best, best+1), "\x00")
	}
	groups := distinctOf(lines, rest)
	if len(groups) > len(colours) {
		return out
	}
	inner := distinctOf(lines, func(l line) string { return l.parts[best] })
	for i, l := range lines {
		d := slices.Index(inner, l.parts[best])
		out[i] = style{colour: slices.Index(groups, rest(l)), dash: d, glyph: d}
	}
	return out
}

// distinctOf lists f's values over lines, in order of first use.
func distinctOf(lines []line, f func(line) string) []string {
	var out []string
	for _, l := range lines {
		if v := f(l); !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// addLines draws lines in distinct styles; their names go in a legend
// beside the data (none for one line).
func addLines(p *plot.Plot, lines []line) (*Figure, error) {
	named := len(lines) > 1 // merged into one, a line still says which it is
	lines = merged(lines)
	st := styles(lines)
	var thumbs []plot.Thumbnailer
	for i, l := range lines {
		s := st[i]
		lp, sp, err := plotter.NewLinePoints(l.xy)
		if err != nil {
			return nil, err
		}
		lp.Color, lp.Width, lp.Dashes = colours[s.colour], vg.Points(1.5), dashes[s.dash]
		sp.Color, sp.Shape, sp.Radius = colours[s.colour], glyphs[s.glyph], vg.Points(3)
		p.Add(lp, sp)
		thumbs = []plot.Thumbnailer{lp, sp}
		if named {
			p.Legend.Add(l.label(), lp, sp)
		}
	}
	p.Add(plotter.NewGrid())
	if p.Y.Min > 0 { // from zero: a difference looks as large as it is
		p.Y.Min = 0
	}
	if p.Y.Max == p.Y.Min && p.Y.Max < 0 { // one negative value: to zero too (gonum's ±1 is lost on a value past 2^53)
		p.Y.Max = 0
	}
	f := &Figure{Plot: p, single: thumbs}
	if named {
		f.Legend = sideLegend(p)
		f.Legend.ThumbnailWidth = vg.Points(28) // room for a dash pattern to show
	}
	return f, nil
}
