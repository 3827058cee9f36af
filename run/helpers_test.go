package run

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/trace"
)

// Every run of this package's tests checks the model's invariants.
func TestMain(m *testing.M) {
	CheckAll(true)
	os.Exit(m.Run())
}

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

func intp(v int) *int { return &v }

func alloc(name string, gcd int, bytes int64) trace.Op {
	return trace.Op{Op: trace.Malloc, Buf: name, GCD: intp(gcd), Bytes: bytes}
}

func hostAlloc(name string, numa int, bytes int64) trace.Op {
	return trace.Op{Op: trace.HostMalloc, Buf: name, NUMA: intp(numa), Bytes: bytes}
}

func record(event string, stream int) trace.Op {
	return trace.Op{Op: trace.EventRecord, Event: event, Stream: stream}
}
