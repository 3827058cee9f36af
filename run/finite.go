package run

import (
	"fmt"
	"math"

	"github.com/akisim/akisim/report"
)

// finite hands rows on, or panics (akisim's internal error, exit 3) at a
// value that is NaN or an infinity: the config's ranges keep every result
// finite, so one that is not is a bug, and a row never prints it.
func finite(rows []report.Row) []report.Row {
	for _, r := range rows {
		if math.IsNaN(r.Value) || math.IsInf(r.Value, 0) {
			panic(fmt.Sprintf("row %s %s %s: %s is %v", r.Workload, r.Case, r.Metric, r.Unit, r.Value))
		}
	}
	return rows
}
