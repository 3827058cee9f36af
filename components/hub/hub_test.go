package hub_test

import (
	"fmt"
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/fabric/fabrictest"
	"github.com/akisim/akisim/components/hub"
	"github.com/sarchlab/akita/v3/sim"
)

// hubRig is hub 1 between links to hubs 0 and 2, with two memories and two
// local requesters, each port ending at a recording agent.
type hubRig struct {
	e          *sim.SerialEngine
	hub        *hub.Hub
	link       [3]*fabrictest.Agent // by neighbour hub (0 and 2)
	mem        [2]*fabrictest.Agent
	req1, req2 *fabrictest.Agent
}

const (
	forwardNs = 30
	reorderNs = 70
)

// memoryNs is the rig's memory delay: it depends on the hub the request
// entered the fabric at, like the host's NUMA distance.
func memoryNs(p *fabric.Packet) float64 { return 100 + 1000*float64(p.Route[0]) }

func newHubRig() *hubRig {
	e := sim.NewSerialEngine()
	r := &hubRig{e: e, hub: hub.MakeBuilder().WithEngine(e).WithID(1).WithLatencies(forwardNs, reorderNs).
		WithMemoryDelay(func(p *fabric.Packet) sim.VTimeInSec { return fabric.Ns(memoryNs(p)) }).
		Build("Hub")}
	for _, n := range []int{0, 2} {
		r.link[n] = fabrictest.NewAgent(fmt.Sprintf("Link%d", n), e, 64)
		fabric.Wire(r.hub.LinkPort(n), r.link[n].Port)
	}
	for i := range r.mem {
		r.mem[i] = fabrictest.NewAgent(fmt.Sprintf("Mem%d", i), e, 64)
		fabric.Wire(r.hub.MemoryPort(i), r.mem[i].Port)
	}
	r.req1, r.req2 = fabrictest.NewAgent("Req1", e, 64), fabrictest.NewAgent("Req2", e, 64)
	fabric.Wire(r.hub.LocalPort("Req1", r.req1.Port), r.req1.Port)
	fabric.Wire(r.hub.LocalPort("Req2", r.req2.Port), r.req2.Port)
	return r
}

// send hands p to the hub from agent from at time at, and runs.
func (r *hubRig) send(t *testing.T, from *fabrictest.Agent, at sim.VTimeInSec, p *fabric.Packet) {
	t.Helper()
	from.Send(at, p)
	if err := r.e.Run(); err != nil {
		t.Fatal(err)
	}
}

// arrived checks that exactly p arrived at agent a, at time want.
func arrived(t *testing.T, where string, a *fabrictest.Agent, p *fabric.Packet, want sim.VTimeInSec) {
	t.Helper()
	if len(a.Got) != 1 || a.Got[0] != sim.Msg(p) {
		t.Fatalf("%s got %d messages, want the one packet", where, len(a.Got))
	}
	if got := a.Arrivals[0]; !near(got, want) {
		t.Errorf("%s: packet arrived at %g s, want %g s", where, got, want)
	}
}

func near(a, b sim.VTimeInSec) bool { d := a - b; return d < 1e-18 && d > -1e-18 }

// A packet passing through from one link to another pays the forwarding
// delay, as lag (no event of its own), and counts as forwarded.
func TestHubForwardsFromLinkWithDelay(t *testing.T) {
	r := newHubRig()
	p := fabric.NewRequest(fabric.WriteReq, 4096, fabric.Memory{Index: 1}, fabric.Route{0, 1, 2}, r.req1.Port, nil)
	p.Hop = 1 // at hub 1, came over the link from hub 0
	r.send(t, r.link[0], fabric.Ns(10), p)
	arrived(t, "link to hub 2", r.link[2], p, fabric.Ns(10+forwardNs))
	if p.Hop != 2 || r.hub.Forwarded != 1 {
		t.Errorf("hop %d, forwarded %d; want hop 2, 1 forwarded", p.Hop, r.hub.Forwarded)
	}
	if len(r.mem[1].Got)+len(r.link[0].Got) != 0 {
		t.Error("packet also went elsewhere")
	}
}

