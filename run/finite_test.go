package run

import (
	"math"
	"strings"
	"testing"

	"github.com/akisim/akisim/report"
)

// A row that is not finite is an internal error (a panic, exit 3), never
// printed.
func TestFiniteRows(t *testing.T) {
	ok := []report.Row{{Metric: "end", Value: 1, Unit: "us"}}
	if got := finite(ok); len(got) != 1 {
		t.Errorf("finite rows: %v", got)
	}
	for _, v := range []float64{math.Inf(1), math.Inf(-1), math.NaN()} {
		func() {
			defer func() {
				if p := recover(); p == nil || !strings.Contains(p.(string), "bandwidth") {
					t.Errorf("%v: panic %v, want one naming the row", v, p)
				}
			}()
			finite([]report.Row{{Workload: "trace", Case: "c", Metric: "bandwidth", Value: v, Unit: "GB/s"}})
		}()
	}
}
