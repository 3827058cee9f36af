package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteTable writes rows as a left-aligned text table with the columns of
// Header, two spaces between columns and no trailing blanks. Values are
// formatted by FormatValue; empty cells print as "-".
func WriteTable(w io.Writer, rows []Row) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if _, err := fmt.Fprintln(tw, strings.ReplaceAll(Header, ",", "\t")); err != nil {
		return err
	}
	for _, r := range rows {
		cells := []string{
			r.Workload,
			r.Case,
			r.Src,
			r.Dst,
			fmt.Sprint(r.Bytes),
			r.Metric,
			FormatValue(r.Value),
			r.Unit,
		}
		for i, c := range cells {
			if c == "" {
				c = "-"
			}
			cells[i] = Printable(c) // one line, one column, no terminal controls
		}
		if _, err := fmt.Fprintln(tw, strings.Join(cells, "\t")); err != nil {
			return err
		}
	}
	return tw.Flush()
}
