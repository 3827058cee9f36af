package run

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"github.com/sarchlab/akita/v3/tracing"
)

// WriteDaisenCSV writes Akita tasks as Akita's CSV trace writer lays them
// out (tracing.CSVTraceWriter: a header, then ID, ParentID, Kind, What,
// Where, Start, End per task), the file Daisen reads (daisen -csv FILE,
// tracing.CSVTraceReader). Times are seconds, written exactly rather than
// to Akita's ten decimals, so a copy of a few ns keeps its length. A field
// with a comma, quote or line break (a C++ kernel's name) is quoted as CSV
// quotes it, right after its comma, which Akita's reader (encoding/csv)
// reads back whole.
func WriteDaisenCSV(w io.Writer, tasks []tracing.Task) error {
	b := bufio.NewWriter(w)
	b.WriteString("ID, ParentID, Kind, What, Where, Start, End\n")
	for _, t := range tasks {
		b.WriteString(csvField(t.ID))
		for _, f := range []string{t.ParentID, t.Kind, t.What, t.Where,
			strconv.FormatFloat(float64(t.StartTime), 'f', -1, 64), strconv.FormatFloat(float64(t.EndTime), 'f', -1, 64)} {
			b.WriteByte(',')
			if !strings.ContainsAny(f, ",\"\r\n") {
				b.WriteByte(' ') // Akita's layout: ", " between fields
			}
			b.WriteString(csvField(f))
		}
		b.WriteByte('\n')
	}
	return b.Flush()
}

// csvField is f as a CSV field: quoted, its quotes doubled, when it holds
// a comma, quote or line break.
func csvField(f string) string {
	if !strings.ContainsAny(f, ",\"\r\n") {
		return f
	}
	return `"` + strings.ReplaceAll(f, `"`, `""`) + `"`
}
