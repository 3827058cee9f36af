package run

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sarchlab/akita/v3/tracing"
)

// WriteDaisenCSV writes Akita tasks as Akita's CSV trace writer lays them
// out (tracing.CSVTraceWriter: a header, then ID, ParentID, Kind, What,
// Where, Start, End per task), the file Daisen reads (daisen -csv FILE,
// tracing.CSVTraceReader). Times are seconds, written exactly rather than
// to Akita's ten decimals, so a copy of a few ns keeps its length.
func WriteDaisenCSV(w io.Writer, tasks []tracing.Task) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "ID, ParentID, Kind, What, Where, Start, End\n")
	for _, t := range tasks {
		for _, f := range []string{t.ID, t.ParentID, t.Kind, t.What, t.Where} {
			if strings.ContainsAny(f, ",\n\"") {
				return fmt.Errorf("task %q: field %q has a comma, quote or newline, which Daisen's CSV cannot hold", t.ID, f)
			}
		}
		fmt.Fprintf(b, "%s, %s, %s, %s, %s, %s, %s\n", t.ID, t.ParentID, t.Kind, t.What, t.Where,
			strconv.FormatFloat(float64(t.StartTime), 'f', -1, 64), strconv.FormatFloat(float64(t.EndTime), 'f', -1, 64))
	}
	return b.Flush()
}
