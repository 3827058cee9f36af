package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
)

// Stat is one gem5-style statistic.
type Stat struct {
	Name  string
	Value float64
	Desc  string
	Unit  string
}

const (
	statsBegin = "---------- Begin Simulation Statistics ----------"
	statsEnd   = "---------- End Simulation Statistics   ----------"
)

// WriteStats writes stats in gem5's stats.txt layout, in the order given:
// the begin marker, one line per stat with the name left-justified in 40
// columns, the value right-justified in 12 (integral values without
// decimals, others with 6) and "  # desc (Unit)", then the end marker.
// A name of 40 or more characters is followed by one space. An empty Unit
// drops " (Unit)"; an empty Desc and Unit drop the comment.
func WriteStats(w io.Writer, stats []Stat) error {
	buf := []byte(statsBegin + "\n")
	for _, s := range stats {
		name := s.Name
		if len(name) >= 40 {
			name += " "
		}
		buf = fmt.Appendf(buf, "%-40s%12s", name, statValue(s.Value))
		if s.Desc != "" || s.Unit != "" {
			buf = append(buf, "  # "...)
			buf = append(buf, s.Desc...)
			if s.Unit != "" {
				if s.Desc != "" {
					buf = append(buf, ' ')
				}
				buf = append(buf, '(')
				buf = append(buf, s.Unit...)
				buf = append(buf, ')')
			}
		}
		buf = append(buf, '\n')
	}
	buf = append(buf, statsEnd+"\n"...)
	_, err := w.Write(buf)
	return err
}

// statValue formats integral values without decimals and others with six,
// printing NaN and infinities as gem5 (C printf) does.
func statValue(v float64) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	case v == math.Trunc(v) && math.Abs(v) < 1<<53:
		if v == 0 {
			return "0"
		}
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 6, 64)
}
