package report

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
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
	buf bytes.Buffer
	n   int
}

func (j *jsonRows) Write(r Row) error {
	if math.IsNaN(r.Value) || math.IsInf(r.Value, 0) {
		return fmt.Errorf("report: row %d (%s/%s/%s): value %v is not a JSON number",
			j.n, r.Workload, r.Case, r.Metric, r.Value)
	}
	j.buf.Reset()
	enc := json.NewEncoder(&j.buf)
	enc.SetEscapeHTML(false) // a case like "a<b&c" stays readable
	enc.SetIndent("  ", "  ")
	if err := enc.Encode(jsonRow{Workload: r.Workload, Case: r.Case, Src: r.Src, Dst: r.Dst, Bytes: r.Bytes,
		Metric: r.Metric, Value: json.Number(FormatValue(r.Value)), Unit: r.Unit}); err != nil {
		return err
	}
	b := bytes.TrimSuffix(j.buf.Bytes(), []byte("\n"))
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
