package node

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// With bulk work queued on the direct link between two switches, a bulk
// write's wire packets spill onto two-hop paths, while a fence, a read
// request, an ack and a one-packet write keep the direct link: they are
// interleaved between the bulk wire packets and wait behind none of them.
func TestAdaptKeepsInterleavedPacketsOnTheShortWay(t *testing.T) {
	n := build(t, "frontier-node.toml", "network.nodes=2")
	h, w := n.Routes.Hubs(), n.Routes.Network()
	a, b := w.SwitchOf(0, 0), w.SwitchOf(1, 1)
	if a == b {
		t.Fatalf("NIC 0 of node 0 and NIC 1 of node 1 share switch %d", a)
	}
	n.buildLink(a, b)
	l := n.switchLinks[[2]int{a, b}]
	bulk := fabric.NewRequest(fabric.WriteReq, 1<<20, fabric.Memory{Index: 9}, fabric.Route{h.Switch(a), h.Switch(b)}, nil, nil)
	if err := l.link.Port(l.dir).Recv(bulk); err != nil {
		t.Fatal("the link refused the bulk write")
	}
	if l.link.Drain(0, l.dir, 0) <= 0 {
		t.Fatal("the bulk write booked nothing on the direct link")
	}
	route := fabric.Route{h.NIC(0, 0), h.Switch(a), h.Switch(b), h.NIC(1, 1)}
	send := func(kind fabric.Kind, size int) (*fabric.Packet, []*fabric.Packet) {
		p := fabric.NewRequest(kind, size, fabric.Memory{Index: 9}, append(fabric.Route{}, route...), nil, nil)
		p.Hop = 1
		out, held := n.adapt(0, p)
		if held {
			t.Fatalf("%v of %d B held at its first switch", kind, size)
		}
		return p, out
	}
	if p, parts := send(fabric.WriteReq, 65536); len(parts) < 2 && reflect.DeepEqual(p.Route, route) {
		t.Error("a 64 KiB write behind 1 MiB of queued work stayed on the direct link")
	}
	for _, c := range []struct {
		kind fabric.Kind
		size int
	}{{fabric.FlushReq, 0}, {fabric.ReadReq, 65536}, {fabric.WriteReq, 64}} {
		if p, parts := send(c.kind, c.size); parts != nil || !reflect.DeepEqual(p.Route, route) {
			t.Errorf("%v of %d B: route %v, want the direct %v", c.kind, c.size, p.Route, route)
		}
	}
	ack := fabric.NewRequest(fabric.WriteReq, 65536, fabric.Memory{Index: 9}, append(fabric.Route{}, route...), nil, nil)
	ack.Respond(fabric.WriteAck, 0)
	ack.Hop = 2 // coming back: the far switch is the first it reaches
	far := n.switchLinks[[2]int{b, a}]
	far.link.Port(far.dir).Recv(fabric.NewRequest(fabric.WriteReq, 1<<20, fabric.Memory{Index: 0}, fabric.Route{h.Switch(b), h.Switch(a)}, nil, nil))
	n.adapt(0, ack)
	if !reflect.DeepEqual(ack.Route, route) {
		t.Errorf("ack: route %v, want the direct %v", ack.Route, route)
	}
}

// A transaction dealt over paths leaves as parts that carry all its bytes,
// each on its own path, and comes out of the switch where the paths meet
// whole, once, after its last part, with the latest part's last byte.
func TestAdaptDealsAndRejoins(t *testing.T) {
	n := build(t, "frontier-node.toml", "network.nodes=2")
	h, w := n.Routes.Hubs(), n.Routes.Network()
	a, b := w.SwitchOf(0, 0), w.SwitchOf(1, 1)
	n.buildLink(a, b)
	l := n.switchLinks[[2]int{a, b}]
	busy := fabric.NewRequest(fabric.WriteReq, 1<<20, fabric.Memory{Index: 9}, fabric.Route{h.Switch(a), h.Switch(b)}, nil, nil)
	if err := l.link.Port(l.dir).Recv(busy); err != nil {
		t.Fatal("the link refused the bulk write")
	}
	route := fabric.Route{h.NIC(0, 0), h.Switch(a), h.Switch(b), h.NIC(1, 1)}
	p := fabric.NewRequest(fabric.WriteReq, 65536+100, fabric.Memory{Index: 9}, append(fabric.Route{}, route...), nil, nil)
	p.Hop, p.Spread = 1, 2e-6
	parts, _ := n.adapt(0, p)
	if len(parts) < 2 {
		t.Fatalf("%d parts, want the write dealt over several paths", len(parts))
	}
	sum, seen := 0, map[string]bool{}
	for _, q := range parts {
		sum += q.Size
		if q.Whole != p || q.Size%2048 != 0 && q.Size%2048 != 100 {
			t.Errorf("part of %d B, whole %p: want whole wire packets of %p", q.Size, q.Whole, p)
		}
		key := fmt.Sprint(q.Route)
		if seen[key] {
			t.Errorf("two parts on route %v", q.Route)
		}
		seen[key] = true
	}
	if sum != p.Size {
		t.Fatalf("parts carry %d B of %d", sum, p.Size)
	}
	var out []*fabric.Packet
	for k, q := range parts {
		for q.Advance(); q.Route[q.Hop] != h.Switch(b); q.Advance() {
			if got, held := n.adapt(0, q); got != nil || held {
				t.Fatalf("part %d held or split at an intermediate switch", k)
			}
		}
		q.Lag, q.Spread = sim.VTimeInSec(1e-6*float64(k+1)), 1e-6
		got, held := n.adapt(0, q)
		if k < len(parts)-1 && (!held || got != nil) {
			t.Fatalf("part %d of %d not held at the meeting switch", k, len(parts))
		}
		out = got
	}
	if len(out) != 1 || out[0] != p {
		t.Fatalf("the meeting switch sent %v, want the whole packet", out)
	}
	last := sim.VTimeInSec(1e-6 * float64(len(parts)))
	if p.Route[p.Hop] != h.Switch(b) || p.Lag != last || math.Abs(float64(p.Spread)-1e-6) > 1e-15 {
		t.Errorf("rejoined at hub %d with lag %g, spread %g; want hub %d, %g, 1e-6", p.Route[p.Hop], p.Lag, p.Spread, h.Switch(b), last)
	}
	if len(n.joins) != 0 {
		t.Errorf("%d joins left", len(n.joins))
	}
}
