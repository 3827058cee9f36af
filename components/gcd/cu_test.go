package gcd

import (
	"math"
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/fabric/fabrictest"
	"github.com/sarchlab/akita/v3/sim"
)

type localKernel struct{}

func (localKernel) KernelRoutes(a, b int) []fabric.Route { return []fabric.Route{{a}} }
func (localKernel) HubOf(m fabric.Memory) int            { return m.Index }

// cuRig is a GCD's CUs in front of one memory of the given bandwidth and latency.
func cuRig(cus, maxOut, txn int, gbps, latNs float64) (*sim.SerialEngine, *ComputeUnits, *fabrictest.Agent) {
	e, g, q := gcdRig(cus, maxOut, txn, gbps, latNs, 0)
	return e, g.CUs, q
}

// gcdRig is a GCD with an L2 of l2Bytes (0: no caching).
func gcdRig(cus, maxOut, txn int, gbps, latNs float64, l2Bytes int64) (*sim.SerialEngine, *GCD, *fabrictest.Agent) {
	e := sim.NewSerialEngine()
	g := testBuilder().WithEngine(e).WithHBM(gbps, latNs).WithKernelRoutes(localKernel{}).
		WithL2(l2Bytes, 64<<10, 6960, 300).
		WithComputeUnits(cus, 16, int64(txn), int64(maxOut*txn)).WithKernelTimings(0, 0).Build("GCD", 0)
	q := fabrictest.NewAgent("Queue", e, 4)
	fabric.Wire(q.Port, g.CUs.CtrlPort)
	return e, g, q
}

func copyKernel(id int, wgs, bytes int64) *KernelCmd {
	return &KernelCmd{ID: id, Workgroups: wgs,
		Reads:  []MemStream{{Mem: fabric.Memory{Index: 0}, Bytes: bytes}},
		Writes: []MemStream{{Mem: fabric.Memory{Index: 0}, Addr: 1 << 40, Bytes: bytes}}}
}

func runKernel(t *testing.T, e *sim.SerialEngine, q *fabrictest.Agent, k *KernelCmd) float64 {
	t.Helper()
	q.Send(0, k)
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if len(q.Got) != 1 {
		t.Fatalf("%d completions", len(q.Got))
	}
	d := q.Got[0].(*KernelDone)
	return float64(d.End - d.Start)
}

// With enough CUs and parallelism, a copy kernel runs at the memory's
// bandwidth, reads and writes together.
func TestCopyKernelIsMemoryBound(t *testing.T) {
	e, _, q := cuRig(110, 2, 64<<10, 1400, 500)
	const n = 1 << 30
	got := 2 * n / runKernel(t, e, q, copyKernel(1, n/8/128, n))
	if want := 1400e9; math.Abs(got-want) > 0.01*want {
		t.Errorf("%.1f GB/s, want %.1f", got/1e9, want/1e9)
	}
}

// With few CUs, little parallelism and a slow memory, Little's law rules:
// each CU moves one read and one write transaction per two latencies.
func TestCopyKernelLittlesLaw(t *testing.T) {
	e, _, q := cuRig(4, 1, 4096, 1600, 10000)
	const n = 4 << 20
	got := 2 * n / runKernel(t, e, q, copyKernel(1, 1024, n))
	per := 2 * 4096.0 / (20e-6 + 2*300e-9 + 2*4096/1600e9) // two HBM and two L2 latencies
	if want := 4 * per; math.Abs(got-want) > 0.01*want {
		t.Errorf("%.3f GB/s, want %.3f", got/1e9, want/1e9)
	}
}

// A kernel with fewer workgroups than CUs uses only that many CUs.
func TestFewWorkgroups(t *testing.T) {
	e, cus, q := cuRig(110, 2, 64<<10, 1600, 500)
	runKernel(t, e, q, copyKernel(1, 3, 3*1024))
	if cus.Workgroups != 3 {
		t.Errorf("%d workgroups, want 3", cus.Workgroups)
	}
	for i, p := range cus.pipes {
		if used := p.Bytes > 0; used != (i < 3) {
			t.Errorf("CU %d moved %d bytes; want only CUs 0-2 used", i, p.Bytes)
		}
	}
}

