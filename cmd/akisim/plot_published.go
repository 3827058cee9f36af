package main

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/figure"
	"github.com/akisim/akisim/validate"
)

// published are validate's published rccl-tests values measured on the
// node the results at path ran on: an outdir's config, or a sweep's
// first point's. A results CSV alone names no node, and gets none.
func published(path string) []figure.Reference {
	name := configName(path)
	if name == "" {
		return nil
	}
	var refs []figure.Reference
	for _, m := range validate.PublishedRCCL() {
		if slices.Contains(m.Configs, name) {
			refs = append(refs, figure.Reference{Case: m.Bench, Ranks: m.GCDs, Bytes: m.Bytes, Metric: m.Metric,
				Value: m.Value, Unit: m.Unit, AtLeast: m.AtLeast, Source: m.Source})
		}
	}
	return refs
}

// configName is the name of the config in the outdir at path (a sweep's:
// its first point's), or "" where there is none to read.
func configName(path string) string {
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		return ""
	}
	file := filepath.Join(path, "config.toml")
	if _, err := os.Stat(file); err != nil {
		points, _ := filepath.Glob(filepath.Join(path, "points", "*", "config.toml"))
		if len(points) == 0 {
			return ""
		}
		file = points[0] // Glob sorts
	}
	n, err := config.Load(file, nil) // capped as any config
	if err != nil {
		return ""
	}
	return n.Name
}
