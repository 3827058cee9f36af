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
	e := sim.NewSerialEngine()
	g := MakeBuilder().WithEngine(e).WithHBM(gbps, latNs).WithKernelRoutes(localKernel{}).
		WithComputeUnits(cus, 16, txn, maxOut).WithKernelTimings(0, 0).Build("GCD", 0)
	q := fabrictest.NewAgent("Queue", e, 4)
	fabric.Wire(q.Port, g.CUs.CtrlPort)
	return e, g.CUs, q
}

func copyKernel(id int, wgs, bytes int64) *KernelCmd {
	return &KernelCmd{ID: id, Workgroups: wgs,
		Reads:  []MemStream{{Mem: fabric.Memory{Index: 0}, Bytes: bytes}},
		Writes: []MemStream{{Mem: fabric.Memory{Index: 0}, Bytes: bytes}}}
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
	per := 2 * 4096.0 / (20e-6 + 2*4096/1600e9)
	if want := 4 * per; math.Abs(got-want) > 0.01*want {
		t.Errorf("%.3f GB/s, want %.3f", got/1e9, want/1e9)
	}
}

// A kernel with fewer workgroups than CUs uses only that many CUs.
func TestFewWorkgroups(t *testing.T) {
	e, cus, q := cuRig(110, 2, 64<<10, 1600, 500)
	runKernel(t, e, q, copyKernel(1, 3, 3*1024))
	if cus.Workgroups != 3 || cus.Transactions != 6 {
		t.Errorf("%d workgroups, %d transactions; want 3 and 6 (one read, one write per CU)", cus.Workgroups, cus.Transactions)
	}
}

// Compute time per workgroup adds up when memory is not the limit.
func TestComputeTime(t *testing.T) {
	e, _, q := cuRig(1, 1, 64<<10, 1600, 0)
	k := &KernelCmd{ID: 1, Workgroups: 32, ComputeNs: 1000,
		Writes: []MemStream{{Mem: fabric.Memory{Index: 0}, Bytes: 64}}}
	got := runKernel(t, e, q, k)
	// 32 workgroups of 1 us on 16 slots: 2 us, then a 64 B write
	if want := 2e-6 + 64/1600e9; math.Abs(got-want) > 1e-12 {
		t.Errorf("%g s, want %g", got, want)
	}
}
