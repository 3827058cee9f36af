package figure

import (
	"fmt"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Formats are the file types Save writes, by extension.
var Formats = []string{".svg", ".png"}

// Save writes p to path, its format by path's extension (.svg or .png),
// 16 x 12 cm (a matrix 16 x 14).
func Save(p *plot.Plot, path string) error {
	ext := strings.ToLower(filepath.Ext(path))
	if ext != ".svg" && ext != ".png" {
		return fmt.Errorf("%s: want a .svg or .png file", path)
	}
	return p.Save(16*vg.Centimeter, 13*vg.Centimeter, path)
}
