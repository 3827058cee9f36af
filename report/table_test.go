package report

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// A Table spooled and aligned prints what WriteTable (text/tabwriter)
// prints, for rows of every cell width, empty cells, wide runes and
// controls, whatever pieces the spool is read back in.
func TestTableIsWriteTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"", "a", "trace", "line12:pageable h2d 64 MiB", "gcd0+gcd1", "Größe", "日本語", "tab\there", "new\nline", "\x1b[31mred"}
	pick := func() string { return words[rng.IntN(len(words))] }
	for n := range 40 {
		var rows []Row
		for range n {
			rows = append(rows, Row{Workload: pick(), Case: pick(), Src: pick(), Dst: pick(), Bytes: rng.Int64N(1 << uint(rng.IntN(40)+1)),
				Metric: pick(), Value: []float64{0, 1.5, -2, 1e9, math.Inf(1), rng.Float64() * 1e4}[rng.IntN(6)], Unit: pick()})
		}
		var want, spool, got bytes.Buffer
		if err := WriteTable(&want, rows); err != nil {
			t.Fatal(err)
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
			t.Fatalf("%d rows:\n%s\nwant (WriteTable)\n%s", n, got.String(), strings.TrimSpace(want.String()))
		}
	}
}
