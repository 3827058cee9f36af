package validate

import (
	"os"
	"testing"

	"github.com/akisim/akisim/run"
)

// Every run of the experiments' tests checks the model's invariants, as
// akisim validate does.
func TestMain(m *testing.M) {
	run.CheckAll(true)
	os.Exit(m.Run())
}