// A packet from a local requester leaves on its first link with no
// forwarding delay: it did not pass through.
func TestHubSendsLocalPacketWithoutForwardDelay(t *testing.T) {
	r := newHubRig()
	p := fabric.NewRequest(fabric.ReadReq, 4096, fabric.Memory{Index: 1}, fabric.Route{1, 2}, r.req1.Port, nil)
	r.send(t, r.req1, fabric.Ns(10), p)
	arrived(t, "link to hub 2", r.link[2], p, fabric.Ns(10))
	if r.hub.Forwarded != 0 {
		t.Errorf("forwarded %d, want 0", r.hub.Forwarded)
	}
}

// At its last hub a request goes to the memory it targets after the memory
// delay, plus the reorder delay if it crossed a multi-link bundle; an
// unordered packet passing through is not reordered there.
func TestHubDeliversRequestsToMemory(t *testing.T) {
	for _, unordered := range []bool{false, true} {
		r := newHubRig()
		p := fabric.NewRequest(fabric.WriteReq, 4096, fabric.Memory{Host: true, Index: 1}, fabric.Route{2, 1}, r.req1.Port, nil)
		p.Hop, p.Unordered = 1, unordered
		r.send(t, r.link[2], fabric.Ns(10), p)
		want := 10 + memoryNs(p) // entered at hub 2: 2100 ns
		if unordered {
			want += reorderNs
		}
		arrived(t, "memory 1", r.mem[1], p, fabric.Ns(want))
		if p.Unordered {
			t.Error("packet still marked unordered after its last hub")
		}
		if len(r.mem[0].Got) != 0 || r.hub.Forwarded != 0 {
			t.Errorf("memory 0 got %d packets, forwarded %d", len(r.mem[0].Got), r.hub.Forwarded)
		}
	}
	r := newHubRig()
	p := fabric.NewRequest(fabric.WriteReq, 4096, fabric.Memory{}, fabric.Route{0, 1, 2}, r.req1.Port, nil)
	p.Hop, p.Unordered = 1, true
	r.send(t, r.link[0], 0, p)
	arrived(t, "link to hub 2", r.link[2], p, fabric.Ns(forwardNs))
	if !p.Unordered {
		t.Error("an unordered packet lost its mark at a hub it passed through")
	}
}

// A response at its last hub goes to the port of the requester that asked,
// with no memory delay (and the reorder delay if it needs reordering).
func TestHubReturnsResponsesToRequester(t *testing.T) {
	for _, unordered := range []bool{false, true} {
		r := newHubRig()
		p := fabric.NewRequest(fabric.ReadReq, 4096, fabric.Memory{Index: 0}, fabric.Route{1, 0}, r.req2.Port, nil)
		p.Respond(fabric.ReadRsp, 4096) // walks the route back, from hub 0 to hub 1
		p.Hop, p.Unordered = 0, unordered
		r.send(t, r.link[0], fabric.Ns(10), p)
		want := 10.0
		if unordered {
			want += reorderNs
		}
		arrived(t, "requester 2", r.req2, p, fabric.Ns(want))
		if len(r.req1.Got)+len(r.mem[0].Got)+len(r.mem[1].Got) != 0 {
			t.Error("response also went elsewhere")
		}
	}
}

// Responses walk their route back: one the memory here answered leaves on
// its first link with no forwarding delay, one that came over a link and
// passes on pays it.
func TestHubForwardsResponsesBack(t *testing.T) {
	for _, tc := range []struct {
		name      string
		route     fabric.Route // the request's; the response is at hub 1 of it
		from      func(r *hubRig) *fabrictest.Agent
		want      float64
		forwarded uint64
	}{
		{"from memory", fabric.Route{0, 1}, func(r *hubRig) *fabrictest.Agent { return r.mem[1] }, 10, 0},
		{"over a link", fabric.Route{0, 1, 2}, func(r *hubRig) *fabrictest.Agent { return r.link[2] }, 10 + forwardNs, 1},
	} {
		r := newHubRig()
		p := fabric.NewRequest(fabric.ReadReq, 4096, fabric.Memory{Index: 1}, tc.route, r.req1.Port, nil)
		p.Respond(fabric.ReadRsp, 4096)
		p.Hop = 1
		r.send(t, tc.from(r), fabric.Ns(10), p)
		arrived(t, tc.name+": link to hub 0", r.link[0], p, fabric.Ns(tc.want))
		if p.Hop != 0 || r.hub.Forwarded != tc.forwarded {
			t.Errorf("%s: hop %d, forwarded %d; want hop 0, %d forwarded", tc.name, p.Hop, r.hub.Forwarded, tc.forwarded)
		}
	}
}
