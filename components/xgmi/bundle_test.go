package xgmi

import (
	"fmt"
	"math"
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/fabric/fabrictest"
	"github.com/akisim/akisim/components/hub"
	"github.com/sarchlab/akita/v3/sim"
)

const txn = 64 << 10

// stream sends n data packets from side 0 of a fresh bundle and returns the
// bytes per second seen at side 1.
func stream(t *testing.T, lanes, n int) float64 {
	e := sim.NewSerialEngine()
	b := testBuilder().WithEngine(e).WithLanes(lanes).WithLaneBandwidth(50).
		WithFlightLatency(200).WithPacket(64, 21, 64).WithCredits(8*(txn+txn/64*21), 0.5).Build("B")
	src := fabrictest.NewAgent("Src", e, 4)
	dst := fabrictest.NewAgent("Dst", e, 1024)
	fabric.Wire(src.Port, b.Port(0))
	fabric.Wire(b.Port(1), dst.Port)
	for i := 0; i < n; i++ {
		src.Send(0, fabric.NewRequest(fabric.WriteReq, txn, fabric.Memory{}, fabric.Route{0, 1}, src.Port, nil))
	}
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if len(dst.Got) != n {
		t.Fatalf("%d packets arrived, want %d", len(dst.Got), n)
	}
	return float64(dst.Bytes) / float64(dst.Last())
}

// A bundle of N lanes carries N x 50 GB/s x 64/(64+21) of data.
func TestBundleThroughputByLanes(t *testing.T) {
	for _, lanes := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("%d lanes", lanes), func(t *testing.T) {
			got := stream(t, lanes, 2000) / 1e9
			want := float64(lanes) * 50 * 64 / 85
			if math.Abs(got-want) > 0.01*want {
				t.Errorf("%.2f GB/s, want %.2f", got, want)
			}
		})
	}
}

// A single packet pays its serialisation plus the flight latency.
func TestBundleLatency(t *testing.T) {
	e := sim.NewSerialEngine()
	b := testBuilder().WithEngine(e).WithFlightLatency(200).WithPacket(64, 21, 64).Build("B")
	src := fabrictest.NewAgent("Src", e, 4)
	dst := fabrictest.NewAgent("Dst", e, 4)
	fabric.Wire(src.Port, b.Port(0))
	fabric.Wire(b.Port(1), dst.Port)
	src.Send(0, fabric.NewRequest(fabric.WriteReq, 16, fabric.Memory{}, fabric.Route{0, 1}, src.Port, nil))
	e.Run()
	want := (16.0+21)/50e9 + 200e-9
	if got := float64(dst.Last()); math.Abs(got-want) > 1e-12 {
		t.Errorf("arrived at %g s, want %g", got, want)
	}
}

// Two flows into one bundle direction share it: each finishes at twice
// the time it would take alone.
func TestTwoFlowsShareABundle(t *testing.T) {
	e := sim.NewSerialEngine()
	far, a1, a2 := twoSources(e, testBuilder())
	const n = 500
	for i := 0; i < n; i++ {
		a1.Send(0, fabric.NewRequest(fabric.WriteReq, txn, fabric.Memory{}, fabric.Route{0, 1}, a1.Port, 1))
		a2.Send(0, fabric.NewRequest(fabric.WriteReq, txn, fabric.Memory{}, fabric.Route{0, 1}, a2.Port, 2))
	}
	e.Run()
	var last [3]sim.VTimeInSec
	var bytes [3]float64
	for i, m := range far.Got {
		f := m.(*fabric.Packet).Tag.(int)
		last[f] = far.Arrivals[i]
		bytes[f] += txn
	}
	rate := 50e9 * 64 / 85
	for f := 1; f <= 2; f++ {
		got := bytes[f] / float64(last[f])
		if math.Abs(got-rate/2) > 0.02*rate/2 {
			t.Errorf("flow %d: %.2f GB/s, want half of %.2f", f, got/1e9, rate/1e9)
		}
	}
}

