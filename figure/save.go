package figure

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot/vg/draw"
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

// Write writes f to w, its plot 16 x 13 cm, in the format path's
// extension names (the file's opening and replacing are the caller's).
func Write(f *Figure, w io.Writer, path string) error {
	if err := CheckPath(path); err != nil {
		return err
	}
	wd, ht := f.Size()
	c, err := draw.NewFormattedCanvas(wd, ht, strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), "."))
	if err != nil {
		return err
	}
	f.Draw(draw.New(c))
	_, err = c.WriteTo(w)
	return err
}
