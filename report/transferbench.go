package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// TransferBenchVersion is the TransferBench release whose output akisim
// prints (ROCm/TransferBench v1.52).
const TransferBenchVersion = "1.52"

// TransferBenchCSVHeader is the header of TransferBench's CSV output
// (OUTPUT_TO_CSV=1) for config tests, as v1.50 printed it.
const TransferBenchCSVHeader = "Test#,Transfer#,NumBytes,Src,Exe,Dst,CUs,BW(GB/s),Time(ms),SrcAddr,DstAddr"

// tbEntry is one executor, transfer or aggregate of a test, from its rows.
type tbEntry struct {
	kind    string // "executor", "transfer", "aggregate"
	exe     string // GPU00
	index   int    // transfer index
	desc    string // G0->GPU00:004->G1
	bytes   int64
	metrics map[string]float64
}

// tbTest is one test's entries in row order.
type tbTest struct {
	num     int
	entries []*tbEntry
}

// tbTests groups TransferBench rows (workloads.TransferBench) by test:
// cases testN/EXE (executor), testN/EXE/transferNN/DESC and testN/aggregate.
func tbTests(rows []Row) ([]*tbTest, error) {
	var tests []*tbTest
	byCase := map[string]*tbEntry{}
	for _, r := range rows {
		parts := strings.SplitN(r.Case, "/", 4)
		num, err := strconv.Atoi(strings.TrimPrefix(parts[0], "test"))
		if err != nil || !strings.HasPrefix(parts[0], "test") {
			return nil, fmt.Errorf("transferbench: row case %q is not testN/...", r.Case)
		}
		e := byCase[r.Case]
		if e == nil {
			e = &tbEntry{bytes: r.Bytes, metrics: map[string]float64{}}
			switch {
			case len(parts) == 2 && parts[1] == "aggregate":
				e.kind = "aggregate"
			case len(parts) == 2:
				e.kind, e.exe = "executor", parts[1]
			case len(parts) == 4:
				e.kind, e.exe, e.desc = "transfer", parts[1], parts[3]
				if e.index, err = strconv.Atoi(strings.TrimPrefix(parts[2], "transfer")); err != nil {
					return nil, fmt.Errorf("transferbench: row case %q has no transfer index", r.Case)
				}
			default:
				return nil, fmt.Errorf("transferbench: row case %q is not a TransferBench case", r.Case)
			}
			byCase[r.Case] = e
			if len(tests) == 0 || tests[len(tests)-1].num != num {
				tests = append(tests, &tbTest{num: num})
			}
			t := tests[len(tests)-1]
			t.entries = append(t.entries, e)
		}
		e.metrics[r.Metric] = r.Value
	}
	return tests, nil
}

// WriteTransferBench writes rows as TransferBench prints a config run,
// with HIDE_ENV=1 (akisim models none of the settings it would list):
// the "##" lines of the config (echo: before test N, key N; tail: after
// the last test), then per test its executors, each followed by its
// transfers, and the aggregate. With csv, TransferBench's CSV instead.
// setup, lines saying how the run was set up (Setup.Lines), goes under the
// text's title.
func WriteTransferBench(w io.Writer, rows []Row, echo map[int][]string, tail []string, csv bool, setup string) error {
	tests, err := tbTests(rows)
	if err != nil {
		return err
	}
	b := &strings.Builder{}
	if csv {
		fmt.Fprintln(b, TransferBenchCSVHeader)
	} else {
		fmt.Fprintf(b, "TransferBench v%s\n", TransferBenchVersion)
		fmt.Fprintln(b, strings.Repeat("=", 63))
		b.WriteString(setup)
	}
	for _, t := range tests {
		if csv {
			writeTBCSV(b, t)
			continue
		}
		for _, l := range echo[t.num] {
			fmt.Fprintln(b, l)
		}
		fmt.Fprintf(b, "Test %d:\n", t.num)
		for _, e := range t.entries {
			m := e.metrics
			switch e.kind {
			case "executor":
				name, idx := tbSplitExe(e.exe)
				fmt.Fprintf(b, " Executor: %3s %s | %7.3f GB/s | %8.3f ms | %12d bytes | %-7.3f GB/s (sum)\n",
					name, idx, m["bandwidth"], m["time"], e.bytes, m["bandwidth_sum"])
			case "transfer":
				fmt.Fprintf(b, "     Transfer %02d  | %7.3f GB/s | %8.3f ms | %12d bytes | %s\n",
					e.index, m["bandwidth"], m["time"], e.bytes, strings.ReplaceAll(e.desc, "->", " -> "))
			case "aggregate":
				fmt.Fprintf(b, " Aggregate (CPU)  | %7.3f GB/s | %8.3f ms | %12d bytes | Overhead: %.3f ms\n",
					m["bandwidth"], m["time"], e.bytes, m["overhead"])
			}
		}
	}
	if !csv {
		for _, l := range tail {
			fmt.Fprintln(b, l)
		}
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// writeTBCSV writes one test as v1.50's CSV: each executor's transfers,
// then the executor (the test's bytes, the executor's sub-executors), then
// the aggregate. akisim has no virtual addresses: SrcAddr and DstAddr are
// empty.
func writeTBCSV(b *strings.Builder, t *tbTest) {
	var total int64
	for _, e := range t.entries {
		if e.kind == "aggregate" {
			total = e.bytes
		}
	}
	var pending []*tbEntry // an executor's row waits for its transfers
	flush := func() {
		for _, e := range pending {
			name, idx := tbSplitExe(e.exe)
			cus := 0
			for _, x := range t.entries {
				if x.kind == "transfer" && x.exe == e.exe {
					cus += tbSE(x.desc)
				}
			}
			fmt.Fprintf(b, "%d,ALL,%d,ALL,%c%s,ALL,%d,%.3f,%.3f,ALL,ALL\n", t.num, total, name[0], idx, cus, e.metrics["bandwidth"], e.metrics["time"])
		}
		pending = nil
	}
	for _, e := range t.entries {
		switch e.kind {
		case "executor":
			flush()
			pending = append(pending, e)
		case "transfer":
			f := strings.Split(e.desc, "->")
			exe, _, _ := strings.Cut(f[1], ":")
			name, idx := tbSplitExe(exe)
			fmt.Fprintf(b, "%d,%d,%d,%s,%c%s,%s,%d,%.3f,%.3f,,\n", t.num, e.index, e.bytes, f[0], name[0], idx, f[2], tbSE(e.desc),
				e.metrics["bandwidth"], e.metrics["time"])
		case "aggregate":
			flush()
			fmt.Fprintf(b, "%d,ALL,%d,ALL,ALL,ALL,ALL,%.3f,%.3f,ALL,ALL\n", t.num, e.bytes, e.metrics["bandwidth"], e.metrics["time"])
		}
	}
	flush()
}

// tbSplitExe splits GPU00 (or DMA00.*) into the executor's name and the
// rest.
func tbSplitExe(exe string) (string, string) {
	if len(exe) < 3 {
		return exe, ""
	}
	return exe[:3], exe[3:]
}

// tbSE is the sub-executor count of a transfer description (…:004->…).
func tbSE(desc string) int {
	f := strings.Split(desc, "->")
	if len(f) != 3 {
		return 0
	}
	_, se, _ := strings.Cut(f[1], ":")
	n, _ := strconv.Atoi(se)
	return n
}