// CUs whose shares together fit a step are simulated together, in fewer
// transactions, and the kernel takes the time it takes CU by CU.
func TestSmallSharesGathered(t *testing.T) {
	const wgs, bytes = 110, 110 * 1024
	e, cus, q := cuRig(110, 1, 64<<10, 1600, 500) // steps of 64 KiB: 64 CUs' shares
	got := runKernel(t, e, q, copyKernel(1, wgs, bytes))
	e1, alone, q1 := cuRig(110, 1, 1024, 1600, 500) // steps of 1 KiB: every CU by itself
	want := runKernel(t, e1, q1, copyKernel(1, wgs, bytes))
	if alone.Transactions != 2*110 || cus.Transactions != 2*2 {
		t.Errorf("%d and %d transactions; want 220 CU by CU and 4 in two groups of 64 and 46 CUs", alone.Transactions, cus.Transactions)
	}
	if math.Abs(got-want) > 0.02*want {
		t.Errorf("gathered %.0f ns, CU by CU %.0f ns", got*1e9, want*1e9)
	}
}

// Compute time per workgroup adds up when memory is not the limit.
func TestComputeTime(t *testing.T) {
	e, _, q := cuRig(1, 1, 64<<10, 1600, 0)
	k := &KernelCmd{ID: 1, Workgroups: 32, ComputeNs: 1000,
		Writes: []MemStream{{Mem: fabric.Memory{Index: 0}, Bytes: 64}}}
	got := runKernel(t, e, q, k)
	// 32 workgroups of 1 us on 16 slots: 2 us, over which the 64 B write
	// streams out as it is computed (its issue, 64 B/clk x 1.7 GHz, hidden
	// in it), then the L2's 300 ns to HBM (no latency)
	if want := 2e-6 + 300e-9; math.Abs(got-want) > 1e-12 {
		t.Errorf("%g s, want %g", got, want)
	}
}

// A lone workgroup takes its whole compute time: slots run workgroups side
// by side, they do not split one.
func TestLoneWorkgroupComputeTime(t *testing.T) {
	e, _, q := cuRig(4, 1, 64<<10, 1600, 0)
	k := &KernelCmd{ID: 1, Workgroups: 1, ComputeNs: 1000}
	if got := runKernel(t, e, q, k); math.Abs(got-1e-6) > 1e-12 {
		t.Errorf("%g s, want 1 us", got)
	}
}

// compute_ns is one workgroup's compute however its data is stepped: a
// lone workgroup reading 4 MiB (many steps in flight at once) computes for
// compute_ns, overlapping its memory, at every step size; workgroups that
// fill every slot of every CU take it once, twice as many twice.
func TestWorkgroupComputeOverSteps(t *testing.T) {
	const c = 1e6 // ns: far longer than the memory
	read := func(wgs int64, txn int) float64 {
		e, _, q := cuRig(4, 4, txn, 1600, 500)
		return runKernel(t, e, q, &KernelCmd{ID: 1, Workgroups: wgs, ComputeNs: c,
			Reads: []MemStream{{Mem: fabric.Memory{Index: 0}, Bytes: 4 << 20}}})
	}
	memory := func(wgs int64) float64 { // the same kernel's time without compute
		e, _, q := cuRig(4, 4, 4096, 1600, 500)
		return runKernel(t, e, q, &KernelCmd{ID: 1, Workgroups: wgs,
			Reads: []MemStream{{Mem: fabric.Memory{Index: 0}, Bytes: 4 << 20}}})
	}
	for _, x := range []struct {
		wgs   int64
		times float64 // compute_ns the kernel takes
	}{{1, 1}, {4 * 16, 1}, {2 * 4 * 16, 2}} {
		for _, txn := range []int{4096, 65536} {
			got, want := read(x.wgs, txn), x.times*c*1e-9
			if got < want || got > want+memory(x.wgs) {
				t.Errorf("%d workgroups, %d B steps: %g s, want %g s plus at most the memory's %g s",
					x.wgs, txn, got, want, memory(x.wgs))
			}
		}
	}
}

// A lone workgroup copying through the L2 with its whole window in one
// step is as fast as with the window in many: the L2 acknowledges a write
// as its bytes come in, so the next reads go out as the window frees.
func TestWindowInOneStep(t *testing.T) {
	const window = 128 << 10
	var times []float64
	for _, txn := range []int{4096, 65536, window} {
		e, _, q := gcdRig(1, window/txn, txn, 1600, 500, 8<<20)
		times = append(times, runKernel(t, e, q, copyKernel(1, 1, 64<<20)))
	}
	for i, got := range times[1:] {
		if math.Abs(got-times[0]) > 1e-3*times[0] {
			t.Errorf("steps of %d B: %g s, of 4 KiB %g s", []int{65536, window}[i], got, times[0])
		}
	}
}

