package fabric

import "github.com/sarchlab/akita/v3/sim"

// Packets keeps a requester's answered packets for its next requests: a
// packet per transaction was most of what a requester (a CU, an L2's
// write-backs, an SDMA engine) allocated.
type Packets struct{ free []*Packet }

// Put keeps an answered packet; nothing else may hold it. A gather's long
// range lists are not kept with it: most packets are idle in the pool at
// any time, and each kept the longest list it ever carried, together
// most of a kernel's live memory.
func (ps *Packets) Put(p *Packet) {
	if cap(p.Extents) > keptExtents {
		p.Extents = nil
	}
	if cap(p.Origin.Extents) > keptExtents {
		p.Origin.Extents = nil
	}
	ps.free = append(ps.free, p)
}

// keptExtents is the longest range list an idle packet keeps.
const keptExtents = 16

// Request is a new request from requester along route, tagged tag: the
// packet kept last, reissued, or a new one when none is kept.
func (ps *Packets) Request(kind Kind, size int, target Memory, route Route, requester sim.Port, tag any) *Packet {
	n := len(ps.free)
	if n == 0 {
		return NewRequest(kind, size, target, route, requester, tag)
	}
	p := ps.free[n-1]
	ps.free = ps.free[:n-1]
	p.Requester, p.Tag = requester, tag
	return p.Reissue(kind, size, target, route)
}
