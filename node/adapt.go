package node

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/xgmi"
	"github.com/sarchlab/akita/v3/sim"
)

// linkDir is one direction of a link.
type linkDir struct {
	link *xgmi.Bundle
	dir  int
}

// join is a packet dealt over paths, waiting at the switch where they meet.
type join struct {
	hub       int            // the switch that rejoins the parts
	hop       int            // the whole packet's Route index of that switch
	left      int            // parts still on their way
	end       sim.VTimeInSec // when the last byte of the parts so far is there
	unordered bool
}

// adapt is Slingshot's adaptive routing by load (network.adaptive_routing
// = "load_aware"), decided where the real one is, at the first switch a
// packet reaches, and per wire packet as the real one decides: of the
// paths to the last switch on its way (the direct link and the two-hop
// paths of the group), each wire packet takes the one whose first link
// would send it soonest when it comes in (work booked there, the packets
// before it, itself) times the switch links it crosses (UGAL with local
// queues), the direct one on a tie. An idle network sends everything the
// short way; a direct link with more than a packet queued spills onto
// two-hop paths. A transaction stands for its wire packets, which stream
// in over its Spread: the packets each path gets travel on as one part,
// and the switch where the paths meet again rejoins the parts. So a
// transaction is dealt as its wire packets would be, not sent whole one
// way, and a small change in timing moves a few packets, not a whole
// transaction. Packets the links interleave between bulk wire packets
// (requests, acks, flushes, one-packet writes) wait behind none of it, so
// they keep the minimal path: weighing them by bulk backlog would send a
// fence the long way for no gain.
func (n *Node) adapt(now sim.VTimeInSec, p *fabric.Packet) ([]*fabric.Packet, bool) {
	first := n.Routes.Hubs().Switch(0)
	r, i := p.Route, p.Hop
	step := 1
	if p.Back {
		step = -1
	}
	if k := i - step; k >= 0 && k < len(r) && r[k] >= first {
		// came from another switch: the first one chose
		if p.Whole != nil {
			return n.rejoin(now, p)
		}
		return nil, false
	}
	j := i
	for k := j + step; k >= 0 && k < len(r) && r[k] >= first; k += step {
		j = k
	}
	if j == i {
		return nil, false
	}
	a, b := r[i]-first, r[j]-first
	paths, ok := n.paths[[2]int{a, b}]
	if !ok {
		paths = n.Routes.Network().Paths(a, b)
		n.paths[[2]int{a, b}] = paths
	}
	if len(paths) < 2 {
		return nil, false
	}
	for _, path := range paths { // built before the first packet weighs them
		for k := 1; k < len(path); k++ {
			n.buildLink(path[k-1], path[k])
		}
	}
	lo, hi := min(i, j), max(i, j)
	shares := n.deal(now, p, paths)
	used, most := 0, 0
	for k, s := range shares {
		if s.packets > 0 {
			used++
		}
		if s.packets > shares[most].packets {
			most = k
		}
	}
	if used > 1 && p.Notice == nil { // a packet reporting its passage travels whole
		return n.split(p, paths, shares, lo, hi, j, first), false
	}
	path := paths[most]
	if len(path) == hi-lo+1 && onRoute(r[lo:hi+1], path, first, p.Back) {
		return nil, false // the packet already takes it: no new route
	}
	p.Route = reroute(r, lo, hi, path, first, p.Back)
	if p.Back {
		p.Hop = lo + len(path) - 1
	}
	return nil, false
}

// dealing is deal's scratch, kept on the node so a decision allocates nothing.
type dealing struct {
	shares    []share
	free, per []sim.VTimeInSec
}

// share is the wire packets of a transaction one path takes.
type share struct {
	packets     int
	bytes       int
	first, last int // indices of its first and last wire packet
}

// wirePackets is how many wire packets p's data crosses the network in.
func (n *Node) wirePackets(p *fabric.Packet) int {
	q := n.Config.Network.Link.PacketPayloadBytes
	return max(1, (p.Size+q-1)/q)
}

