package dram

import (
	"math"
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/fabric/fabrictest"
	"github.com/akisim/akisim/components/hub"
	"github.com/sarchlab/akita/v3/sim"
)

// Two requesters streaming reads from one NUMA domain share its channels:
// together they get channels x channel bandwidth x efficiency, half each.
func TestDomainIsShared(t *testing.T) {
	e := sim.NewSerialEngine()
	ctl := testBuilder().WithEngine(e).Build("DRAM")
	h := hub.MakeBuilder().WithEngine(e).Build("Hub")
	fabric.Wire(h.MemoryPort(0), ctl.Port)
	a1, a2 := fabrictest.NewAgent("A1", e, 1024), fabrictest.NewAgent("A2", e, 1024)
	fabric.Wire(h.LocalPort("L1", a1.Port), a1.Port)
	fabric.Wire(h.LocalPort("L2", a2.Port), a2.Port)
	const n, size = 400, 64 << 10
	for i := 0; i < n; i++ {
		a1.Send(0, fabric.NewRequest(fabric.ReadReq, size, fabric.Memory{Host: true}, fabric.Route{0}, a1.Port, nil))
		a2.Send(0, fabric.NewRequest(fabric.ReadReq, size, fabric.Memory{Host: true}, fabric.Route{0}, a2.Port, nil))
	}
	e.Run()
	domain := 2 * 25.6e9 * 0.85
	for i, a := range []*fabrictest.Agent{a1, a2} {
		got := float64(a.Bytes) / float64(a.Last())
		if math.Abs(got-domain/2) > 0.01*domain/2 {
			t.Errorf("requester %d: %.2f GB/s, want %.2f", i+1, got/1e9, domain/2e9)
		}
	}
	if busy := float64(ctl.BusyTime()); math.Abs(busy-2*n*size/domain) > 1e-9 {
		t.Errorf("busy %g s, want %g", busy, 2*n*size/domain)
	}
}

// An idle domain answers one small read after its transfer and latency.
func TestReadLatency(t *testing.T) {
	e := sim.NewSerialEngine()
	ctl := testBuilder().WithEngine(e).WithEfficiency(1).Build("DRAM")
	a := fabrictest.NewAgent("A", e, 4)
	fabric.Wire(a.Port, ctl.Port)
	a.Send(0, fabric.NewRequest(fabric.ReadReq, 64, fabric.Memory{Host: true}, fabric.Route{0}, a.Port, nil))
	e.Run()
	want := 64/51.2e9 + 96e-9
	if got := float64(a.Last()); math.Abs(got-want) > 1e-15 {
		t.Errorf("answered at %g s, want %g", got, want)
	}
}

// Two controllers given one shared bandwidth (the devices of one memory
// partition) split it, where two of their own would each get all of it.
func TestSharedBandwidth(t *testing.T) {
	for _, shared := range []bool{false, true} {
		e := sim.NewSerialEngine()
		b := MakeBuilder().WithEngine(e).WithBandwidth(100).WithLatency(100)
		if shared {
			b = b.WithSharedBandwidth(&fabric.Server{BytesPerSec: fabric.GBps(100)})
		}
		c1, c2 := b.Build("HBM1"), b.Build("HBM2")
		a1, a2 := fabrictest.NewAgent("A1", e, 1024), fabrictest.NewAgent("A2", e, 1024)
		fabric.Wire(a1.Port, c1.Port)
		fabric.Wire(a2.Port, c2.Port)
		const n, size = 400, 64 << 10
		for i := 0; i < n; i++ {
			a1.Send(0, fabric.NewRequest(fabric.ReadReq, size, fabric.Memory{}, fabric.Route{0}, a1.Port, nil))
			a2.Send(0, fabric.NewRequest(fabric.ReadReq, size, fabric.Memory{}, fabric.Route{0}, a2.Port, nil))
		}
		e.Run()
		want := 100e9
		if shared {
			want /= 2
		}
		for i, a := range []*fabrictest.Agent{a1, a2} {
			if got := float64(a.Bytes) / float64(a.Last()); math.Abs(got-want) > 0.01*want {
				t.Errorf("shared %v, controller %d: %.2f GB/s, want %.2f", shared, i+1, got/1e9, want/1e9)
			}
		}
	}
}
