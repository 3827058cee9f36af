package halo

import "fmt"

// ElementBytes is the size of a grid point: acm's fields are doubles.
const ElementBytes = 8

// Message is one halo message of an exchange, for one field: Src sends its
// boundary layer on side Dir to Dst = Neighbour(Src, Dir), which stores it
// in its halo on side -Dir.
type Message struct {
	Src, Dst       int   // ranks
	SrcGCD, DstGCD int   // global GCD ids under the placement
	Level          Level // how far the message travels
	Dir            []int // -1, 0 or 1 per axis, x first
	// Bytes per field: the segment's points (r on each axis Dir moves
	// along, the local extent on the others; faces r*n*n in a cube, edges
	// r*r*n, corners r*r*r) at 8 B a point.
	Bytes int64
}

// Messages lists every message of one exchange over d placed by p, for a
// halo of radius points: each rank sends 3^D - 1 (26 in 3D). They come rank
// by rank in the order acm posts them: a packet per halo segment in
// partition order (Segments), the segment received from direction s
// (get_direction, mpi_utils.cc:576-583) matched by a send of the same shape
// towards -s (bm_rank_reordering.cc:45-56).
func Messages(d *Decomposition, p Placement, radius int) ([]Message, error) {
	if err := checkRadius(radius); err != nil {
		return nil, err
	}
	segs := Segments(d.Local, radius)
	msgs := make([]Message, 0, d.Procs()*len(segs))
	for src := 0; src < d.Procs(); src++ {
		for _, seg := range segs {
			dir := make([]int, len(seg.Offset))
			for a, o := range seg.Offset {
				switch {
				case o < radius:
					dir[a] = 1 // received from -1: sent towards +1
				case o >= radius+d.Local[a]:
					dir[a] = -1
				}
			}
			dst := d.Neighbour(src, dir)
			msgs = append(msgs, Message{
				Src: src, Dst: dst, SrcGCD: p.GCD(src), DstGCD: p.GCD(dst), Level: p.Level(src, dst),
				Dir: dir, Bytes: seg.Elems() * ElementBytes,
			})
		}
	}
	return msgs, nil
}

// checkRadius wants a halo of at least one point. A radius deeper than the
// local box is accepted as acm runs it: its comm-scaling-strong job puts 16^3
// on 256 ranks (4x2x2 boxes) with radius 4 (benchmarks/gen-acm-benchmarks.py:
// 160-167), and its segments keep r points per moving axis, the send offsets
// wrapping within the box (bm_rank_reordering.cc:84-87): the data is not a
// true halo, the message sizes and partners are acm's.
func checkRadius(radius int) error {
	if radius < 1 {
		return fmt.Errorf("radius: %d, want at least 1", radius)
	}
	return nil
}
