package workloads

import (
	"os"
	"testing"
)

// Every run of this package's tests checks the model's invariants.
func TestMain(m *testing.M) {
	CheckAll(true)
	os.Exit(m.Run())
}
