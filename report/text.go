package report

import (
	"bytes"
	"io"
)

// WriteTable writes rows as a left-aligned text table with the columns of
// Header, two spaces between columns and no trailing blanks. Values are
// formatted by FormatValue; empty cells print as "-". It is a Table whose
// spool is memory.
func WriteTable(w io.Writer, rows []Row) error {
	var spool bytes.Buffer
	t, err := NewTable(&spool)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if err := t.Write(r); err != nil {
			return err
		}
	}
	_, err = t.Aligner(w).Write(spool.Bytes())
	return err
}
