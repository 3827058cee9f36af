package report

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"
)

// A RowWriter writes rows one at a time, as a long run produces them, in
// the same bytes as writing them all at once (WriteCSV, WriteJSON).
type RowWriter interface {
	Write(r Row) error
	Close() error // ends the output (and flushes it); the writer underneath stays open
}

// NewCSVWriter writes rows as WriteCSV does.
func NewCSVWriter(w io.Writer) RowWriter {
	return &csvRows{w: w, cw: csv.NewWriter(w)}
}

type csvRows struct {
	w      io.Writer
	cw     *csv.Writer
	header bool
	rec    [8]string
}

func (c *csvRows) start() error {
	if c.header {
		return nil
	}
	c.header = true
	_, err := io.WriteString(c.w, Header+"\n")
	return err
}

func (c *csvRows) Write(r Row) error {
	if err := c.start(); err != nil {
		return err
	}
	c.rec = [8]string{r.Workload, r.Case, r.Src, r.Dst, strconv.FormatInt(r.Bytes, 10), r.Metric, FormatValue(r.Value), r.Unit}
	return c.cw.Write(c.rec[:])
}

func (c *csvRows) Close() error {
	if err := c.start(); err != nil {
		return err
	}
	c.cw.Flush()
	return c.cw.Error()
}

// NewJSONWriter writes rows as WriteJSON does.
func NewJSONWriter(w io.Writer) RowWriter {
	return &jsonRows{bw: bufio.NewWriter(w)}
}

type jsonRows struct {
	bw  *bufio.Writer
	buf []byte
	n   int
}

func (j *jsonRows) Write(r Row) error {
	if math.IsNaN(r.Value) || math.IsInf(r.Value, 0) {
		return fmt.Errorf("report: row %d (%s/%s/%s): value %v is not a JSON number",
			j.n, r.Workload, r.Case, r.Metric, r.Value)
	}
	b := j.buf[:0] // as an encoder indenting by two spaces under a two-space prefix writes it
	b = append(b, "{\n    \"workload\": "...)
	b = appendJSONString(b, r.Workload)
	b = append(b, ",\n    \"case\": "...)
	b = appendJSONString(b, r.Case)
	b = append(b, ",\n    \"src\": "...)
	b = appendJSONString(b, r.Src)
	b = append(b, ",\n    \"dst\": "...)
	b = appendJSONString(b, r.Dst)
	b = append(b, ",\n    \"bytes\": "...)
	b = strconv.AppendInt(b, r.Bytes, 10)
	b = append(b, ",\n    \"metric\": "...)
	b = appendJSONString(b, r.Metric)
	b = append(b, ",\n    \"value\": "...)
	b = append(b, FormatValue(r.Value)...)
	b = append(b, ",\n    \"unit\": "...)
	b = appendJSONString(b, r.Unit)
	b = append(b, "\n  }"...)
	j.buf = b
	sep := ",\n  "
	if j.n == 0 {
		sep = "[\n  "
	}
	j.n++
	j.bw.WriteString(sep)
	_, err := j.bw.Write(b)
	return err
}

func (j *jsonRows) Close() error {
	end := "\n]\n"
	if j.n == 0 {
		end = "[]\n"
	}
	j.bw.WriteString(end)
	return j.bw.Flush()
}

// appendJSONString appends s as encoding/json writes a string with HTML
// escaping off: quotes, backslashes and control characters escaped, bad
// UTF-8 as U+FFFD, U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c >= 0x20 && c != '"' && c != '\\':
				b = append(b, c)
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\b':
				b = append(b, '\\', 'b')
			case c == '\f':
				b = append(b, '\\', 'f')
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
