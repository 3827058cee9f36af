package gcd

import (
	"math"
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/fabric/fabrictest"
	"github.com/sarchlab/akita/v3/sim"
)

// tlbRig is 110 CUs in front of a fast memory, translating through a TLB
// of entries pages with 4 walkers of 640 ns.
func tlbRig(entries int) (*sim.SerialEngine, *ComputeUnits, *fabrictest.Agent) {
	e := sim.NewSerialEngine()
	g := testBuilder().WithEngine(e).WithHBM(1400, 500).WithKernelRoutes(localKernel{}).
		WithComputeUnits(110, 16, 64<<10, 128<<10).WithKernelTimings(0, 0).
		WithTLB(entries, 4, 640).Build("GCD", 0)
	q := fabrictest.NewAgent("Queue", e, 4)
	fabric.Wire(q.Port, g.CUs.CtrlPort)
	return e, g.CUs, q
}

// runTwo runs kernels a and b back to back and returns their times.
func runTwo(t *testing.T, e *sim.SerialEngine, q *fabrictest.Agent, a, b *KernelCmd) (float64, float64) {
	t.Helper()
	q.Send(0, a)
	q.Send(0, b)
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if len(q.Got) != 2 {
		t.Fatalf("%d completions", len(q.Got))
	}
	x, y := q.Got[0].(*KernelDone), q.Got[1].(*KernelDone)
	return float64(x.End - x.Start), float64(y.End - y.Start)
}

func pagedRead(id int, bytes, page int64) *KernelCmd {
	return &KernelCmd{ID: id, Workgroups: 2048,
		Reads: []MemStream{{Mem: fabric.Memory{Index: 0}, Bytes: bytes, PageBytes: page}}}
}

// A stream over more pages than the TLB holds misses on every page and
// runs at the walkers' pace: 4 x 4 KiB per 640 ns = 25.6 GB/s, far below
// the memory's 1400 GB/s.
func TestPagedStreamRunsAtWalkerPace(t *testing.T) {
	e, cus, q := tlbRig(512)
	const n = 64 << 20
	got := n / runKernel(t, e, q, pagedRead(1, n, 4096))
	if want := 4 * 4096 / 640e-9; math.Abs(got-want) > 0.02*want {
		t.Errorf("%.2f GB/s, want %.2f (walker-bound)", got/1e9, want/1e9)
	}
	if cus.tlb.Misses != n/4096 {
		t.Errorf("%d misses, want one per page (%d)", cus.tlb.Misses, n/4096)
	}
}

// Within the TLB's reach a second pass hits on every page and runs at the
// memory's pace.
func TestTLBReach(t *testing.T) {
	e, cus, q := tlbRig(512)
	const n = 2 << 20 // 512 pages
	cold, warm := runTwo(t, e, q, pagedRead(1, n, 4096), pagedRead(2, n, 4096))
	if cus.tlb.Misses != n/4096 {
		t.Errorf("%d misses after two passes, want %d (the first pass only)", cus.tlb.Misses, n/4096)
	}
	if warm >= cold {
		t.Errorf("warm pass %.2f us, not faster than the cold %.2f us", warm*1e6, cold*1e6)
	}
}

// Large fragments (PageBytes 0) never look up at all.
func TestFragmentsSkipTLB(t *testing.T) {
	e, cus, q := tlbRig(512)
	runKernel(t, e, q, pagedRead(1, 64<<20, 0))
	if cus.tlb.Lookups != 0 {
		t.Errorf("a fragment-mapped stream looked up %d pages", cus.tlb.Lookups)
	}
}

// One more page than the TLB holds and LRU misses on every page of a
// sequential pass again.
func TestTLBThrashesBeyondReach(t *testing.T) {
	e, cus, q := tlbRig(512)
	const n = 513 * 4096
	runTwo(t, e, q, pagedRead(1, n, 4096), pagedRead(2, n, 4096))
	if want := uint64(2 * 513); cus.tlb.Misses != want {
		t.Errorf("%d misses over two passes of 513 pages, want %d", cus.tlb.Misses, want)
	}
}
