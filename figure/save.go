package figure

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Formats are the file types Write writes, by extension.
var Formats = []string{".svg", ".png"}

// CheckPath says whether path names a file type Write writes.
func CheckPath(path string) error {
	if ext := strings.ToLower(filepath.Ext(path)); !slices.Contains(Formats, ext) {
		return fmt.Errorf("%s: want a .svg or .png file", path)
	}
	return nil
}

// Write writes p to w, 16 x 13 cm, in the format path's extension names
// (the file's opening and replacing are the caller's).
func Write(p *plot.Plot, w io.Writer, path string) error {
	if err := CheckPath(path); err != nil {
		return err
	}
	wt, err := p.WriterTo(16*vg.Centimeter, 13*vg.Centimeter, strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), "."))
	if err != nil {
		return err
	}
	_, err = wt.WriteTo(w)
	return err
}
