package figure

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Formats are the file types Save writes, by extension.
var Formats = []string{".svg", ".png"}

// CheckPath says whether path names a file type Save writes.
func CheckPath(path string) error {
	if ext := strings.ToLower(filepath.Ext(path)); !slices.Contains(Formats, ext) {
		return fmt.Errorf("%s: want a .svg or .png file", path)
	}
	return nil
}

// Save writes p to path, 16 x 13 cm, its format by path's extension.
func Save(p *plot.Plot, path string) error {
	if err := CheckPath(path); err != nil {
		return err
	}
	return p.Save(16*vg.Centimeter, 13*vg.Centimeter, path)
}
