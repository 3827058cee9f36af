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
	var sizes []int64
	val := map[int64]map[string]float64{}
	for _, r := range rows {
		if val[r.Bytes] == nil {
			val[r.Bytes] = map[string]float64{}
			sizes = append(sizes, r.Bytes)
		}
		val[r.Bytes][r.Metric] = r.Value
	}
	sum, n := 0.0, 0
	for _, s := range sizes {
		v := val[s]
		p("%12d  %12d  %8s  %6s  %6d", s, s/t.TypeBytes/max(t.CountDivisor, 1), t.Type, t.Op, t.Root)
		for _, place := range []string{"", "_inplace"} {
			p("  %7s  %6.2f  %6.2f  %5s", rcclTime(v["latency"+place]), v["bandwidth"+place], v["busbw"+place], "N/A")
			sum += v["busbw"+place]
			n++
		}
		p("\n")
	}
	p("# Out of bounds values : %d %s\n", 0, "OK")
	// C's %g: 6 significant digits (Go's %g prints every digit needed)
	p("# Avg bus bandwidth    : %s %s\n", strconv.FormatFloat(sum/float64(max(n, 1)), 'g', 6, 64), "")
	p("#\n")
	p("\n")
	_, err := io.WriteString(w, b.String())
	return err
}
