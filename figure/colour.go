package figure

import (
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/brewer"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// selfColor fills the cells off the colour scale (a GCD to itself).
var selfColor = color.Gray{Y: 0xd8}

// heatColors is the heat map's scale over lo..hi: light for low values,
// dark for high, its lightness rising evenly with the value so equal
// steps look equal (ColorBrewer's YlGnBu through Moreland's luminance
// map).
func heatColors(lo, hi float64) (palette.ColorMap, error) {
	switch {
	case math.IsInf(lo, 1): // no cell on the scale: a range to draw the bar over
		lo, hi = 0, 1
	case lo == hi: // one value: a range the palette can place it in
		lo, hi = lo-1, hi+1
	}
	p, err := brewer.GetPalette(brewer.TypeSequential, "YlGnBu", 9)
	if err != nil {
		return nil, err
	}
	controls := slices.Clone(p.Colors())
	slices.Reverse(controls) // dark to light: the luminance map wants lightness rising
	cm, err := moreland.NewLuminance(controls)
	if err != nil {
		return nil, err
	}
	cm = palette.Reverse(cm)
	cm.SetMin(lo)
	cm.SetMax(hi)
	return cm, nil
}

// dark says whether c is dark enough that text on it is written in white.
func dark(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	return 0.299*float64(r)+0.587*float64(g)+0.114*float64(b) < 0.5*0xffff
}

// colourBar is the scale cm as a vertical bar, its axis the values.
func colourBar(cm palette.ColorMap, label string) *plot.Plot {
	p := plot.New()
	p.BackgroundColor = color.White
	p.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	p.HideX()
	p.Y.Padding = 0
	p.Y.Label.Text = label
	p.Y.Tick.Label.Font.Size = vg.Points(8)
	return p
}
