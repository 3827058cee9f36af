package halo

import (
	"slices"
)

// Packet is one message of acm's halo exchange from a rank's side
// (acm::packet, halo_exchange_custom.h and halo_exchange_batched.h): the
// halo segment it receives into, the interior segment of the same shape
// it sends, and the way the data travels. The rank receives Recv from
// Neighbour(rank, -Dir) and sends Send to Neighbour(rank, Dir).
type Packet struct {
	Recv, Send Segment
	Dir        []int // -1, 0 or 1 per axis, x first
}

// Packets are the exchange's packets for the local box nn and radius r in
// the order acm launches them: the halo segments sorted largest first
// (std::sort by element count; ties keep partition order here, std::sort
// leaves them unspecified). The send segment is acm's
// ((nn + offset - rr) % nn) + rr: the r interior layers next to the side
// the data leaves by, wrapped inside the box when r is deeper than it.
func Packets(nn []int, r int) []Packet {
	segs := Segments(nn, r)
	slices.SortStableFunc(segs, func(a, b Segment) int {
		switch ea, eb := a.Elems(), b.Elems(); {
		case ea > eb:
			return -1
		case ea < eb:
			return 1
		}
		return 0
	})
	out := make([]Packet, len(segs))
	for i, s := range segs {
		p := Packet{Recv: s, Send: Segment{Dims: slices.Clone(s.Dims), Offset: make([]int, len(nn))}, Dir: make([]int, len(nn))}
		for a, o := range s.Offset {
			switch {
			case o < r:
				p.Dir[a] = 1 // the left halo comes from the left neighbour, travelling right
			case o >= r+nn[a]:
				p.Dir[a] = -1
			}
			p.Send.Offset[a] = ((nn[a]+o-r)%nn[a]+nn[a])%nn[a] + r
		}
		out[i] = p
	}
	return out
}

// Peers are the ranks rank receives packet p from and sends it to.
func (d *Decomposition) Peers(rank int, p Packet) (from, to int) {
	back := make([]int, len(p.Dir))
	for a, v := range p.Dir {
		back[a] = -v
	}
	return d.Neighbour(rank, back), d.Neighbour(rank, p.Dir)
}
