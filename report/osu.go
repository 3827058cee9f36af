package report

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// OSU micro-benchmarks 7.4 as built by its configure script and run with
// device buffers (`-d rocm D D`). configure.ac defines FIELD_WIDTH 18 and
// FLOAT_PRECISION 2 (osu_util.h's 20 is only a fallback); -d rocm selects
// the "-ROCM" accelerator name that print_preamble puts into the title.
const (
	osuVersion   = "7.4"
	osuAccel     = "-ROCM"
	osuDatatype  = "MPI_CHAR" // the default datatype, MPI_Type_get_name's spelling
	osuSizeWidth = 10         // "%-*d", 10, size
	osuWidth     = 18         // FIELD_WIDTH
	osuPrecision = 2          // FLOAT_PRECISION
)

// osuTest is one benchmark: its BENCHMARK title (%s takes the accelerator)
// and the metric its rows carry. Bandwidth tests print MB/s (1e6 B/s),
// latency tests microseconds. Multi marks osu_mbw_mr, which prints its
// HEADER itself (no accelerator name, no empty line before it), the pairs
// and window on a line of their own, and a message-rate column.
type osuTest struct {
	Title  string
	Metric string
	Multi  bool
}

// osuTests holds the BENCHMARK macros of the 7.4 sources
// (c/mpi/pt2pt/standard and c/mpi/collective/blocking).
var osuTests = map[string]osuTest{
	"osu_latency":        {"OSU MPI%s Latency Test", "latency", false},
	"osu_bw":             {"OSU MPI%s Bandwidth Test", "bandwidth", false},
	"osu_bibw":           {"OSU MPI%s Bi-Directional Bandwidth Test", "bandwidth", false},
	"osu_mbw_mr":         {"OSU MPI Multiple Bandwidth / Message Rate Test", "bandwidth", true},
	"osu_multi_lat":      {"OSU MPI Multi Latency Test", "latency", false}, // BENCHMARK without %s: no accelerator name
	"osu_reduce":         {"OSU MPI%s Reduce Latency Test", "latency", false},
	"osu_bcast":          {"OSU MPI%s Broadcast Latency Test", "latency", false},
	"osu_allreduce":      {"OSU MPI%s Allreduce Latency Test", "latency", false},
	"osu_reduce_scatter": {"OSU MPI%s Reduce_scatter Latency Test", "latency", false},
	"osu_allgather":      {"OSU MPI%s Allgather Latency Test", "latency", false},
	"osu_alltoall":       {"OSU MPI%s All-to-All Personalized Exchange Latency Test", "latency", false},
}

// osuColumn is print_only_header's column title for a metric.
var osuColumn = map[string]string{"bandwidth": "Bandwidth (MB/s)", "latency": "Avg Latency(us)"}

// osuValue is a row's value in the printed unit, MB/s or us; false for a
// unit that is not one of its metric.
func osuValue(r Row) (float64, bool) {
	if r.Metric == "bandwidth" {
		s, ok := toGBps[r.Unit]
		return r.Value * s * 1e3, ok
	}
	s, ok := toUs[r.Unit]
	return r.Value * s, ok
}

// WriteOSU writes rows as the OSU micro-benchmarks 7.4 print them on rank
// 0's stdout. Rows must have Workload "osu", Case a benchmark of osuTests
// with its metric, Bytes >= 1 (OSU skips a size holding no element) and a
// known unit; anything else is an error and nothing is written.
//
// Rows of one (Case, Src, Dst) form one run of the benchmark, printed as
// OSU does: print_preamble's empty line and title, the datatype line,
// print_only_header's header, then printf("%-10d%18.2f\n", size, value)
// per size in increasing order, as OSU's size loop runs. Runs follow in
// the order of their first row, so consecutive runs are separated by the
// empty line each one starts with.
func WriteOSU(w io.Writer, rows []Row) error { return WriteOSUWindow(w, rows, osuWindow) }

// osuWindow is OSU's default window (WINDOW_SIZE_LARGE), which osu_mbw_mr
// prints.
const osuWindow = 64

// WriteOSUWindow is WriteOSU for runs whose window (-W) was window:
// osu_mbw_mr prints "# [ pairs: P ] [ window size: W ]" after its title,
// and its rows carry MB/s and the message rate (MB/s / size) in two
// columns, as osu_mbw_mr.c prints them; pairs are half the run's ranks.
func WriteOSUWindow(w io.Writer, rows []Row, window int) error {
	return WriteOSURuns(w, rows, window, "")
}

