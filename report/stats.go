package report

import (
	"fmt"
	"io"
	"iter"
	"math"
	"strconv"
	"strings"
)

// Stat is one gem5-style statistic.
type Stat struct {
	Name  string
	Value float64
	Desc  string
	Unit  string // gem5's unit string: "Tick", "Byte", "(Tick/Second)"
	// Precision is the number of decimals; 0 means gem5's default: none
	// for an integral value, six otherwise.
	Precision int
}

// Dump is one block of stats.txt: what one m5.stats.dump() writes.
type Dump []Stat

const (
	statsBegin = "---------- Begin Simulation Statistics ----------"
	statsEnd   = "---------- End Simulation Statistics   ----------"
)

// descReplacer keeps a description on its line.
var descReplacer = strings.NewReplacer("\n", " ", "\r", " ")

// WriteStats writes dumps as gem5's text output does (base/stats/text.cc
// with spaces and descriptions on): per dump a blank line and the begin
// marker, one line per stat, a blank line and the end marker. A stat line
// is printf("%-40s %12s %10s %10s", name, value, "", "") (the empty
// columns are a scalar's pdf and cdf), then " # desc" unless Desc is
// empty, then " (unit)" unless Unit is empty. Dumps are written one at a
// time, so a long sequence need not be held in memory.
func WriteStats(w io.Writer, dumps iter.Seq[Dump]) error {
	var buf []byte
	for d := range dumps {
		buf = append(buf[:0], "\n"+statsBegin+"\n"...)
		for _, s := range d {
			buf = fmt.Appendf(buf, "%-40s %12s %10s %10s", s.Name, statValue(s.Value, s.Precision), "", "")
			if s.Desc != "" {
				buf = append(buf, " # "...)
				buf = append(buf, descReplacer.Replace(s.Desc)...)
			}
			if s.Unit != "" {
				buf = append(buf, " ("...)
				buf = append(buf, s.Unit...)
				buf = append(buf, ')')
			}
			buf = append(buf, '\n')
			if len(buf) >= 1<<20 { // a cluster's dump is millions of lines: written as it goes
				if _, err := w.Write(buf); err != nil {
					return err
				}
				buf = buf[:0]
			}
		}
		buf = append(buf, "\n"+statsEnd+"\n"...)
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// statValue formats v as gem5's ValueToString: fixed notation with
// precision decimals, or by default none for integral values and six for
// others; NaN and infinities as C++ streams print them.
func statValue(v float64, precision int) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	case precision > 0:
		return strconv.FormatFloat(v, 'f', precision, 64)
	case v == math.Round(v):
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 6, 64)
}