// Arrays that fit in the L2 are served from it the second time; arrays
// larger than it stream from HBM every time, written back as they go.
func TestL2HitsAndWriteBacks(t *testing.T) {
	for _, c := range []struct {
		bytes    int64
		wantHits bool
	}{{2 << 20, true}, {64 << 20, false}} {
		e, g, q := gcdRig(110, 2, 64<<10, 1400, 500, 8<<20)
		q.Send(0, copyKernel(1, 1024, c.bytes))
		q.Send(0, copyKernel(2, 1024, c.bytes))
		e.Run()
		if len(q.Got) != 2 {
			t.Fatalf("%d completions", len(q.Got))
		}
		first, second := q.Got[0].(*KernelDone), q.Got[1].(*KernelDone)
		t1, t2 := first.End-first.Start, second.End-second.Start
		blocks := uint64(c.bytes / (64 << 10))
		if c.wantHits {
			if t2 >= t1 || g.L2.Hits < blocks {
				t.Errorf("%d MiB: second run %g s vs first %g s, %d hits; want L2 hits", c.bytes>>20, t2, t1, g.L2.Hits)
			}
			if g.HBM.BytesRead != uint64(c.bytes) {
				t.Errorf("%d MiB: HBM read %d bytes, want the array once", c.bytes>>20, g.HBM.BytesRead)
			}
		} else {
			if g.L2.WriteBacks == 0 || g.HBM.BytesRead != 2*uint64(c.bytes) {
				t.Errorf("%d MiB: %d write-backs, HBM read %d; want write-backs and every read from HBM",
					c.bytes>>20, g.L2.WriteBacks, g.HBM.BytesRead)
			}
		}
	}
}

func TestTrafficByPattern(t *testing.T) {
	for _, c := range []struct {
		m    MemStream
		want int64
	}{
		{MemStream{Bytes: 1 << 20}, 1 << 20},
		{MemStream{Bytes: 1 << 20, Pattern: "strided", Stride: 16}, 2 << 20},            // every other double
		{MemStream{Bytes: 1 << 20, Pattern: "strided", Stride: 4096}, 8 << 20},          // a line per double
		{MemStream{Bytes: 1 << 20, Pattern: "random"}, 8 << 20},                         // a line per double
		{MemStream{Bytes: 1 << 20, Pattern: "random", Element: 256}, 1 << 20},           // whole lines
		{MemStream{Bytes: 1 << 20, Pattern: "strided", Stride: 8, Element: 8}, 1 << 20}, // dense
	} {
		if got := c.m.Traffic(64); got != c.want {
			t.Errorf("%+v: %d bytes moved, want %d", c.m, got, c.want)
		}
	}
}

// A strided kernel moves more data than it uses, so it takes longer.
func TestStridedKernelIsSlower(t *testing.T) {
	run := func(pattern string, stride int64) float64 {
		e, _, q := cuRig(110, 2, 64<<10, 1400, 500)
		k := copyKernel(1, 8192, 64<<20)
		k.Reads[0].Pattern, k.Reads[0].Stride = pattern, stride
		return runKernel(t, e, q, k)
	}
	seq, strided := run("", 0), run("strided", 128)
	// reads move 8x their bytes (one 64 B line per 8 B), writes are unchanged: 9/2 the time
	if r := strided / seq; r < 4.3 || r > 4.7 {
		t.Errorf("strided/sequential time %.2f, want about 4.5", r)
	}
}

// A stream bounded to some workgroups is moved by the CUs running those
// workgroups only: two streams on disjoint halves of the grid take as many
// transactions as one stream over it, and a stream on one workgroup is
// moved by one CU, at its pace.
func TestStreamWorkgroups(t *testing.T) {
	const n = 64 << 20
	e, cus, q := cuRig(4, 2, 64<<10, 1600, 500)
	whole := runKernel(t, e, q, copyKernel(1, 4, n))
	wholeTxn := cus.Transactions

	e, cus, q = cuRig(4, 2, 64<<10, 1600, 500)
	k := &KernelCmd{ID: 1, Workgroups: 4,
		Reads: []MemStream{{Mem: fabric.Memory{Index: 0}, Bytes: n / 2, First: 0, End: 2},
			{Mem: fabric.Memory{Index: 0}, Addr: n / 2, Bytes: n / 2, First: 2, End: 4}},
		Writes: []MemStream{{Mem: fabric.Memory{Index: 0}, Addr: 1 << 40, Bytes: n / 2, First: 0, End: 2},
			{Mem: fabric.Memory{Index: 0}, Addr: 1<<40 + n/2, Bytes: n / 2, First: 2, End: 4}}}
	halves := runKernel(t, e, q, k)
	if cus.Transactions != wholeTxn || math.Abs(halves-whole) > 0.01*whole {
		t.Errorf("halves: %d transactions in %g s, want %d in %g s (the whole grid's)", cus.Transactions, halves, wholeTxn, whole)
	}

	e, _, q = cuRig(4, 2, 64<<10, 1600, 500)
	k = copyKernel(1, 4, n)
	k.Reads[0].First, k.Reads[0].End = 3, 4
	k.Writes[0].First, k.Writes[0].End = 3, 4
	if one := runKernel(t, e, q, k); one < 3*whole {
		t.Errorf("one workgroup's CU moves it all in %g s, the whole grid in %g: want about 4x as long", one, whole)
	}
}

