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
	Bytes          int64 // per field: r per axis where Dir moves, the local extent elsewhere, 8 B a point
}

// Messages lists every message of one exchange over d placed by p, for a
// halo of radius points: each rank sends 3^D - 1 (26 in 3D). They come rank
// by rank in the order acm posts them: its halo segments in partition order
// (partition.cc:3-52, axis 0 outermost, low side first), the segment
// received from direction s being matched by a send towards -s
// (bm_rank_reordering.cc:52-55).
func Messages(d *Decomposition, p Placement, radius int) ([]Message, error) {
	if err := checkRadius(radius); err != nil {
		return nil, err
	}
	dirs := segmentDirections(len(d.Dims))
	msgs := make([]Message, 0, d.Procs()*len(dirs))
	for src := 0; src < d.Procs(); src++ {
		for _, s := range dirs {
			dir := make([]int, len(s))
			for a := range s {
				dir[a] = -s[a]
			}
			dst := d.Neighbour(src, dir)
			msgs = append(msgs, Message{
				Src: src, Dst: dst, SrcGCD: p.GCD(src), DstGCD: p.GCD(dst), Level: p.Level(src, dst),
				Dir: dir, Bytes: MessageBytes(d.Local, dir, radius),
			})
		}
	}
	return msgs, nil
}

// MessageBytes is the size for one field of the message in direction dir
// out of a local box nn: a face is r*n*n*8 B in 3D, an edge r*r*n*8 B, a
// corner r*r*r*8 B, with each axis's own extent in a non-cubic box.
func MessageBytes(nn, dir []int, radius int) int64 {
	b := int64(ElementBytes)
	for a, n := range nn {
		if dir[a] != 0 {
			n = radius
		}
		b *= int64(n)
	}
	return b
}

// checkRadius wants a halo of at least one point. A radius deeper than the
// local box is accepted as acm runs it: its comm-scaling-strong job puts 16^3
// on 256 ranks (4x2x2 boxes) with radius 4 (benchmarks/gen-acm-benchmarks.py:
// 159-167), and its segments keep r points per moving axis, the send offsets
// wrapping within the box (bm_rank_reordering.cc:84-87): the data is not a
// true halo, the message sizes and partners are acm's.
func checkRadius(radius int) error {
	if radius < 1 {
		return fmt.Errorf("radius: %d, want at least 1", radius)
	}
	return nil
}

// segmentDirections lists the 3^D - 1 directions of the halo segments in
// acm's partition order: axis 0 varies slowest, -1 before 0 before 1, the
// interior (all 0) left out.
func segmentDirections(ndims int) [][]int {
	var out [][]int
	cur := make([]int, ndims)
	var walk func(axis int)
	walk = func(axis int) {
		if axis == ndims {
			for _, v := range cur {
				if v != 0 {
					out = append(out, append([]int(nil), cur...))
					return
				}
			}
			return
		}
		for v := -1; v <= 1; v++ {
			cur[axis] = v
			walk(axis + 1)
		}
	}
	walk(0)
	return out
}
