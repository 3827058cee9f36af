package report

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Table lays out rows as a text table without holding them: Write
// formats a row's cells into one tab-separated line for a spool (memory
// or a file the caller provides) and keeps only each column's width;
// Aligner then turns the spooled lines, read back, into the table. A
// long trace's rows cost the spool's bytes, not a Row each.
type Table struct {
	spool io.Writer
	width [8]int // the widest cell of each column so far, in runes
	line  []byte
}

// NewTable starts a table whose lines go to spool, the header first.
func NewTable(spool io.Writer) (*Table, error) {
	t := &Table{spool: spool}
	return t, t.add(strings.Split(Header, ","))
}

// Write spools row r.
func (t *Table) Write(r Row) error {
	return t.add([]string{r.Workload, r.Case, r.Src, r.Dst, strconv.FormatInt(r.Bytes, 10), r.Metric, FormatValue(r.Value), r.Unit})
}

func (t *Table) add(cells []string) error {
	b := t.line[:0]
	for i, c := range cells {
		if c == "" {
			c = "-"
		}
		c = Printable(c) // one line, one column, no terminal controls
		t.width[i] = max(t.width[i], utf8.RuneCountInString(c))
		if i > 0 {
			b = append(b, '\t')
		}
		b = append(b, c...)
	}
	t.line = append(b, '\n')
	_, err := t.spool.Write(t.line)
	return err
}

// Aligner is a writer that takes the spooled lines back, in any pieces,
// and writes them to w as the table: every column but the last padded to
// its widest cell plus two spaces.
func (t *Table) Aligner(w io.Writer) io.Writer { return &aligner{t: t, w: w} }

type aligner struct {
	t       *Table
	w       io.Writer
	partial []byte // a line not yet ended
	out     []byte
}

func (a *aligner) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			a.partial = append(a.partial, p...)
			break
		}
		line := p[:i]
		if len(a.partial) > 0 { // the line began in an earlier piece
			a.partial = append(a.partial, line...)
			line = a.partial
		}
		if err := a.emit(line); err != nil {
			return 0, err
		}
		a.partial, p = a.partial[:0], p[i+1:]
	}
	return n, nil
}

// emit writes one spooled line aligned.
func (a *aligner) emit(line []byte) error {
	b := a.out[:0]
	for i := 0; ; i++ {
		cell, rest, more := bytes.Cut(line, []byte{'\t'})
		b = append(b, cell...)
		if !more {
			break
		}
		for pad := a.t.width[i] + 2 - utf8.RuneCount(cell); pad > 0; pad-- {
			b = append(b, ' ')
		}
		line = rest
	}
	a.out = append(b, '\n')
	_, err := a.w.Write(a.out)
	return err
}
