package report

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// osuRows are one run of bench from 1 byte to 4 MiB as OSU's default
// range, from a fixed latency and link bandwidth (not a simulation).
func osuRows(bench string) []Row {
	var rows []Row
	for n := int64(1); n <= 1<<22; n *= 2 {
		t := 2.5e-6 + float64(n)/50e9 // seconds per message
		r := Row{"osu", bench, "gcd0", "gcd0+gcd1", n, "bandwidth", float64(n) / t / 1e9, "GB/s"}
		switch {
		case osuTests[bench].Metric == "latency":
			r.Metric, r.Value, r.Unit = "latency", t*1e6, "us"
		case bench == "osu_bibw":
			r.Value *= 2
		}
		rows = append(rows, r)
	}
	return rows
}

func writeOSU(t *testing.T, rows []Row) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteOSU(&b, rows); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestWriteOSUGolden(t *testing.T) {
	for _, bench := range []string{"osu_latency", "osu_bw", "osu_bibw",
		"osu_reduce", "osu_bcast", "osu_allreduce", "osu_reduce_scatter", "osu_allgather", "osu_alltoall"} {
		t.Run(bench, func(t *testing.T) {
			checkGolden(t, bench+".txt", []byte(writeOSU(t, osuRows(bench))))
		})
	}
}

// The lines OSU 7.4 prints with -d rocm D D; the header spacing is that of
// published osu_bw/osu_latency output (FIELD_WIDTH 18). Runs of several
// benchmarks and GCD pairs come out as one block each, in the order of
// their first row, sizes increasing within a block; units other than GB/s
// and us are converted.
func TestWriteOSULayout(t *testing.T) {
	const (
		bw  = "\n# OSU MPI-ROCM Bandwidth Test v7.4\n# Datatype: MPI_CHAR.\n# Size      Bandwidth (MB/s)\n"
		lat = "# Datatype: MPI_CHAR.\n# Size       Avg Latency(us)\n"
	)
	for _, c := range []struct {
		rows []Row
		want string
	}{{
		[]Row{
			{"osu", "osu_bw", "gcd0", "gcd0+gcd1", 1048576, "bandwidth", 49.98765, "GB/s"},
			{"osu", "osu_bw", "gcd0", "gcd0+gcd1", 1, "bandwidth", 0.000524, "GB/s"},
		},
		bw + "1                       0.52\n" +
			"1048576             49987.65\n",
	}, {
		[]Row{{"osu", "osu_latency", "gcd0", "gcd0+gcd6", 8, "latency", 2346, "ns"}},
		"\n# OSU MPI-ROCM Latency Test v7.4\n" + lat +
			"8                       2.35\n",
	}, {
		[]Row{
			{"osu", "osu_bw", "gcd0", "gcd0+gcd1", 4, "bandwidth", 4, "MB/s"},
			{"osu", "osu_bw", "gcd0", "gcd0+gcd2", 2, "bandwidth", 0.003, "GB/s"},
			{"osu", "osu_bw", "gcd0", "gcd0+gcd1", 2, "bandwidth", 0.002, "GB/s"},
			{"osu", "osu_allreduce", "gcd0", "gcd0+gcd1+gcd6+gcd7", 1024, "latency", 0.0000175, "s"},
			{"osu", "osu_bw", "gcd0", "gcd0+gcd2", 1, "bandwidth", 1500, "kB/s"},
		},
		bw + "2                       2.00\n" +
			"4                       4.00\n" +
			bw + "1                       1.50\n" +
			"2                       3.00\n" +
			"\n# OSU MPI-ROCM Allreduce Latency Test v7.4\n" + lat +
			"1024                   17.50\n",
	}} {
		if got := writeOSU(t, c.rows); got != c.want {
			t.Errorf("got\n%s\nwant\n%s", got, c.want)
		}
	}
}

func TestWriteOSUBadRows(t *testing.T) {
	good := Row{"osu", "osu_bw", "gcd0", "gcd0+gcd1", 1, "bandwidth", 1, "GB/s"}
	for _, c := range []struct {
		change func(*Row)
		want   string
	}{
		{func(r *Row) { r.Workload = "p2p" }, `row 2: workload "p2p" is not osu`},
		{func(r *Row) { r.Case = "osu_put_latency" }, `row 2: case "osu_put_latency" is no OSU benchmark`},
		{func(r *Row) { r.Metric = "latency" }, `row 2: osu_bw prints bandwidth, row has metric "latency"`},
		{func(r *Row) { r.Unit = "us" }, `row 2: unit "us" is not a bandwidth unit`},
		{func(r *Row) { r.Case, r.Metric, r.Unit = "osu_latency", "latency", "GB/s" }, `row 2: unit "GB/s" is not a latency unit`},
		{func(r *Row) { r.Bytes = 0 }, `row 2: message size 0 bytes: OSU prints sizes from 1 byte`},
	} {
		bad := good
		c.change(&bad)
		var b bytes.Buffer
		err := WriteOSU(&b, []Row{good, bad})
		if err == nil || !strings.Contains(err.Error(), c.want) || b.Len() != 0 {
			t.Errorf("error %v, output %q; want %q and no output", err, b.String(), c.want)
		}
	}
}

// Values OSU's printf spells in C's words: a zero time gives inf.
func TestCFloat(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{math.Inf(1), "               inf"},
		{math.Inf(-1), "              -inf"},
		{math.NaN(), "               nan"},
		{0.005, "              0.01"}, // 0.005 is stored just above a half
		{0.125, "              0.12"}, // an exact half rounds to even, as glibc
		{-1.5, "             -1.50"},
	} {
		if got := cFloat(18, 2, c.v); got != c.want {
			t.Errorf("cFloat(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

// osu_mbw_mr prints its own header (no accelerator, no empty line first),
// the pairs (half the run's GCDs) and window, and the message rate beside
// MB/s; osu_multi_lat prints osu_latency's preamble and column, its title
// without an accelerator name (its BENCHMARK has no %s).
func TestWriteOSUMulti(t *testing.T) {
	bw := Row{"osu", "osu_mbw_mr", "gcd0", "gcd0+gcd1+gcd2+gcd3", 1024, "bandwidth", 2.048, "GB/s"}
	lat := Row{"osu", "osu_multi_lat", "gcd0", "gcd0+gcd8", 8, "latency", 3, "us"}
	var b bytes.Buffer
	if err := WriteOSUWindow(&b, []Row{bw, lat}, 16); err != nil {
		t.Fatal(err)
	}
	want := "# OSU MPI Multiple Bandwidth / Message Rate Test v7.4\n# [ pairs: 2 ] [ window size: 16 ]\n# Datatype: MPI_CHAR.\n" +
		"# Size                  MB/s        Messages/s\n1024                 2048.00        2000000.00\n" +
		"\n# OSU MPI Multi Latency Test v7.4\n# Datatype: MPI_CHAR.\n# Size       Avg Latency(us)\n8                       3.00\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}
