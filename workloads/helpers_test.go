package workloads

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/run"
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
func runStream(t testing.TB, c *config.Node, st Stream) *run.Result {
	t.Helper()
	runs, err := st.Runs()
	return mustExecute(t, c, runs, err)
}

// mustExecute simulates runs (made with err) on c, failing the test on an error.
func mustExecute(t testing.TB, c *config.Node, runs []job.Run, err error) *run.Result {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	res, err := run.Execute(c, runs)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func statName(format string, g int) string { return fmt.Sprintf(format, g) }
