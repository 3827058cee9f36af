package sdma_test

import (
	"math"
	"testing"

	"github.com/akisim/akisim/components/dram"
	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/fabric/fabrictest"
	"github.com/akisim/akisim/components/hub"
	"github.com/akisim/akisim/components/sdma"
	"github.com/sarchlab/akita/v3/sim"
)

// oneHub routes everything inside hub 0, over ties routes if ties > 1;
// its signal route is hub 0's unless signalVia names another hub (a route
// only compared, never taken).
type oneHub struct{ ties, signalVia int }

func (o oneHub) DataRoutes(a, b int) []fabric.Route {
	rs := []fabric.Route{}
	for i := 0; i < o.ties; i++ {
		rs = append(rs, fabric.Route{0})
	}
	return rs
}
func (o oneHub) SignalRoute(a, b int) fabric.Route {
	if o.signalVia != 0 {
		return fabric.Route{0, o.signalVia}
	}
	return fabric.Route{0}
}
func (o oneHub) HubOf(m fabric.Memory) int { return 0 }

// rig is an engine on a hub in front of one memory, driven by a queue agent.
func rig(eb sdma.Builder, memGBps, memLatNs float64, ties int) (*sim.SerialEngine, *sdma.Engine, *fabrictest.Agent) {
	return rigRoutes(eb, memGBps, memLatNs, oneHub{ties: ties})
}

// rigRoutes is rig with the engine's routes given.
func rigRoutes(eb sdma.Builder, memGBps, memLatNs float64, routes oneHub) (*sim.SerialEngine, *sdma.Engine, *fabrictest.Agent) {
	e := sim.NewSerialEngine()
	h := hub.MakeBuilder().WithEngine(e).Build("Hub")
	mem := dram.MakeBuilder().WithEngine(e).WithBandwidth(memGBps).WithLatency(memLatNs).Build("Mem")
	fabric.Wire(h.MemoryPort(0), mem.Port)
	eng := eb.WithEngine(e).WithRouteTable(routes).Build("Engine")
	fabric.Wire(h.LocalPort("Engine", eng.MemPort), eng.MemPort)
	q := fabrictest.NewAgent("Queue", e, 16)
	fabric.Wire(q.Port, eng.CtrlPort)
	return e, eng, q
}

func copyRate(t *testing.T, e *sim.SerialEngine, q *fabrictest.Agent, bytes int64) float64 {
	t.Helper()
	q.Send(0, &sdma.CopyCmd{ID: 1, Bytes: bytes})
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if len(q.Got) != 1 {
		t.Fatalf("%d completions, want 1", len(q.Got))
	}
	d := q.Got[0].(*sdma.CopyDone)
	return float64(bytes) / float64(d.End-d.Start)
}

// With a fast memory, the engine's datapath is the limit: 32 B x 1.6 GHz.
func TestEngineRateIsItsDatapath(t *testing.T) {
	eb := testBuilder().WithDatapath(1.6, 32).WithTransactions(64<<10, 16*64<<10)
	e, _, q := rig(eb, 1600, 500, 1)
	got := copyRate(t, e, q, 1<<30)
	if want := 51.2e9; math.Abs(got-want) > 0.01*want {
		t.Errorf("%.2f GB/s, want %.2f", got/1e9, want/1e9)
	}
}

// A copy whose source leaves a CPU cache over a link slower than the
// datapath runs at that link, which carries all its bytes.
func TestEngineSourceLinkCapsTheCopy(t *testing.T) {
	eb := testBuilder().WithDatapath(1.6, 32).WithTransactions(64<<10, 16*64<<10)
	e, _, q := rig(eb, 1600, 500, 1)
	link := &fabric.Server{BytesPerSec: 25.6e9}
	q.Send(0, &sdma.CopyCmd{ID: 1, Bytes: 1 << 28, SrcLink: link})
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	d := q.Got[0].(*sdma.CopyDone)
	if got := float64(1<<28) / float64(d.End-d.Start); math.Abs(got/25.6e9-1) > 0.01 {
		t.Errorf("%.2f GB/s, want the link's 25.6", got/1e9)
	}
	if link.Bytes != 1<<28 {
		t.Errorf("the link carried %d B, want %d", link.Bytes, 1<<28)
	}
}

// With a slow memory and few transactions in flight, Little's law rules:
// rate = outstanding x transaction / round trip.
func TestEngineOutstandingLimit(t *testing.T) {
	eb := testBuilder().WithDatapath(1.6, 32).WithTransactions(4096, 2*4096)
	e, _, q := rig(eb, 1600, 10000, 1) // 10 us memory latency
	got := copyRate(t, e, q, 64<<20)
	// each transaction: read (10 us) then write (10 us) plus ~3 ns of transfers
	rtt := 20e-6 + 4096/1600e9*2 + 4096/51.2e9
	want := 2 * 4096 / rtt
	if math.Abs(got-want) > 0.02*want {
		t.Errorf("%.3f GB/s, want %.3f", got/1e9, want/1e9)
	}
}

// A copy whose completion signal takes another route than its data is
// fenced before the signal: the signal could overtake the data. A copy on
// the signal's own route is not, tied or not.
func TestEngineFencesWhenTheSignalGoesAnotherWay(t *testing.T) {
	eb := testBuilder().WithTimings(1000, 300, 500)
	for _, c := range []struct {
		ties, signalVia int
		fences          uint64
	}{{1, 0, 0}, {2, 0, 0}, {1, 1, 2}, {2, 1, 2}} {
		e, eng, q := rigRoutes(eb, 1600, 500, oneHub{c.ties, c.signalVia})
		q.Send(0, &sdma.CopyCmd{ID: 1, Bytes: 16})
		q.Send(0, &sdma.CopyCmd{ID: 2, Bytes: 16})
		if err := e.Run(); err != nil || len(q.Got) != 2 {
			t.Fatalf("%v, %d completions, want 2", err, len(q.Got))
		}
		if eng.Fences != c.fences {
			t.Errorf("%d routes, signal via %d, 2 copies: %d fences, want %d", c.ties, c.signalVia, eng.Fences, c.fences)
		}
	}
}

// A small copy's time is its fixed costs plus its round trips.
func TestEngineSmallCopyLatency(t *testing.T) {
	eb := testBuilder().WithDatapath(1.6, 32).WithTimings(1000, 300, 500)
	e, _, q := rig(eb, 1600, 500, 1)
	q.Send(0, &sdma.CopyCmd{ID: 1, Bytes: 16})
	e.Run()
	d := q.Got[0].(*sdma.CopyDone)
	// process 1000 + read 500 + write 500 + signal 500 ns, plus the 16 B
	// through the slowest stage (the others overlap it: cut-through)
	want := 2500e-9 + 16/51.2e9
	if got := float64(d.End - d.Start); math.Abs(got-want) > 1e-12 {
		t.Errorf("%g s, want %g", got, want)
	}
}
