package report

import (
	"io"
	"strconv"
	"strings"
)

// WriteCSV writes rows as csv: the line Header, then one record per row in
// the order given. Fields are quoted by encoding/csv rules and values are
// formatted by FormatValue, so the output is deterministic.
func WriteCSV(w io.Writer, rows []Row) error {
	cw := NewCSVWriter(w)
	for _, r := range rows {
		if err := cw.Write(r); err != nil {
			return err
		}
	}
	return cw.Close()
}

// FormatValue formats v with four decimals and trims trailing zeros and a
// trailing dot: 50 -> "50", 37.51230 -> "37.5123", 0.00004 -> "0".
// Negative zero prints as "0"; NaN and infinities print as strconv does
// ("NaN", "+Inf", "-Inf").
func FormatValue(v float64) string {
	s := strconv.FormatFloat(v, 'f', 4, 64)
	if strings.IndexByte(s, '.') >= 0 {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}
