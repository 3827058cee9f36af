package report

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"text/tabwriter"
)

// tabwriterTable is the layout a Table keeps, as text/tabwriter makes it:
// cells tab-separated, padded to the widest of their column plus two.
func tabwriterTable(w io.Writer, rows []Row) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.ReplaceAll(Header, ",", "\t"))
	for _, r := range rows {
		cells := []string{r.Workload, r.Case, r.Src, r.Dst, fmt.Sprint(r.Bytes), r.Metric, FormatValue(r.Value), r.Unit}
		for i, c := range cells {
			if c == "" {
				c = "-"
			}
			cells[i] = Printable(c)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// A Table spooled and aligned, and WriteTable, print what text/tabwriter
// prints, for rows of every cell width, empty cells, wide runes and
// controls, whatever pieces the spool is read back in.
func TestTableIsTabwriter(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"", "a", "trace", "line12:pageable h2d 64 MiB", "gcd0+gcd1", "Größe", "日本語", "tab\there", "new\nline", "\x1b[31mred"}
	pick := func() string { return words[rng.IntN(len(words))] }
	for n := range 40 {
		var rows []Row
		for range n {
			rows = append(rows, Row{Workload: pick(), Case: pick(), Src: pick(), Dst: pick(), Bytes: rng.Int64N(1 << uint(rng.IntN(40)+1)),
				Metric: pick(), Value: []float64{0, 1.5, -2, 1e9, math.Inf(1), rng.Float64() * 1e4}[rng.IntN(6)], Unit: pick()})
		}
		var want, whole, spool, got bytes.Buffer
		if err := tabwriterTable(&want, rows); err != nil {
			t.Fatal(err)
		}
		if err := WriteTable(&whole, rows); err != nil {
			t.Fatal(err)
		}
		if whole.String() != want.String() {
			t.Fatalf("%d rows: WriteTable\n%s\nwant (tabwriter)\n%s", n, whole.String(), want.String())
		}
		tab, err := NewTable(&spool)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if err := tab.Write(r); err != nil {
				t.Fatal(err)
			}
		}
		al := tab.Aligner(&got)
		for b := spool.Bytes(); len(b) > 0; { // read back in uneven pieces
			k := min(len(b), 1+rng.IntN(50))
			if _, err := al.Write(b[:k]); err != nil {
				t.Fatal(err)
			}
			b = b[k:]
		}
		if got.String() != want.String() {
			t.Fatalf("%d rows:\n%s\nwant (tabwriter)\n%s", n, got.String(), want.String())
		}
	}
}