// deal gives p's wire packets, in the order they stream in, to the paths
// by UGAL: each to the path whose first link would send it soonest, times
// the path's switch links.
func (n *Node) deal(now sim.VTimeInSec, p *fabric.Packet, paths [][]int) []share {
	// the node's scratch: a decision is made and used before the next one
	d := &n.dealing
	d.shares = append(d.shares[:0], make([]share, len(paths))...)
	d.free, d.per = d.free[:0], d.per[:0]
	shares := d.shares
	if l := n.switchLinks[[2]int{paths[0][0], paths[0][1]}]; l.link.Interleaves(p) {
		// it waits behind no bulk work anywhere: the short way is the
		// soonest, also for an ack answering a write that went the long way
		shares[0] = share{packets: 1, bytes: p.Size}
		return shares
	}
	q := n.Config.Network.Link.PacketPayloadBytes
	count := n.wirePackets(p)
	at := now + p.Lag
	for _, path := range paths {
		l := n.switchLinks[[2]int{path[0], path[1]}]
		busy := l.link.Drain(at, l.dir, 0)
		d.free = append(d.free, at+busy)                       // when its first link would be done
		d.per = append(d.per, l.link.Drain(at, l.dir, q)-busy) // a wire packet's time on it
	}
	free, per := d.free, d.per
	for w := 0; w < count; w++ {
		t := at
		if count > 1 {
			t += p.Spread * sim.VTimeInSec(w) / sim.VTimeInSec(count-1)
		}
		best, cost := 0, sim.VTimeInSec(-1)
		for k, path := range paths {
			c := (max(0, free[k]-t) + per[k]) * sim.VTimeInSec(len(path)-1)
			if cost < 0 || c < cost {
				best, cost = k, c
			}
		}
		free[best] = max(free[best], t) + per[best]
		s := &shares[best]
		if s.packets == 0 {
			s.first = w
		}
		s.packets++
		s.last = w
		s.bytes += min(q, p.Size-w*q)
	}
	return shares
}

// split sends p's shares as parts, each on its path, and records where
// they meet again (the whole's Route index j).
func (n *Node) split(p *fabric.Packet, paths [][]int, shares []share, lo, hi, j, first int) []*fabric.Packet {
	gap := p.Spread / sim.VTimeInSec(n.wirePackets(p)-1) // between wire packets coming in
	out := make([]*fabric.Packet, 0, len(paths))
	for k, s := range shares {
		if s.packets == 0 {
			continue
		}
		part := new(fabric.Packet)
		*part = *p
		part.Whole = p
		part.Size, part.TrafficBytes = s.bytes, s.bytes
		part.Route = reroute(p.Route, lo, hi, paths[k], first, p.Back)
		if p.Back {
			part.Hop = lo + len(paths[k]) - 1
		}
		part.Lag = p.Lag + gap*sim.VTimeInSec(s.first)
		part.Spread = gap * sim.VTimeInSec(s.last-s.first)
		part.Landed = nil
		out = append(out, part)
	}
	n.joins[p] = &join{hub: p.Route[j], hop: j, left: len(out), unordered: p.Unordered}
	return out
}

// rejoin holds a part that reached the switch where its whole's paths meet
// until the last part is there, then sends the whole on: its first byte
// with the last part's, its last byte with the latest of theirs.
func (n *Node) rejoin(now sim.VTimeInSec, part *fabric.Packet) ([]*fabric.Packet, bool) {
	w := part.Whole
	jn := n.joins[w]
	if jn == nil || part.Route[part.Hop] != jn.hub {
		return nil, false // on its way through another switch
	}
	jn.left--
	jn.end = max(jn.end, now+part.Lag+part.Spread)
	jn.unordered = jn.unordered || part.Unordered
	if jn.left > 0 {
		return nil, true
	}
	delete(n.joins, w)
	w.Hop = jn.hop
	w.Lag = part.Lag
	w.Spread = max(0, jn.end-(now+part.Lag))
	w.Unordered = jn.unordered
	return []*fabric.Packet{w}, false
}

// reroute is r with its switches lo..hi replaced by path (switch indices
// from first, walked backwards on the way back).
func reroute(r fabric.Route, lo, hi int, path []int, first int, back bool) fabric.Route {
	route := make(fabric.Route, 0, len(r)-(hi-lo+1)+len(path))
	route = append(route, r[:lo]...)
	for k := range path {
		if back {
			route = append(route, first+path[len(path)-1-k])
		} else {
			route = append(route, first+path[k])
		}
	}
	return append(route, r[hi+1:]...)
}

// onRoute says whether seg, a route's switches (reversed on the way back),
// is path (switch indices from first).
func onRoute(seg fabric.Route, path []int, first int, back bool) bool {
	for k, sw := range path {
		at := k
		if back {
			at = len(seg) - 1 - k
		}
		if seg[at] != first+sw {
			return false
		}
	}
	return true
}
