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

// adapt is Slingshot's adaptive routing by load (network.adaptive_routing
// = "load_aware"), decided where the real one is, at the first switch a
// packet reaches: of the paths to the last switch on its way (the direct
// link and the two-hop paths of the group), it takes the one whose first
// link would send it soonest (booked work and the packet itself) times
// the switch links it crosses (UGAL with local queues), the direct one
// on a tie: an idle network sends everything the short way, a direct
// link with more than a packet queued spills onto two-hop paths. Packets
// booked on a link before are in that work, so flows that start together
// spread.
func (n *Node) adapt(now sim.VTimeInSec, p *fabric.Packet) {
	first := n.Routes.Hubs().Switch(0)
	r, i := p.Route, p.Hop
	step := 1
	if p.Back {
		step = -1
	}
	if k := i - step; k >= 0 && k < len(r) && r[k] >= first {
		return // came from another switch: the first one chose
	}
	j := i
	for k := j + step; k >= 0 && k < len(r) && r[k] >= first; k += step {
		j = k
	}
	if j == i {
		return
	}
	a, b := r[i]-first, r[j]-first
	paths, ok := n.paths[[2]int{a, b}]
	if !ok {
		paths = n.Routes.Network().Paths(a, b)
		n.paths[[2]int{a, b}] = paths
	}
	if len(paths) < 2 {
		return
	}
	for _, path := range paths { // built before the first packet weighs them
		for k := 1; k < len(path); k++ {
			n.buildLink(path[k-1], path[k])
		}
	}
	best, cost := 0, sim.VTimeInSec(-1)
	for k, path := range paths {
		l := n.switchLinks[[2]int{path[0], path[1]}]
		c := l.link.Drain(now, l.dir, p.TrafficBytes) * sim.VTimeInSec(len(path)-1)
		if cost < 0 || c < cost {
			best, cost = k, c
		}
	}
	path := paths[best]
	lo, hi := min(i, j), max(i, j)
	if len(path) == hi-lo+1 && onRoute(r[lo:hi+1], path, first, p.Back) {
		return // the packet already takes it: no new route
	}
	route := make(fabric.Route, 0, len(r)-(hi-lo+1)+len(path))
	route = append(route, r[:lo]...)
	for k := range path {
		if p.Back {
			route = append(route, first+path[len(path)-1-k])
		} else {
			route = append(route, first+path[k])
		}
	}
	route = append(route, r[hi+1:]...)
	p.Route = route
	if p.Back {
		p.Hop = lo + len(path) - 1
	}
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
