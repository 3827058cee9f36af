package workloads

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/akisim/akisim/config"
)

func parseTB(t *testing.T, text string) *TBConfig {
	t.Helper()
	cfg, err := ParseTransferBench("t.cfg", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestTransferBenchParseExample(t *testing.T) {
	f, err := os.Open("testdata/transferbench-example.cfg")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := ParseTransferBench("example.cfg", f)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Lines) != 6 {
		t.Fatalf("%d test lines, want 6", len(cfg.Lines))
	}
	adv := cfg.Lines[2]
	if len(adv.Transfers) != 2 || adv.Transfers[0].Bytes != 1<<20 || adv.Transfers[1].Bytes != 2<<20 ||
		adv.Transfers[0].SE != 4 || adv.Transfers[1].SE != 8 || adv.Transfers[1].ExeIndex != 1 {
		t.Errorf("advanced line: %+v", adv.Transfers)
	}
	if m := cfg.Lines[3].Transfers[0]; len(m.Srcs) != 0 || len(m.Dsts) != 1 || m.SE != 32 {
		t.Errorf("memset: %+v", m)
	}
	if b := cfg.Lines[5].Transfers[0]; len(b.Dsts) != 2 || b.Dsts[1] != (TBMem{'G', 1}) {
		t.Errorf("broadcast: %+v", b)
	}
	if d := cfg.Lines[1].Transfers[0]; d.Exe != 'D' || d.ExeSub != -1 || d.Bytes != 0 {
		t.Errorf("DMA: %+v", d)
	}
	if len(cfg.Lines[0].Echo) != 1 || !strings.HasPrefix(cfg.Lines[0].Echo[0], "## GPU 0's kernel") {
		t.Errorf("echo of line 1: %q", cfg.Lines[0].Echo)
	}
	// Decoration is optional, as in TransferBench.
	plain := parseTB(t, "2 4 g0 g0 g1 G1 G1 G0\n")
	if len(plain.Lines[0].Transfers) != 2 || plain.Lines[0].Transfers[1].Srcs[0] != (TBMem{'G', 1}) {
		t.Errorf("undecorated line: %+v", plain.Lines[0].Transfers)
	}
}

// A config past TBMaxFileBytes is refused, not read on: a file of
// comments costs nothing per line to parse.
func TestTransferBenchParseCapsTheFile(t *testing.T) {
	line := "# " + strings.Repeat("x", 1000) + "\n"
	r := io.MultiReader(strings.NewReader("1 4 (G0->G0->G1)\n"), strings.NewReader(strings.Repeat(line, TBMaxFileBytes/len(line)+1)))
	_, err := ParseTransferBench("t.cfg", r)
	if err == nil || !strings.Contains(err.Error(), "t.cfg: larger than 16 MiB") {
		t.Errorf("a config past the cap: %v", err)
	}
}

func TestTransferBenchParseErrors(t *testing.T) {
	cases := []struct{ text, want string }{
		{"# only a comment\n", "t.cfg: no test lines"},
		{"1 4 (G0->G0->G1)\nx 4 (G0->G0->G1)\n", "t.cfg:2: want a transfer count"},
		{"2 4 (G0->G0->G1)\n", "t.cfg:1: want 2 transfers (SRC->EXE->DST)"},
		{"-1 (G0->G0->G1 4)\n", "t.cfg:1: want 1 transfers (SRC->EXE->DST SE BYTES)"},
		{"1 4 (X0->G0->G1)\n", "t.cfg:1: transfer 0: SRC \"X0\": unknown memory type"},
		{"1 4 (G0->Q0->G1)\n", "t.cfg:1: transfer 0: EXE \"Q0\": unknown executor"},
		{"1 4 (G0->G->G1)\n", "t.cfg:1: transfer 0: EXE \"G\": want an index"},
		{"1 4 (N0->G0->N0)\n", "at least one src or dst"},
		{"1 1 (G0G1->D0->G1)\n", "a DMA executor copies one SRC to one DST"},
		{"1 0 (G0->G0->G1)\n", "0 sub-executors"},
		{"-1 (G0->G0->G1 4 1X)\n", "BYTES want a byte count"},
		{"1 4x (G0->G0->G1)\n", "want a sub-executor count"},
		// a '-' that starts a number is its sign: TransferBench's decoration would read -5 as 5
		{"1 4 (G0->G0->G1)\n-1 (G0->G0->G1 4 -5)\n", "t.cfg:2: transfer 0: BYTES want a byte count 0..2^40, with an optional K, M or G, got \"-5\""},
		{"-1 (G0->G0->G1 -4 1M)\n", "t.cfg:1: transfer 0: want a sub-executor count 0..65536, got \"-4\""},
		{"1 -4 (G0->G0->G1)\n", "t.cfg:1: want a sub-executor count 0..65536, got \"-4\""},
		{"-2 (G0->G0->G1 4 1M) (G1->G1->G0 4\t-1M)\n", "t.cfg:1: transfer 1: BYTES want a byte count 0..2^40, with an optional K, M or G, got \"-1M\""},
		{"1 4 (G0->G0->G1)\n1 4 (G0->G0->G1 " + strings.Repeat("x", 40000) + ")\n", "t.cfg:2: a line longer than 32768 bytes"},
	}
	for _, c := range cases {
		_, err := ParseTransferBench("t.cfg", strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %v, want one line containing %q", c.text, err, c.want)
		}
	}
}

func TestTransferBenchChecksTheNode(t *testing.T) {
	c := frontier(t)
	cases := []struct{ text, want string }{
		{"1 4 (G0->G0->G8)\n", "t.cfg:1: transfer 0: G8: the node has GPUs 0..7"},
		{"1 4 (C4->C0->G0)\n", "C4: the node has NUMA domains 0..3"},
		{"1 4 (M0->G0->G1)\n", "memory type M (managed) is not modelled"},
		{"1 1 (G0->D0.1->G1)\n", "D0.1: a DMA executor on one SDMA engine is not modelled"},
		{"1 1 (G0->D1->G1)\n", "the copy runs on GPU 0's engines"},
		{"1 1 (C0->D0->C1)\n", "between two host memories is not modelled"},
	}
	for _, x := range cases {
		tb := tbOn(c, parseTB(t, x.text))
		if _, err := tb.Runs(); err == nil || !strings.Contains(err.Error(), x.want) {
			t.Errorf("%q: error %v, want %q", x.text, err, x.want)
		}
	}
}

// tbOn is a TransferBench of cfg on node c with its config's settings, at
// 16 MiB and fewer iterations.
func tbOn(c *config.Node, cfg *TBConfig) TransferBench {
	return TransferBench{Config: cfg, Sizes: []int64{16 << 20}, Iterations: 2, Warmups: 1, BlockSize: c.Env.TBBlockSize,
		Unroll: c.Env.TBUnroll, GCDs: c.GCD.Count, NUMA: c.Host.NUMADomains}
}

// tbRows runs a config's tests and returns the rows by case and metric.
func tbRows(t *testing.T, text string) map[string]float64 {
	t.Helper()
	c := frontier(t)
	runs, err := tbOn(c, parseTB(t, text)).Runs()
	res := mustExecute(t, c, runs, err)
	got := map[string]float64{}
	for _, r := range res.Rows {
		got[r.Case+" "+r.Metric] = r.Value
	}
	return got
}

func TestTransferBenchMoreThreadblocksMoreBandwidth(t *testing.T) {
	got := tbRows(t, "1 1 (G0->G0->G1)\n1 2 (G0->G0->G1)\n1 8 (G0->G0->G1)\n1 1 (G0->D0->G1)\n")
	one := got["test1/GPU00/transfer00/G0->GPU00:001->G1 bandwidth"]
	two := got["test2/GPU00/transfer00/G0->GPU00:002->G1 bandwidth"]
	eight := got["test3/GPU00/transfer00/G0->GPU00:008->G1 bandwidth"]
	// A threadblock keeps 256 x 8 x 16 B in flight: one is latency-bound,
	// two get most of twice as much (launch and drain are shared), eight
	// fall short of eight times one at the quad xGMI bundle.
	if !(one > 10 && two > 1.6*one && eight > two && eight < 8*one) {
		t.Errorf("GFX bandwidth by threadblocks 1, 2, 8: %.1f, %.1f, %.1f GB/s", one, two, eight)
	}
	dma := got["test4/DMA00/transfer00/G0->DMA00.*:001->G1 bandwidth"]
	if dma <= 0 || dma > eight {
		t.Errorf("SDMA copy %.1f GB/s, want below the 8-threadblock kernel's %.1f", dma, eight)
	}
	for k := 1; k <= 4; k++ {
		if o := got[fmt.Sprintf("test%d/aggregate overhead", k)]; o < 0 {
			t.Errorf("test %d: overhead %.4f ms < 0: the CPU time ends before its slowest executor", k, o)
		}
	}
}

func TestTransferBenchTransfersRunTogether(t *testing.T) {
	got := tbRows(t, "1 8 (G0->G0->G1)\n1 8 (G2->G2->G3)\n2 8 (G0->G0->G1) (G2->G2->G3)\n")
	alone := got["test1/aggregate time"] + got["test2/aggregate time"]
	both := got["test3/aggregate time"]
	if both > 0.75*alone {
		t.Errorf("two transfers on separate bundles at once: %.4f ms, one after the other %.4f ms", both, alone)
	}
	if s := got["test3/GPU00 bandwidth_sum"]; s != got["test3/GPU00/transfer00/G0->GPU00:008->G1 bandwidth"] {
		t.Errorf("executor's sum %.3f, want its one transfer's bandwidth", s)
	}
}

// Transfers sharing a GPU executor's kernel are timed by their own blocks'
// clocks, as TransferBench does: a small transfer beside a large one ends
// first, the large one takes the kernel's time, and one transfer alone is
// timed as before.
func TestTransferBenchSharedExecutorTimesEachTransfer(t *testing.T) {
	got := tbRows(t, "-2 (G0->G0->G1 4 1M) (G0->G0->G0 4 16M)\n-1 (G0->G0->G2 4 16M)\n")
	small := got["test1/GPU00/transfer00/G0->GPU00:004->G1 time"]
	large := got["test1/GPU00/transfer01/G0->GPU00:004->G0 time"]
	exe := got["test1/GPU00 time"]
	if !(small > 0 && small < 0.8*large) {
		t.Errorf("1 MiB beside 16 MiB on one kernel: %.4f ms and %.4f ms; want the small one done well before", small, large)
	}
	if large > exe || large < 0.9*exe {
		t.Errorf("the large transfer %.4f ms, its executor %.4f ms: want the kernel's time", large, exe)
	}
	if alone, exe2 := got["test2/GPU00/transfer00/G0->GPU00:004->G2 time"], got["test2/GPU00 time"]; alone > exe2 || alone < 0.9*exe2 {
		t.Errorf("one transfer: %.4f ms, its executor %.4f ms", alone, exe2)
	}
}

// A GPU executor's transfer is timed by its blocks' clocks, which start
// when the blocks do: the command processor's wake-up on the idle queue and
// the launch fall between the executor's start event and the first block,
// so they count in the executor's event time, not in the transfer's.
func TestTransferBenchBlockClocksStartWithTheBlocks(t *testing.T) {
	c := frontier(t)
	got := tbRows(t, "1 4 (G0->G0->G1)\n")
	transfer := got["test1/GPU00/transfer00/G0->GPU00:004->G1 time"]
	exe := got["test1/GPU00 time"]
	wake := (c.GCD.CPWakeNs + c.GCD.KernelLaunchNs) * 1e-6 // ms
	if d := exe - transfer; d < wake {
		t.Errorf("executor %.4f ms, transfer %.4f ms: %.4f ms apart, want at least the wake-up and launch, %.4f ms", exe, transfer, d, wake)
	}
}
