package workloads

import (
	"os"
	"testing"

	"github.com/akisim/akisim/run"
)

// Every run of this package's tests checks the model's invariants.
func TestMain(m *testing.M) {
	run.CheckAll(true)
	os.Exit(m.Run())
}
