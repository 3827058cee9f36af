// Package figure draws akisim's results as the seed papers' figures: the
// p2p matrices as annotated heat maps, bandwidth or time against size on
// a log2 axis (one line per case and pair), and a sweep's key on an axis.
// It reads the rows akisim writes (results.csv, or a sweep's merged one,
// whose first columns are the swept keys) and draws with gonum/plot.
package figure

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/akisim/akisim/report"
)

// Row is a result row and the sweep point it came from.
type Row struct {
	report.Row
	Point []string // the swept keys' values, in Table.Keys order
}

// Table is the rows of a results file.
type Table struct {
	File string
	Keys []string // swept keys: the columns before the contract's
	Rows []Row
}

// Open reads the results at path: a results.csv, or a folder holding one
// (a run's or a sweep's outdir).
func Open(path string) (*Table, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "results.csv")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read reads results rows in CSV; errors name file, line and column.
// Read stops at MaxFileBytes and at a line longer than MaxLineBytes.
func Read(r io.Reader, file string) (*Table, error) {
	cr := csv.NewReader(&capReader{r: r, file: file, line: 1})
	var ce *capError
	head, err := cr.Read()
	if errors.As(err, &ce) {
		return nil, ce
	}
	if err != nil {
		return nil, fmt.Errorf("%s:1: no header: %v", file, err)
	}
	contract := strings.Split(report.Header, ",")
	n := len(head) - len(contract)
	if n < 0 || strings.Join(head[n:], ",") != report.Header {
		return nil, fmt.Errorf("%s:1: header %q does not end with akisim's columns %s", file, strings.Join(head, ","), report.Header)
	}
	t := &Table{File: file, Keys: head[:n]}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		var pe *csv.ParseError
		if errors.As(err, &ce) {
			return nil, ce
		}
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s:%d: %v", file, pe.Line, pe.Err)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		line, _ := cr.FieldPos(0) // a quoted field may span lines
		c := rec[n:]
		bytes, err := strconv.ParseInt(c[4], 10, 64)
		if err != nil || bytes < 0 {
			return nil, fmt.Errorf("%s:%d: bytes: %q is not a size (a whole number of bytes, 0 or more)", file, line, c[4])
		}
		v, err := strconv.ParseFloat(c[6], 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: value: %q is not a number", file, line, c[6])
		}
		if math.IsNaN(v) || math.IsInf(v, 0) { // gonum would drop the point and draw empty axes
			return nil, fmt.Errorf("%s:%d: value: %s is not a finite number; a figure draws finite values only", file, line, c[6])
		}
		if math.Abs(v) > MaxValue { // two such values' span would overflow an axis
			return nil, fmt.Errorf("%s:%d: value: %s is beyond ±2^63, the range a figure draws", file, line, c[6])
		}
		t.Rows = append(t.Rows, Row{Row: report.Row{Workload: c[0], Case: c[1], Src: c[2], Dst: c[3], Bytes: bytes,
			Metric: c[5], Value: v, Unit: c[7]}, Point: rec[:n]})
	}
	if len(t.Rows) == 0 {
		return nil, fmt.Errorf("%s: no rows", file)
	}
	return t, nil
}

// oneOf says whether v is in the comma-separated list (an empty list
// takes anything).
func oneOf(list, v string) bool {
	if list == "" {
		return true
	}
	for _, w := range strings.Split(list, ",") {
		if w == v {
			return true
		}
	}
	return false
}

// Filter keeps the rows a figure draws: each field, when set, must match
// (a comma-separated list: one of them).
type Filter struct {
	Workload, Case, Src, Dst, Metric string
	Where                            map[string]string // swept key -> value
}

// Select returns the rows that pass f; an unknown swept key is an error.
func (t *Table) Select(f Filter) ([]Row, error) {
	idx := map[string]int{}
	for k, key := range t.Keys {
		idx[key] = k
	}
	for key := range f.Where {
		if _, ok := idx[key]; !ok {
			return nil, fmt.Errorf("-where %s: not a swept key of %s (its keys: %s)", key, t.File, strings.Join(t.Keys, ", "))
		}
	}
	var out []Row
	for _, r := range t.Rows {
		ok := oneOf(f.Workload, r.Workload) && oneOf(f.Case, r.Case) && oneOf(f.Src, r.Src) && oneOf(f.Dst, r.Dst) &&
			oneOf(f.Metric, r.Metric)
		for key, v := range f.Where {
			ok = ok && r.Point[idx[key]] == v
		}
		if ok {
			out = append(out, r)
		}
	}
	return out, nil
}

// distinct lists the values of field in rows, in order of first use.
func distinct(rows []Row, field func(Row) string) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rows {
		if v := field(r); !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
