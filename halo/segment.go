// Package halo holds the geometry of the acm halo exchange (the Astaroth
// communication module of seed 001, docs/references.md [seed-001], [acm]): the
// padded local box, its halo segments and how each lies in memory, and
// the decomposition of a global grid over ranks.
package halo

import "fmt"

// SegmentMaxDims is the most dimensions acm's pack kernels are built for
// (1-5 D).
const SegmentMaxDims = 5

// Segment is one box of the padded local grid (acm's ac::segment): its
// extent and first element per axis, x (the fastest axis in memory) first.
type Segment struct {
	Dims   []int
	Offset []int
}

// PaddedBox is the local box with its halo, nn + 2r per axis (acm's mm).
func PaddedBox(nn []int, r int) []int {
	mm := make([]int, len(nn))
	for i, n := range nn {
		mm[i] = n + 2*r
	}
	return mm
}

// CheckSegmentBox says what is wrong with a local box nn and halo radius r, or
// nil: 1..SegmentMaxDims axes of at least one point, 1 <= r <= every axis (a
// segment copies r layers of its neighbour's interior).
func CheckSegmentBox(nn []int, r int) error {
	if len(nn) < 1 || len(nn) > SegmentMaxDims {
		return fmt.Errorf("want 1..%d axes, got %d", SegmentMaxDims, len(nn))
	}
	for i, n := range nn {
		if n < 1 {
			return fmt.Errorf("axis %d: want at least 1 point, got %d", i, n)
		}
	}
	if r < 1 {
		return fmt.Errorf("radius: want at least 1, got %d", r)
	}
	for i, n := range nn {
		if r > n {
			return fmt.Errorf("radius %d is larger than axis %d (%d points)", r, i, n)
		}
	}
	return nil
}

// Segments are the 3^D - 1 halo segments of the local box nn with radius
// r, in acm's order: partition(mm, nn, rr) splits the padded box into
// left, centre and right parts axis by axis (x outermost), and prune drops
// the centre box, the interior.
func Segments(nn []int, r int) []Segment {
	d := len(nn)
	mm := PaddedBox(nn, r)
	var out []Segment
	var walk func(axis int, dims, off []int)
	walk = func(axis int, dims, off []int) {
		if axis == d {
			for i := range dims {
				if off[i] != r { // outside the interior on some axis
					out = append(out, Segment{Dims: append([]int(nil), dims...), Offset: append([]int(nil), off...)})
					return
				}
			}
			return
		}
		cuts := [4]int{0, r, r + nn[axis], mm[axis]}
		for p := 0; p < 3; p++ {
			dims[axis], off[axis] = cuts[p+1]-cuts[p], cuts[p]
			walk(axis+1, dims, off)
		}
	}
	walk(0, make([]int, d), make([]int, d))
	return out
}

// Elems is the segment's element count.
func (s Segment) Elems() int64 {
	n := int64(1)
	for _, v := range s.Dims {
		n *= int64(v)
	}
	return n
}

// Runs are the segment's contiguous runs in the padded box mm for one
// field, x fastest: how many, the elements of each, and the elements from
// one run's start to the next (the pitch of the axis the runs step
// along). Axes the segment spans whole join their neighbour's run.
func (s Segment) Runs(mm []int) (runs, elems, pitch int64) {
	elems, pitch = 1, 1
	k := 0
	for ; k < len(s.Dims); k++ {
		elems *= int64(s.Dims[k])
		pitch *= int64(mm[k])
		if s.Dims[k] != mm[k] {
			break
		}
	}
	runs = s.Elems() / elems
	return runs, elems, pitch
}

// Start is the linear index of the segment's first element in the padded
// box mm (x fastest).
func (s Segment) Start(mm []int) int64 {
	var idx, pitch int64 = 0, 1
	for i, o := range s.Offset {
		idx += int64(o) * pitch
		pitch *= int64(mm[i])
	}
	return idx
}

// Span is the elements from the segment's first to one past its last in
// the padded box mm: the part of the field a pack of it touches.
func (s Segment) Span(mm []int) int64 {
	var last, pitch int64 = 0, 1
	for i, d := range s.Dims {
		last += int64(d-1) * pitch
		pitch *= int64(mm[i])
	}
	return last + 1
}
