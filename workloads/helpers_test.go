package workloads

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/akisim/akisim/config"
)

// loadConfig loads a config of configs/ with -set overrides.
func loadConfig(t testing.TB, name string, sets ...string) *config.Node {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	c, err := config.Load(filepath.Join(filepath.Dir(file), "..", "configs", name), sets)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func frontier(t testing.TB, sets ...string) *config.Node {
	return loadConfig(t, "frontier-node.toml", sets...)
}

// runStream simulates a STREAM replica on c.
func runStream(t testing.TB, c *config.Node, st Stream) *Result {
	t.Helper()
	runs, err := st.Runs()
	return mustExecute(t, c, runs, err)
}

// mustExecute simulates runs (made with err) on c, failing the test on an error.
func mustExecute(t testing.TB, c *config.Node, runs []Run, err error) *Result {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	res, err := Execute(c, runs)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func statName(format string, g int) string { return fmt.Sprintf(format, g) }

// statTotal is stat name summed over the runs of s (0 if no run has it).
func statTotal(s *Stats, name string) float64 {
	v := 0.0
	for _, r := range s.runs {
		for i, st := range s.layouts[r.layout].d { // parts not built add nothing
			if st.Name == name {
				v += r.values[i]
			}
		}
	}
	return v
}
