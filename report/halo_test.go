package report

import (
	"bytes"
	"testing"
)

// The pack rows unstacked by label, as bm_plot.py's table: a line per
// grid and field count, a column per label, "-" where a label has no row.
func TestWriteHalo(t *testing.T) {
	row := func(c string, v float64) Row { return Row{"halo", c, "gcd0", "gcd0", 0, "time", v, "us"} }
	rows := []Row{
		row("mpi-pack/256x256/nf:1/r:4", 140.3217),
		row("mpi-pack/256x256/nf:16/r:4", 2215.1),
		row("acm-pack-batched/256x256/nf:1/r:4", 12.58),
		row("acm-pack-batched/256x256/nf:16/r:4", 12.97),
		row("acm-pack-packed/256x256/nf:16/r:4", 89.5),
	}
	var b bytes.Buffer
	if err := WriteHalo(&b, rows); err != nil {
		t.Fatal(err)
	}
	want := `# median time (us) per label; one line per set of arguments
dims     nf  r  mpi-pack  acm-pack-batched  acm-pack-packed
256x256  1   4  140.3217  12.58             -
256x256  16  4  2215.1    12.97             89.5
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