// A stream given to some workgroups ends when the CUs running them are
// done: a small stream beside a large one ends first (a benchmark's
// per-block clocks); a kernel whose streams span the grid reports none.
func TestStreamEnds(t *testing.T) {
	e, _, q := cuRig(8, 2, 64<<10, 1600, 500)
	k := &KernelCmd{ID: 1, Workgroups: 8,
		Reads: []MemStream{{Mem: fabric.Memory{Index: 0}, Bytes: 1 << 20, First: 0, End: 4},
			{Mem: fabric.Memory{Index: 0}, Addr: 1 << 30, Bytes: 64 << 20, First: 4, End: 8}},
		Writes: []MemStream{{Mem: fabric.Memory{Index: 0}, Addr: 1 << 40, Bytes: 1 << 20, First: 0, End: 4},
			{Mem: fabric.Memory{Index: 0}, Addr: 1<<40 + 1<<30, Bytes: 64 << 20, First: 4, End: 8}}}
	runKernel(t, e, q, k)
	d := q.Got[0].(*KernelDone)
	if len(d.StreamEnds) != 4 {
		t.Fatalf("stream ends %v, want one per stream", d.StreamEnds)
	}
	small, large := max(d.StreamEnds[0], d.StreamEnds[2]), max(d.StreamEnds[1], d.StreamEnds[3])
	if !(small > d.Start && small < large/4 && large <= d.End) {
		t.Errorf("1 MiB ends at %g s, 64 MiB at %g s, the kernel at %g s", small, large, d.End)
	}
	e, _, q = cuRig(8, 2, 64<<10, 1600, 500)
	runKernel(t, e, q, copyKernel(1, 8, 1<<20))
	if ends := q.Got[0].(*KernelDone).StreamEnds; ends != nil {
		t.Errorf("a kernel over the whole grid reports stream ends %v", ends)
	}
}

// waveRig is cuRig's Little's-law setting with waves that start waveNs
// after the workgroups whose slots they take end.
func waveRig(waveNs float64) (*sim.SerialEngine, *fabrictest.Agent) {
	e := sim.NewSerialEngine()
	g := testBuilder().WithEngine(e).WithHBM(1600, 10000).WithKernelRoutes(localKernel{}).
		WithL2(0, 64<<10, 6960, 300).WithComputeUnits(4, 16, 4096, 4096).
		WithKernelTimings(0, 0).WithWaveStart(waveNs).Build("GCD", 0)
	q := fabrictest.NewAgent("Queue", e, 4)
	fabric.Wire(q.Port, g.CUs.CtrlPort)
	return e, q
}

// A kernel whose waves load once and end (OneLoad) refills each CU's
// window only after new waves start: Little's law over the round trip
// plus the start. Other kernels, and a OneLoad kernel that fits its
// window, never pay it.
func TestOneLoadWavesRefill(t *testing.T) {
	const n, start = 4 << 20, 5000.0
	rate := func(waveNs float64, oneLoad bool, bytes int64) float64 {
		e, q := waveRig(waveNs)
		k := copyKernel(1, 1024, bytes)
		k.OneLoad = oneLoad
		return 2 * float64(bytes) / runKernel(t, e, q, k)
	}
	trip := 20e-6 + 2*300e-9 + 2*4096/1600e9 // TestCopyKernelLittlesLaw's round trip
	if got, want := rate(start, true, n), 4*2*4096/(trip+start*1e-9); math.Abs(got-want) > 0.01*want {
		t.Errorf("OneLoad: %.3f GB/s, want %.3f", got/1e9, want/1e9)
	}
	if got, want := rate(start, false, n), rate(0, false, n); got != want {
		t.Errorf("a looping kernel pays the wave start: %.3f GB/s, want %.3f", got/1e9, want/1e9)
	}
	if got, want := rate(start, true, 4*4096), rate(0, true, 4*4096); got != want {
		t.Errorf("a kernel within its window pays the wave start: %.3f GB/s, want %.3f", got/1e9, want/1e9)
	}
}
