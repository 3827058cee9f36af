package run

import (
	"os"
	"testing"

	"github.com/akisim/akisim/config"
)

// Every run of this package's tests checks the model's invariants.
func TestMain(m *testing.M) {
	CheckAll(true)
	os.Exit(m.Run())
}

// loadConfig loads ../configs/name with -set overrides.
func loadConfig(t testing.TB, name string, sets ...string) *config.Node {
	t.Helper()
	c, err := config.Load("../configs/"+name, sets)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func frontier(t testing.TB, sets ...string) *config.Node {
	return loadConfig(t, "frontier-node.toml", sets...)
}

func intp(v int) *int { return &v }
