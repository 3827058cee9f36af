// Package whatif sets two runs side by side: the config keys that differ
// between their outdirs, then every result row and every statistic with
// the ratio of the second to the first (akisim diff).
package whatif

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/figure"
	"github.com/akisim/akisim/internal/errtext"
	"github.com/akisim/akisim/profile"
	"github.com/akisim/akisim/report"
)

// Run is one outdir as akisim wrote it.
type Run struct {
	Dir    string
	Setup  *report.Setup // nil when the outdir has no setup.json
	Config []config.KeyValue
	Rows   []report.Row
	Stats  []profile.Stats // one per dump: per run
}

// Open reads the outdir dir: its resolved config, setup, results and
// statistics. Errors name the file and what is wrong with it.
func Open(dir string) (*Run, error) {
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %v", dir, errtext.Of(err))
	case !st.IsDir():
		return nil, fmt.Errorf("%s: not a folder (want an outdir, akisim -outdir DIR)", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "version.txt")); err != nil {
		return nil, fmt.Errorf("%s: no version.txt: not an outdir akisim wrote", dir)
	}
	r := &Run{Dir: dir}
	c, err := config.Load(filepath.Join(dir, "config.toml"), nil)
	if err != nil {
		return nil, err
	}
	if r.Config, err = c.Values(); err != nil {
		return nil, err
	}
	if data, err := os.ReadFile(filepath.Join(dir, "setup.json")); err == nil {
		r.Setup = &report.Setup{}
		if err := json.Unmarshal(data, r.Setup); err != nil {
			return nil, fmt.Errorf("%s: %v", filepath.Join(dir, "setup.json"), err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, "setup.json"), errtext.Of(err))
	}
	t, err := figure.Open(filepath.Join(dir, "results.csv"))
	if err != nil {
		return nil, err
	}
	for _, row := range t.Rows {
		r.Rows = append(r.Rows, row.Row)
	}
	if r.Stats, err = profile.ReadGem5Stats(filepath.Join(dir, "stats.txt")); err != nil {
		return nil, err
	}
	return r, nil
}