// A write of one wire packet (a flag store) handed to a bundle while
// another source's 64 KiB transaction is on the wire goes out between its
// wire packets: it arrives after its own serialisation and the flight,
// not after the whole transaction, which ends that much later.
func TestOnePacketWritePassesBulk(t *testing.T) {
	e := sim.NewSerialEngine()
	far, bulk, flag := twoSources(e, testBuilder().WithFlightLatency(200))
	const sent = 100e-9
	bulk.Send(0, fabric.NewRequest(fabric.WriteReq, txn, fabric.Memory{}, fabric.Route{0, 1}, bulk.Port, 1))
	flag.Send(sent, fabric.NewRequest(fabric.WriteReq, 8, fabric.Memory{}, fabric.Route{0, 1}, flag.Port, 2))
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	var flagAt, bulkEnd sim.VTimeInSec
	for i, m := range far.Got {
		p := m.(*fabric.Packet)
		if p.Tag.(int) == 2 {
			flagAt = far.Arrivals[i]
		} else {
			bulkEnd = far.Arrivals[i] + p.Spread
		}
	}
	wire := float64(txn+txn/64*21) / 50e9
	if limit := sent + (8+21)/50e9 + 200e-9 + 1e-9; float64(flagAt) > limit {
		t.Errorf("flag arrived at %g s, want by %g s (its own wire time and the flight)", flagAt, limit)
	}
	if want := wire + (8+21)/50e9 + 200e-9; float64(bulkEnd) < want-1e-12 {
		t.Errorf("the transaction's last byte arrived at %g s, before its wire time plus the flag's (%g s)", bulkEnd, want)
	}
}

// twoSources wires two agents through a hub into one direction of a bundle
// (64 B payload, 21 B header, 8 transactions of credits) to a far agent.
func twoSources(e sim.Engine, bb Builder) (far, a1, a2 *fabrictest.Agent) {
	b := bb.WithEngine(e).WithPacket(64, 21, 64).WithCredits(8*(txn+txn/64*21), 0.5).Build("B")
	h := hub.MakeBuilder().WithEngine(e).Build("Hub")
	far = fabrictest.NewAgent("Far", e, 1024)
	a1, a2 = fabrictest.NewAgent("A1", e, 4), fabrictest.NewAgent("A2", e, 4)
	fabric.Wire(h.LinkPort(1), b.Port(0))
	fabric.Wire(b.Port(1), far.Port)
	fabric.Wire(h.LocalPort("L1", a1.Port), a1.Port)
	fabric.Wire(h.LocalPort("L2", a2.Port), a2.Port)
	return far, a1, a2
}

// Writes streaming both ways at once each get a whole direction's wire
// when the directions are separate, and half of the one wire when they
// share it (WithSharedDirections).
func TestSharedDirectionsHalveTwoWayStreams(t *testing.T) {
	rate := 50e9 * 64 / 85
	for _, shared := range []bool{false, true} {
		e := sim.NewSerialEngine()
		b := testBuilder().WithEngine(e).WithFlightLatency(200).WithPacket(64, 21, 64).
			WithCredits(8*(txn+txn/64*21), 0.5).WithSharedDirections(shared).Build("B")
		ends := [2]*fabrictest.Agent{fabrictest.NewAgent("A0", e, 1024), fabrictest.NewAgent("A1", e, 1024)}
		for side, a := range ends {
			fabric.Wire(a.Port, b.Port(side))
		}
		const n = 500
		for i := 0; i < n; i++ {
			ends[0].Send(0, fabric.NewRequest(fabric.WriteReq, txn, fabric.Memory{}, fabric.Route{0, 1}, ends[0].Port, nil))
			ends[1].Send(0, fabric.NewRequest(fabric.WriteReq, txn, fabric.Memory{}, fabric.Route{0, 1}, ends[1].Port, nil))
		}
		if err := e.Run(); err != nil {
			t.Fatal(err)
		}
		want := rate
		if shared {
			want = rate / 2
		}
		for side, a := range ends {
			if len(a.Got) != n {
				t.Fatalf("shared %v: side %d got %d packets, want %d", shared, side, len(a.Got), n)
			}
			if got := float64(a.Bytes) / float64(a.Last()); math.Abs(got-want) > 0.02*want {
				t.Errorf("shared %v: into side %d at %.2f GB/s, want %.2f", shared, side, got/1e9, want/1e9)
			}
		}
	}
}
