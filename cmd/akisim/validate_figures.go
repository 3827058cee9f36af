package main

import (
	"io"

	"github.com/akisim/akisim/figure"
	"github.com/akisim/akisim/output"
	"github.com/akisim/akisim/validate"
)

// writeValidateFigures writes a figure per family of points into d (SVG
// and PNG, validate.Figures) and the marker that makes d a run -force may
// replace.
func writeValidateFigures(d *output.Outdir, pts []validate.Point) error {
	figs, err := validate.Figures(pts)
	if err != nil {
		return err
	}
	for _, f := range figs {
		for _, ext := range figure.Formats { // SVG to zoom, PNG to glance at
			if err := d.Write(f.Name+ext, func(w io.Writer) error { return figure.Write(f.Figure, w, f.Name+ext) }); err != nil {
				return err
			}
		}
	}
	return d.Write(output.Marker, func(w io.Writer) error { _, err := io.WriteString(w, versionText()); return err })
}
