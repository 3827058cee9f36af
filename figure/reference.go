package figure

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Reference is a published measurement: a figure that draws the same
// case, ranks, size and metric draws it beside the model's line.
type Reference struct {
	Case    string // the rccl-tests binary
	Ranks   int
	Bytes   int64
	Metric  string
	Value   float64
	Unit    string
	AtLeast bool   // a floor, not a value
	Source  string // who published it
}

// ranks is the number of endpoints a row's destination names
// (gcd0+gcd1+gcd2: 3).
func ranks(r Row) int { return len(strings.Split(r.Dst, "+")) }

// matches says whether the drawn rows hold the reference's measurement.
func (ref Reference) matches(rows []Row, metric string) bool {
	for _, r := range rows {
		if r.Case == ref.Case && r.Metric == metric && metric == ref.Metric && r.Bytes == ref.Bytes && ranks(r) == ref.Ranks && r.Unit == ref.Unit {
			return true
		}
	}
	return false
}

// addReferences draws each reference the rows match as a dashed black
// line across the data at its value, and on a size axis a star at its
// size, named in the legend.
func addReferences(f *Figure, refs []Reference, rows []Row, metric string, sizeAxis bool) error {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range rows { // the x range the lines span, as drawn
		x := float64(r.Bytes)
		if !sizeAxis {
			continue
		}
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	if !sizeAxis {
		lo, hi = f.Plot.X.Min, f.Plot.X.Max
	}
	for _, ref := range refs {
		if !ref.matches(rows, metric) {
			continue
		}
		l, err := plotter.NewLine(plotter.XYs{{X: lo, Y: ref.Value}, {X: hi, Y: ref.Value}})
		if err != nil {
			return err
		}
		l.Color, l.Width, l.Dashes = color.Black, vg.Points(1.2), []vg.Length{vg.Points(5), vg.Points(3)}
		f.Plot.Add(l)
		thumbs := []plot.Thumbnailer{l}
		if sizeAxis {
			s, err := plotter.NewScatter(plotter.XYs{{X: float64(ref.Bytes), Y: ref.Value}})
			if err != nil {
				return err
			}
			s.Shape, s.Color, s.Radius = draw.PyramidGlyph{}, color.Black, vg.Points(4)
			f.Plot.Add(s)
			thumbs = append(thumbs, s)
		}
		bound := ""
		if ref.AtLeast {
			bound = "at least "
		}
		short, _, _ := strings.Cut(metricWords(rows[0].Workload, ref.Metric), ",") // busbw, not its gloss
		name := fmt.Sprintf("published %s at %s: %s%s %s (%s)", short, sizeName(float64(ref.Bytes)), bound, cellText(ref.Value), ref.Unit, ref.Source)
		if f.Legend == nil { // one line, unnamed until now: it is the model's
			f.Legend = sideLegend(f.Plot)
			f.Legend.ThumbnailWidth = vg.Points(28)
			f.Legend.Add("akisim", f.single...)
		}
		f.Legend.Add(name, thumbs...)
	}
	return nil
}
