package figure

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Figure is a drawn figure: a plot and, right of its data, either its
// legend or its colour bar, so neither covers a line or a cell.
type Figure struct {
	Plot   *plot.Plot
	Legend *plot.Legend       // the lines' names; nil: none
	Bar    *plot.Plot         // a heat map's colour bar; nil: none
	scale  palette.ColorMap   // the cells' colours, as the bar shows them
	height vg.Length          // the plot's, where its rows need more than plotHeight; 0: plotHeight
	width  vg.Length          // the plot's, where its labels need more than plotWidth; 0: plotWidth
	single []plot.Thumbnailer // a figure of one line: its look, for a legend that names it later
}

// The plot's own size; a legend or colour bar widens the figure.
const (
	plotWidth  = 16 * vg.Centimeter
	plotHeight = 13 * vg.Centimeter
	gap        = 6 * vg.Millimeter  // between the plot's data and its side
	barWidth   = 30 * vg.Millimeter // with its axis, and a margin on the right
	margin     = 2 * vg.Millimeter  // left of the axis labels: gonum measures text a little short
)

// Size is the figure's width and height: the plot's, widened by its side
// and made taller where a long legend needs it.
func (f *Figure) Size() (w, h vg.Length) {
	w, h = max(plotWidth, f.width), max(plotHeight, f.height)
	switch {
	case f.Legend != nil:
		r := f.Legend.Rectangle(draw.Canvas{})
		w += gap + r.Size().X + 4*vg.Millimeter // a margin: gonum measures the text a little short
		h = max(h, r.Size().Y+4*vg.Centimeter)  // the title and the x axis take about 4 cm
	case f.Bar != nil:
		w += gap + barWidth
	}
	return w, h
}

// regions splits c into the plot's part and its side's: the legend at
// the top of the data's height, the colour bar beside the data.
func (f *Figure) regions(c draw.Canvas) (main, side draw.Canvas) {
	w, _ := f.Size()
	sideW := w - max(plotWidth, f.width)
	main = draw.Crop(c, margin, -sideW, 0, 0)
	if sideW == 0 {
		return main, draw.Canvas{}
	}
	data := f.Plot.DataCanvas(main)
	side = draw.Crop(c, c.Max.X-c.Min.X-sideW, 0, 0, 0)
	side.Min.Y, side.Max.Y = data.Min.Y, data.Max.Y
	side.Min.X += gap
	if f.Bar != nil {
		side.Max.X -= 8 * vg.Millimeter
	}
	return main, side
}

// Draw draws the figure on c.
func (f *Figure) Draw(c draw.Canvas) {
	if f.Plot.BackgroundColor != nil { // the side's part too
		c.SetColor(f.Plot.BackgroundColor)
		c.Fill(c.Rectangle.Path())
	}
	main, side := f.regions(c)
	f.Plot.Draw(main)
	switch {
	case f.Legend != nil:
		f.Legend.Draw(side)
	case f.Bar != nil:
		side.Min.Y -= f.Bar.Y.Padding // the bar's ends level with the data's
		side.Max.Y += f.Bar.Y.Padding
		f.Bar.Draw(side)
	}
}

// sideLegend moves p's legend beside its data: drawn from the top, icons
// then names.
func sideLegend(p *plot.Plot) *plot.Legend {
	l := p.Legend
	p.Legend = plot.NewLegend() // no entries: nothing drawn over the data
	l.Top, l.Left = true, true
	l.XOffs, l.YOffs = 0, 0
	return &l
}