// WriteOSURuns is WriteOSUWindow with banner, lines of "# " comments that
// say how the runs were set up, printed under each run's title.
func WriteOSURuns(w io.Writer, rows []Row, window int, banner string) error {
	type run struct {
		Case, Src, Dst string
	}
	var order []run
	byRun := map[run][]Row{}
	for i, r := range rows {
		if err := checkOSURow(r); err != nil {
			return fmt.Errorf("report: osu row %d: %v", i+1, err)
		}
		k := run{r.Case, r.Src, r.Dst}
		if _, ok := byRun[k]; !ok {
			order = append(order, k)
		}
		byRun[k] = append(byRun[k], r)
	}
	var b strings.Builder
	ow := NewOSUWriter(&b, window, banner)
	for _, k := range order {
		rs := byRun[k]
		slices.SortStableFunc(rs, func(a, b Row) int { return cmp.Compare(a.Bytes, b.Bytes) })
		for _, r := range rs {
			ow.Row(r) // checked above; b takes every write
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// OSUWriter prints OSU runs a row at a time, as OSU prints each size when
// it finishes: a run's title block before its first row. Rows must come
// as WriteOSURuns orders them (a run's sizes increasing); the bytes are
// its.
type OSUWriter struct {
	w      io.Writer
	window int
	banner string
	cur    [3]string // the run being printed: case, src, dst
	begun  bool
}

// NewOSUWriter prints to w; window and banner as WriteOSURuns.
func NewOSUWriter(w io.Writer, window int, banner string) *OSUWriter {
	return &OSUWriter{w: w, window: window, banner: banner}
}

// Row prints r, under its run's title block if it starts a run.
func (ow *OSUWriter) Row(r Row) error {
	if err := checkOSURow(r); err != nil {
		return fmt.Errorf("report: osu row: %v", err)
	}
	var b strings.Builder
	t := osuTests[r.Case]
	if k := [3]string{r.Case, r.Src, r.Dst}; !ow.begun || k != ow.cur {
		ow.begun, ow.cur = true, k
		if !t.Multi {
			title := t.Title
			if strings.Contains(title, "%s") {
				title = fmt.Sprintf(title, osuAccel)
			}
			fmt.Fprintf(&b, "\n# %s v%s\n", title, osuVersion)
			b.WriteString(ow.banner)
			fmt.Fprintf(&b, "# Datatype: %s.\n", osuDatatype)
			fmt.Fprintf(&b, "%-*s%*s\n", osuSizeWidth, "# Size", osuWidth, osuColumn[t.Metric])
		} else {
			fmt.Fprintf(&b, "# %s v%s\n", t.Title, osuVersion)
			b.WriteString(ow.banner)
			fmt.Fprintf(&b, "# [ pairs: %d ] [ window size: %d ]\n", len(strings.Split(r.Dst, "+"))/2, ow.window)
			fmt.Fprintf(&b, "# Datatype: %s.\n", osuDatatype)
			fmt.Fprintf(&b, "%-*s%*s%*s\n", osuSizeWidth, "# Size", osuWidth, "MB/s", osuWidth, "Messages/s")
		}
	}
	v, _ := osuValue(r)
	fmt.Fprintf(&b, "%-*d%s", osuSizeWidth, r.Bytes, cFloat(osuWidth, osuPrecision, v))
	if t.Multi {
		b.WriteString(cFloat(osuWidth, osuPrecision, 1e6*v/float64(r.Bytes))) // rate = 1e6 x MB/s / size
	}
	b.WriteString("\n")
	_, err := io.WriteString(ow.w, b.String())
	return err
}

func checkOSURow(r Row) error {
	if r.Workload != "osu" {
		return fmt.Errorf("workload %q is not osu", r.Workload)
	}
	t, ok := osuTests[r.Case]
	if !ok {
		return fmt.Errorf("case %q is no OSU benchmark", r.Case)
	}
	if r.Metric != t.Metric {
		return fmt.Errorf("%s prints %s, row has metric %q", r.Case, t.Metric, r.Metric)
	}
	if _, ok := osuValue(r); !ok {
		return fmt.Errorf("unit %q is not a %s unit", r.Unit, r.Metric)
	}
	if r.Bytes < 1 {
		return fmt.Errorf("message size %d bytes: OSU prints sizes from 1 byte", r.Bytes)
	}
	return nil
}

// cFloat is C's printf("%*.*f", width, prec, v), including glibc's
// spelling of infinities and NaN, which Go's fmt spells differently.
func cFloat(width, prec int, v float64) string {
	switch {
	case math.IsNaN(v):
		s := "nan"
		if math.Signbit(v) {
			s = "-nan"
		}
		return fmt.Sprintf("%*s", width, s)
	case math.IsInf(v, 1):
		return fmt.Sprintf("%*s", width, "inf")
	case math.IsInf(v, -1):
		return fmt.Sprintf("%*s", width, "-inf")
	}
	return fmt.Sprintf("%*.*f", width, prec, v)
}
