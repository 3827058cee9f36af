package main

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const tbExample = "workloads/testdata/transferbench-example.cfg"

// TestTransferBenchOutput runs the example config at 1 MiB and checks the
// layout TransferBench v1.52 prints, line by line.
func TestTransferBenchOutput(t *testing.T) {
	code, out, errs := akisim(t, "-workload", "transferbench", "-cfg", tbExample, "-sizes", "1M")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if lines[0] != "TransferBench v1.52" || lines[1] != strings.Repeat("=", 63) || lines[3] != "## overrides none" {
		t.Errorf("header %q", lines[:4])
	}
	lines = slices.Delete(lines, 2, 6) // the run's setup, in the config's "##" comments
	f := `\s*[0-9]+\.[0-9]{3}`
	pats := []*regexp.Regexp{
		regexp.MustCompile(`^## `),
		regexp.MustCompile(`^Test [1-6]:$`),
		regexp.MustCompile(`^ Executor: (CPU|GPU|DMA) 0[01] \|` + f + ` GB/s \|` + f + ` ms \| +[0-9]{7,} bytes \| [0-9]+\.[0-9]{3} *GB/s \(sum\)$`),
		regexp.MustCompile(`^     Transfer 0[01]  \|` + f + ` GB/s \|` + f + ` ms \| +[0-9]{7,} bytes \| [A-Z0-9]+ -> (CPU|GPU|DMA)0[01](\.\*)?:[0-9]{3} -> [A-Z0-9]+$`),
		regexp.MustCompile(`^ Aggregate \(CPU\)  \|` + f + ` GB/s \|` + f + ` ms \| +[0-9]{7,} bytes \| Overhead: -?[0-9]+\.[0-9]{3} ms$`),
	}
	count := map[int]int{}
	for _, l := range lines[2:] {
		k := -1
		for i, p := range pats {
			if p.MatchString(l) {
				k = i
			}
		}
		if k < 0 {
			t.Errorf("line %q is not TransferBench's", l)
		}
		count[k]++
	}
	// 6 tests, 7 executors (the advanced line has two), 7 transfers.
	if count[0] != 6 || count[1] != 6 || count[2] != 7 || count[3] != 7 || count[4] != 6 {
		t.Errorf("echoes, tests, executors, transfers, aggregates: %v", count)
	}
	for _, want := range []string{"| G0 -> DMA00.*:001 -> G1", "| N -> GPU00:032 -> G0", "| C0 -> CPU00:004 -> N", "| G0 -> GPU00:016 -> G0G1",
		"|      2097152 bytes | G1 -> GPU01:008 -> G0", " Executor: GPU 01 |"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// TestTransferBenchCSV checks OUTPUT_TO_CSV=1: the header, a row per
// transfer, executor and test.
func TestTransferBenchCSV(t *testing.T) {
	code, out, errs := akisim(t, "-workload", "transferbench", "-cfg", tbExample, "-sizes", "1M", "-env", "OUTPUT_TO_CSV=1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if lines[0] != "Test#,Transfer#,NumBytes,Src,Exe,Dst,CUs,BW(GB/s),Time(ms),SrcAddr,DstAddr" {
		t.Errorf("header %q", lines[0])
	}
	if len(lines) != 1+7+7+6 {
		t.Errorf("%d lines, want the header and 20 rows:\n%s", len(lines), out)
	}
	for _, want := range []string{"1,0,1048576,G0,G00,G1,4,", "2,0,1048576,G0,D00.*,G1,1,", "3,1,2097152,G1,G01,G0,8,", "3,ALL,3145728,ALL,G01,ALL,8,", "6,ALL,1048576,ALL,ALL,ALL,ALL,"} {
		if !strings.Contains(out, "\n"+want) {
			t.Errorf("no row starting %q in\n%s", want, out)
		}
	}
	for _, l := range lines[1:] {
		if n := strings.Count(l, ","); n != 10 {
			t.Errorf("row %q has %d commas, want 10", l, n)
		}
	}
}

func TestTransferBenchBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := traceFile(t, "1 4 (G0->G0->G1)\n1 4 (G0->G0->G9)\n")
	negBytes := traceFile(t, "1 4 (G0->G0->G1)\n-1 (G0->G0->G1 4 -5)\n")
	negSE := traceFile(t, "1 -4 (G0->G0->G1)\n")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-workload", "transferbench"}, "-cfg FILE names the TransferBench config"},
		{[]string{"-workload", "transferbench", "-cfg", filepath.Join(dir, "none.cfg")}, "none.cfg"},
		{[]string{"-workload", "transferbench", "-cfg", bad}, bad + ":2: transfer 0: G9: the node has GPUs 0..7"},
		{[]string{"-workload", "transferbench", "-cfg", tbExample, "-sizes", "1X"}, "-sizes: want bytes per transfer"},
		{[]string{"-workload", "transferbench", "-cfg", tbExample, "-sizes", "6"}, "a multiple of 4 bytes"},
		{[]string{"-workload", "transferbench", "-cfg", tbExample, "-env", "GFX_BLOCK_SIZE=100"}, "-env GFX_BLOCK_SIZE=100: must be a multiple of 64"},
		{[]string{"-workload", "transferbench", "-cfg", tbExample, "-env", "NUM_ITERATIONS=0"}, "-env NUM_ITERATIONS=0: must be 1..1048576"},
		{[]string{"-workload", "p2p", "-cfg", tbExample}, "-cfg: applies to -workload transferbench only"},
		// a negative size or count is refused, not read as positive (TransferBench's '-' decoration)
		{[]string{"-workload", "transferbench", "-cfg", negBytes}, negBytes + ":2: transfer 0: BYTES want a byte count 0..2^40"},
		{[]string{"-workload", "transferbench", "-cfg", negSE}, negSE + ":1: want a sub-executor count 0..65536, got \"-4\""},
		{[]string{"-workload", "transferbench", "-cfg", tbExample, "-sizes", "-5"}, "-sizes: want bytes per transfer"},
		{[]string{"-workload", "transferbench", "-cfg", tbExample, "-sizes", "0"}, "-sizes: want bytes per transfer"},
		{[]string{"-workload", "transferbench", "-cfg", "/dev/zero"}, "/dev/zero:1: a line longer than 32768 bytes"},
	}
	for _, c := range cases {
		wantBad(t, c.args, c.want)
	}
}
