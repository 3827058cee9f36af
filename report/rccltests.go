package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// RCCLTests describes an rccl-tests run for its text output (src/common.cu
// of ROCm/rccl-tests): the command line's settings and the devices.
type RCCLTests struct {
	MinBytes, MaxBytes int64
	StepFactor         int   // -f; 1: sizes step by StepBytes (-i)
	StepBytes          int64 // -i
	Check              int   // -c: the header's validation count
	Blocking           bool  // -z 1
	Threads            int   // -t: the header's nThread (0: 1), each driving an equal share of Devices
	Warmup, Iters      int
	Devices            []RCCLDevice
	Type               string // -d
	TypeBytes          int64
	Op                 string   // "none" for collectives that do not reduce
	Root               int      // -1 for unrooted collectives
	CountDivisor       int64    // the count column is elements per rank for AllGather, ReduceScatter, AlltoAll
	Info               []string // NCCL_DEBUG=INFO lines, printed while the communicator is created
	Setup              string   // "# " lines saying how the run was set up (Setup.Lines), under the version
}

// RCCLDevice is one "# Rank" line: a rank's process and device.
type RCCLDevice struct {
	Rank, Pid, Device int
	Host, BusID, Name string
}

// rcclTime is rccl-tests' time column: 2 decimals below 100 us, 1 below
// 10 ms, none above.
func rcclTime(us float64) string {
	switch {
	case us >= 10000:
		return fmt.Sprintf("%7.0f", us)
	case us >= 100:
		return fmt.Sprintf("%7.1f", us)
	}
	return fmt.Sprintf("%7.2f", us)
}

// WriteRCCLTests prints rows (latency, bandwidth, busbw and their
// _inplace twins, per size) as rccl-tests does. The data is not checked
// (no values are computed), so #wrong is N/A and validation 0, as with -c 0.
func WriteRCCLTests(w io.Writer, t RCCLTests, rows []Row) error {
	rw := NewRCCLTestsWriter(w, t)
	if err := rw.Head(); err != nil {
		return err
	}
	var sizes []int64
	bySize := map[int64][]Row{}
	for _, r := range rows {
		if bySize[r.Bytes] == nil {
			sizes = append(sizes, r.Bytes)
		}
		bySize[r.Bytes] = append(bySize[r.Bytes], r)
	}
	for _, s := range sizes {
		if err := rw.Size(bySize[s]); err != nil {
			return err
		}
	}
	return rw.Close()
}

// RCCLTestsWriter prints an rccl-tests run as it goes, as rccl-tests does:
// the head, then a line as each size finishes, then the summary. The bytes
// are WriteRCCLTests's.
type RCCLTestsWriter struct {
	w      io.Writer
	t      RCCLTests
	sum    float64 // busbw over the sizes, out of place and in place
	n      int
	headed bool
}

// NewRCCLTestsWriter prints t's run to w.
func NewRCCLTestsWriter(w io.Writer, t RCCLTests) *RCCLTestsWriter {
	return &RCCLTestsWriter{w: w, t: t}
}

// Head prints the settings, the devices and the column titles, once.
func (rw *RCCLTestsWriter) Head() error {
	if rw.headed {
		return nil
	}
	rw.headed = true
	t := rw.t
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	step, unit := int64(t.StepFactor), "factor"
	if t.StepFactor <= 1 {
		step, unit = t.StepBytes, "bytes"
	}
	threads := max(1, t.Threads)
	p("# nThread %d nGpus %d minBytes %d maxBytes %d step: %d(%s) warmup iters: %d iters: %d agg iters: %d validation: %d graph: %d\n",
		threads, len(t.Devices)/threads, t.MinBytes, t.MaxBytes, step, unit, t.Warmup, t.Iters, 1, t.Check, 0)
	if t.Blocking {
		p("# Blocking Enabled: wait for completion and barrier after each collective \n")
	}
	p("#\n")
	p("rccl-tests: Version akisim\n")
	b.WriteString(t.Setup)
	p("# Using devices\n")
	for _, d := range t.Devices {
		p("#   Rank %2d Pid %6d on %10s device %2d [%s] %s\n", d.Rank, d.Pid, d.Host, d.Device, d.BusID, d.Name)
	}
	for _, l := range t.Info {
		p("%s\n", l)
	}
	p("#\n")
	p("# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          \n", "", "", "", "", "")
	p("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s %6s  %7s  %6s  %6s %6s\n", "size", "count", "type", "redop", "root",
		"time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw", "#wrong")
	p("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %5s  %7s  %6s  %6s  %5s\n", "(B)", "(elements)", "", "", "",
		"(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "")
	_, err := io.WriteString(rw.w, b.String())
	return err
}

// Size prints the line of one size: rows are its metrics, all of one
// Bytes (the rows one run makes).
func (rw *RCCLTestsWriter) Size(rows []Row) error {
	if len(rows) == 0 {
		return nil
	}
	if err := rw.Head(); err != nil {
		return err
	}
	t := rw.t
	v := map[string]float64{}
	for _, r := range rows {
		v[r.Metric] = r.Value
	}
	s := rows[0].Bytes
	var b strings.Builder
	fmt.Fprintf(&b, "%12d  %12d  %8s  %6s  %6d", s, s/t.TypeBytes/max(t.CountDivisor, 1), t.Type, t.Op, t.Root)
	for _, place := range []string{"", "_inplace"} {
		fmt.Fprintf(&b, "  %7s  %6.2f  %6.2f  %5s", rcclTime(v["latency"+place]), v["bandwidth"+place], v["busbw"+place], "N/A")
		rw.sum += v["busbw"+place]
		rw.n++
	}
	b.WriteString("\n")
	_, err := io.WriteString(rw.w, b.String())
	return err
}

// Close prints the summary under the sizes.
func (rw *RCCLTestsWriter) Close() error {
	if err := rw.Head(); err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Out of bounds values : %d %s\n", 0, "OK")
	// C's %g: 6 significant digits (Go's %g prints every digit needed)
	fmt.Fprintf(&b, "# Avg bus bandwidth    : %s %s\n", strconv.FormatFloat(rw.sum/float64(max(rw.n, 1)), 'g', 6, 64), "")
	b.WriteString("#\n\n")
	_, err := io.WriteString(rw.w, b.String())
	return err
}
