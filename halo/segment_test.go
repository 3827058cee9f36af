package halo

import (
	"slices"
	"testing"
)

func cube(d, n int) []int {
	nn := make([]int, d)
	for i := range nn {
		nn[i] = n
	}
	return nn
}

func pow(b, e int64) int64 {
	p := int64(1)
	for range e {
		p *= b
	}
	return p
}

// Runs per field against the facts file's closed forms
// (notes/issue9-dtype-facts.md, "Contiguous runs per segment"): 3D
// 2n^2 + 12rn + 12r^2, 2D 2n + 6r, 1D 2; in general every axis but x
// contributes its r, n, r parts to the runs, so 3(n+2r)^(D-1) - n^(D-1).
func TestRunsPerField(t *testing.T) {
	for _, c := range []struct {
		d, n, r int
		want    int64
	}{
		{3, 256, 4, 143552}, {3, 64, 4, 11456}, {3, 16, 4, 1472},
		{2, 256, 4, 536}, {1, 256, 4, 2},
	} {
		var runs int64
		for _, s := range Segments(cube(c.d, c.n), c.r) {
			k, _, _ := s.Runs(PaddedBox(cube(c.d, c.n), c.r))
			runs += k
		}
		if runs != c.want {
			t.Errorf("%dD n=%d r=%d: %d runs, want %d", c.d, c.n, c.r, runs, c.want)
		}
	}
	for d := 1; d <= SegmentMaxDims; d++ {
		for _, nr := range [][2]int{{16, 4}, {7, 3}, {5, 1}} {
			n, r := int64(nr[0]), int64(nr[1])
			want := 3*pow(n+2*r, int64(d-1)) - pow(n, int64(d-1))
			var runs, elems int64
			mm := PaddedBox(cube(d, nr[0]), nr[1])
			for _, s := range Segments(cube(d, nr[0]), nr[1]) {
				k, e, _ := s.Runs(mm)
				runs += k
				elems += k * e
			}
			if runs != want {
				t.Errorf("%dD n=%d r=%d: %d runs, want %d", d, n, r, runs, want)
			}
			if halo := pow(n+2*r, int64(d)) - pow(n, int64(d)); elems != halo {
				t.Errorf("%dD n=%d r=%d: runs hold %d elements, the halo %d", d, n, r, elems, halo)
			}
		}
	}
}

// The 3D n=256 r=4 runs by length: 139,392 of 4 elements (32 B) and 4,160
// of 256 (2 KiB), as the facts file counts them.
func TestRunLengths3D(t *testing.T) {
	nn := cube(3, 256)
	mm := PaddedBox(nn, 4)
	by := map[int64]int64{}
	for _, s := range Segments(nn, 4) {
		k, e, pitch := s.Runs(mm)
		by[e] += k
		if pitch != int64(mm[0]) {
			t.Errorf("segment %v: pitch %d, want a row (%d)", s, pitch, mm[0])
		}
	}
	if by[4] != 139392 || by[256] != 4160 || len(by) != 2 {
		t.Errorf("runs by length %v, want 4:139392 256:4160", by)
	}
}

// 3^D - 1 segments (acm's batched kernel takes 2, 8, 26, 80 or 242), none
// overlapping the interior, all inside the padded box, in partition order.
func TestSegments(t *testing.T) {
	for d, want := range []int{0, 2, 8, 26, 80, 242} {
		if d == 0 {
			continue
		}
		nn := cube(d, 6)
		segs := Segments(nn, 2)
		if len(segs) != want {
			t.Fatalf("%dD: %d segments, want %d", d, len(segs), want)
		}
		mm := PaddedBox(nn, 2)
		for _, s := range segs {
			inside := true
			for i := range s.Dims {
				if s.Offset[i]+s.Dims[i] > mm[i] {
					t.Errorf("%dD segment %v leaves the padded box %v", d, s, mm)
				}
				inside = inside && s.Offset[i] == 2
			}
			if inside {
				t.Errorf("%dD: the interior %v is a segment", d, s)
			}
		}
	}
	segs := Segments([]int{8, 6}, 2)
	// x outermost: left column first (its y parts bottom, centre, top)
	if !slices.Equal(segs[0].Dims, []int{2, 2}) || !slices.Equal(segs[1].Offset, []int{0, 2}) ||
		!slices.Equal(segs[1].Dims, []int{2, 6}) || !slices.Equal(segs[3].Offset, []int{2, 0}) ||
		!slices.Equal(segs[3].Dims, []int{8, 2}) {
		t.Errorf("2D order %v", segs)
	}
}

// A segment spanning whole rows is one run; Start and Span place it.
func TestRunsJoinWholeAxes(t *testing.T) {
	mm := []int{10, 6, 4}
	s := Segment{Dims: []int{10, 2, 3}, Offset: []int{0, 1, 1}}
	if k, e, p := s.Runs(mm); k != 3 || e != 20 || p != 60 {
		t.Errorf("runs %d of %d, pitch %d; want 3 of 20, pitch 60", k, e, p)
	}
	if got := s.Start(mm); got != 70 {
		t.Errorf("start %d, want 70", got)
	}
	if got := s.Span(mm); got != 9+10*1+60*2+1 {
		t.Errorf("span %d", got)
	}
}

func TestCheckSegmentBox(t *testing.T) {
	for _, c := range []struct {
		nn []int
		r  int
		ok bool
	}{
		{[]int{256, 256, 256}, 4, true}, {[]int{4}, 4, true},
		{nil, 1, false}, {[]int{1, 1, 1, 1, 1, 1}, 1, false}, {[]int{8, 0}, 1, false},
		{[]int{8, 8}, 0, false}, {[]int{8, 3}, 4, false},
	} {
		if err := CheckSegmentBox(c.nn, c.r); (err == nil) != c.ok {
			t.Errorf("CheckSegmentBox(%v, %d) = %v", c.nn, c.r, err)
		}
	}
}
