package gcd

import (
	"math"
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/fabric/fabrictest"
	"github.com/sarchlab/akita/v3/sim"
)

// segments is a batched kernel over n segments of bytes each: every one
// read, and written elsewhere, by the kernel's workgroups.
func segments(n int, bytes int64) *KernelCmd {
	k := &KernelCmd{ID: 1, Workgroups: 4096}
	for i := range int64(n) {
		k.Reads = append(k.Reads, MemStream{Mem: fabric.Memory{Index: 0}, Addr: i << 24, Bytes: bytes})
		k.Writes = append(k.Writes, MemStream{Mem: fabric.Memory{Index: 0}, Addr: 1<<40 + i<<24, Bytes: bytes})
	}
	return k
}

// gatherRun runs k twice (the second finds the first's lines in the L2)
// on a GCD of cus CUs, its steps' pieces gathered or not: the second run's
// time, and the GCD.
func gatherRun(t *testing.T, cus int, k func() *KernelCmd, gather bool) (float64, *GCD) {
	t.Helper()
	e := sim.NewSerialEngine()
	g := testBuilder().WithEngine(e).WithHBM(1400, 500).WithKernelRoutes(localKernel{}).
		WithL2(8<<20, 64<<10, 6960, 300).WithStreamGather(gather).
		WithComputeUnits(cus, 16, 64<<10, 128<<10).WithKernelTimings(0, 0).Build("GCD", 0)
	q := fabrictest.NewAgent("Queue", e, 4)
	fabric.Wire(q.Port, g.CUs.CtrlPort)
	var took float64
	for i := range 2 {
		first := k()
		first.ID = i + 1
		q.Send(e.CurrentTime(), first)
		if err := e.Run(); err != nil {
			t.Fatal(err)
		}
		d := q.Got[i].(*KernelDone)
		took = float64(d.End - d.Start)
	}
	return took, g
}

// A step's pieces of one memory travel as one gather request: the
// kernel moves the same lines, hits and fetches the same bytes in the L2
// and takes the same time within 1%, in a fraction of the transactions.
func TestGatherKeepsLinesAndTime(t *testing.T) {
	k := func() *KernelCmd { return segments(8, 256<<10) }
	apart, one := gatherRun(t, 2, k, false) // several steps a CU, its data within the L2
	together, g := gatherRun(t, 2, k, true)
	if d := math.Abs(together-apart) / apart; d > 0.01 {
		t.Errorf("gathered: %.3g s, one request per stream: %.3g s (%.2f%% apart)", together, apart, 100*d)
	}
	a, b := one.L2, g.L2
	if a.HitBytes != b.HitBytes || a.FillBytes != b.FillBytes || a.WriteBytes != b.WriteBytes || a.WriteBackBytes != b.WriteBackBytes {
		t.Errorf("L2 hit, fill, write, write-back bytes: gathered %d %d %d %d, apart %d %d %d %d",
			b.HitBytes, b.FillBytes, b.WriteBytes, b.WriteBackBytes, a.HitBytes, a.FillBytes, a.WriteBytes, a.WriteBackBytes)
	}
	if b.HitBytes == 0 || b.FillBytes == 0 {
		t.Errorf("the second run should hit the first's lines and the first fetch them: hit %d B, fill %d B", b.HitBytes, b.FillBytes)
	}
	if 8*g.CUs.Transactions != one.CUs.Transactions { // 8 reads, then 8 writes, a step
		t.Errorf("gathered: %d transactions, apart %d: want an eighth (one per memory a step)", g.CUs.Transactions, one.CUs.Transactions)
	}
	if g.CUs.BytesRead != one.CUs.BytesRead || g.CUs.BytesWritten != one.CUs.BytesWritten {
		t.Errorf("bytes read, written: gathered %d %d, apart %d %d", g.CUs.BytesRead, g.CUs.BytesWritten, one.CUs.BytesRead, one.CUs.BytesWritten)
	}
}

// A kernel of many small segments over many CUs, each CU's share one
// step: its time is set by when the step's last piece comes in, which a
// gather's one answer still gives (within 1%).
func TestGatherKeepsShortKernelsTime(t *testing.T) {
	k := func() *KernelCmd { return segments(48, 40<<10) }
	apart, _ := gatherRun(t, 110, k, false)
	together, _ := gatherRun(t, 110, k, true)
	if d := math.Abs(together-apart) / apart; d > 0.01 {
		t.Errorf("gathered: %.4g s, one request per stream: %.4g s (%.2f%% apart)", together, apart, 100*d)
	}
}

// A gather's fill asks memory for each of its ranges only where a
// memory-side cache below reads them: HBM alone is sent the fill's first
// range, its address, and the same count of lines either way.
func TestFillCarriesItsRangesOnlyToAMemorySideCache(t *testing.T) {
	p := &fabric.Packet{Extents: []fabric.Extent{{Addr: 0, Size: 4096}, {Addr: 1 << 20, Size: 8192}, {Addr: 2 << 20, Size: 128}}}
	for _, ranges := range []bool{true, false} {
		c := testBuilder().WithEngine(sim.NewSerialEngine()).WithL2(8<<20, 64<<10, 6960, 300).buildL2("L2", 0)
		c.fillRanges = ranges
		missing, ask := c.missingOf(p, nil)
		if lines := int64(4096+8192+128) / c.line; missing != lines {
			t.Errorf("fillRanges %v: %d lines missing in an empty L2, want %d", ranges, missing, lines)
		}
		want := p.Extents
		if !ranges {
			want = want[:1]
		}
		if len(ask) != len(want) || ask[0] != want[0] || ask[len(ask)-1] != want[len(want)-1] {
			t.Errorf("fillRanges %v: the fill asks for %v, want %v", ranges, ask, want)
		}
	}
}
