package whatif

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/akisim/akisim/report"
)

// Write prints b against a: who each is (config and overrides), the config
// keys whose values differ, every result row side by side, and the
// statistics summed over each side's runs, with the ratio B/A.
func Write(w io.Writer, a, b *Run) error {
	var out strings.Builder
	fmt.Fprintf(&out, "A %s: %s\n", a.Dir, who(a))
	fmt.Fprintf(&out, "B %s: %s\n", b.Dir, who(b))
	writeConfig(&out, a, b)
	if err := writeRows(&out, a, b); err != nil {
		return err
	}
	if err := writeStats(&out, a, b); err != nil {
		return err
	}
	_, err := io.WriteString(w, out.String())
	return err
}

// who names a run's config and overrides as its setup.json gives them.
func who(r *Run) string {
	if r.Setup == nil {
		return "no setup.json"
	}
	lines := strings.Split(r.Setup.Lines(""), "\n")
	return lines[0] + ", " + lines[1] // "config NAME (FILES), overrides ..."
}

// writeConfig lists the keys whose values differ, and those only one
// side has (a bundle that lanes=0 removed).
func writeConfig(out *strings.Builder, a, b *Run) {
	av, bv := map[string]string{}, map[string]string{}
	var keys []string
	for _, kv := range a.Config {
		av[kv.Key] = kv.Value
		keys = append(keys, kv.Key)
	}
	for _, kv := range b.Config {
		bv[kv.Key] = kv.Value
		if _, ok := av[kv.Key]; !ok {
			keys = append(keys, kv.Key)
		}
	}
	var rows [][]string
	for _, k := range keys {
		x, inA := av[k]
		y, inB := bv[k]
		if inA && inB && x == y {
			continue
		}
		rows = append(rows, []string{k, orDash(x, inA), orDash(y, inB)})
	}
	fmt.Fprintf(out, "\nconfig: %d of %d keys differ\n", len(rows), len(keys))
	if len(rows) > 0 {
		table(out, []string{"key", "A", "B"}, rows)
	}
}

// rowKey is what names a result row apart from its value.
type rowKey struct {
	workload, cas, src, dst string
	bytes                   int64
	metric, unit            string
}

func keyOf(r report.Row) rowKey {
	return rowKey{r.Workload, r.Case, r.Src, r.Dst, r.Bytes, r.Metric, r.Unit}
}

// writeRows sets every result row of a beside b's of the same key, in a's
// order, then b's rows a lacks.
func writeRows(out *strings.Builder, a, b *Run) error {
	av, bv := map[rowKey]float64{}, map[rowKey]float64{}
	var keys []rowKey
	for _, side := range []struct {
		rows []report.Row
		vals map[rowKey]float64
		name string
	}{{a.Rows, av, a.Dir}, {b.Rows, bv, b.Dir}} {
		for _, r := range side.rows {
			k := keyOf(r)
			if _, ok := side.vals[k]; ok { // a trace's repeated row: a ratio would pair the wrong ones
				return fmt.Errorf("%s: results.csv: two rows %s %s %s %s %d %s: cannot pair them", side.name, k.workload, k.cas, k.src, k.dst, k.bytes, k.metric)
			}
			side.vals[k] = r.Value
			if _, inA := av[k]; side.name == b.Dir && inA {
				continue
			}
			keys = append(keys, k)
		}
	}
	var rows [][]string
	for _, k := range keys {
		x, inA := av[k]
		y, inB := bv[k]
		rows = append(rows, []string{k.workload, k.cas, k.src, k.dst, strconv.FormatInt(k.bytes, 10), k.metric, k.unit,
			value(x, inA), value(y, inB), ratio(x, inA, y, inB)})
	}
	fmt.Fprintf(out, "\nresults: %d rows\n", len(rows))
	table(out, []string{"workload", "case", "src", "dst", "bytes", "metric", "unit", "A", "B", "B/A"}, rows)
	return nil
}

// hostStats measure the simulator, not the node: they differ between two
// runs of one config, so a what-if's table leaves them out.
var hostStats = []string{"hostSeconds", "hostTickRate", "runIndex", "simFreq"}

// writeStats sums each statistic over a side's runs (its dumps) and sets
// those that differ side by side; it counts the equal ones.
func writeStats(out *strings.Builder, a, b *Run) error {
	sum := func(r *Run) map[string]float64 {
		s := map[string]float64{}
		for _, d := range r.Stats {
			for k, v := range d {
				s[k] += v
			}
		}
		return s
	}
	as, bs := sum(a), sum(b)
	var names []string
	for k := range as {
		names = append(names, k)
	}
	for k := range bs {
		if _, ok := as[k]; !ok {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	var rows [][]string
	equal := 0
	for _, k := range names {
		if slices.Contains(hostStats, k) {
			continue
		}
		x, inA := as[k]
		y, inB := bs[k]
		if inA && inB && x == y {
			equal++
			continue
		}
		rows = append(rows, []string{k, stat(x, inA), stat(y, inB), ratio(x, inA, y, inB)})
	}
	fmt.Fprintf(out, "\nstats, summed over %d and %d runs: %d differ, %d equal (not shown)\n", len(a.Stats), len(b.Stats), len(rows), equal)
	if len(rows) > 0 {
		table(out, []string{"stat", "A", "B", "B/A"}, rows)
	}
	return nil
}

// table writes rows under head, columns aligned.
func table(out *strings.Builder, head []string, rows [][]string) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
}

func value(v float64, ok bool) string { return orDash(report.FormatValue(v), ok) }

// ratio is B/A to three decimals, "-" where there is no ratio (a side
// without the value, or A zero).
func ratio(a float64, inA bool, b float64, inB bool) string {
	switch {
	case !inA || !inB:
		return "-"
	case a == b:
		return "1.000"
	case a == 0:
		return "-"
	}
	return strconv.FormatFloat(b/a, 'f', 3, 64)
}

// stat is a summed statistic: a count exact, as stats.txt writes it, any
// other value to ten significant digits, which drop a float sum's
// last-digit noise; never with an exponent.
func stat(v float64, ok bool) string {
	switch {
	case !ok:
		return "-"
	case v == math.Trunc(v) && math.Abs(v) < 1<<53:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 10, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
}

func orDash(s string, ok bool) string {
	if !ok {
		return "-"
	}
	return s
}
