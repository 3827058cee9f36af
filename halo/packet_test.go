package halo

import (
	"slices"
	"testing"
)

// Packets come largest first, each sends the interior layers next to the
// side its data leaves by (inside the interior when r fits the box), and
// what a rank sends in packet k is what its partner receives in packet k.
func TestPackets(t *testing.T) {
	nn, r := []int{16, 8, 4}, 2
	ps := Packets(nn, r)
	if len(ps) != 26 {
		t.Fatalf("%d packets, want 26", len(ps))
	}
	for i, p := range ps {
		if i > 0 && p.Recv.Elems() > ps[i-1].Recv.Elems() {
			t.Errorf("packet %d (%d points) after %d points: want largest first", i, p.Recv.Elems(), ps[i-1].Recv.Elems())
		}
		for a := range nn {
			lo, hi := p.Send.Offset[a], p.Send.Offset[a]+p.Send.Dims[a]
			if lo < r || hi > r+nn[a] {
				t.Errorf("packet %d sends [%d,%d) on axis %d, outside the interior [%d,%d)", i, lo, hi, a, r, r+nn[a])
			}
			want := r // a centre part, or the left layers when travelling left
			if p.Dir[a] == 1 {
				want = nn[a] // the last r interior layers go right
			}
			if p.Send.Offset[a] != want {
				t.Errorf("packet %d (dir %v): send offset %d on axis %d, want %d", i, p.Dir, p.Send.Offset[a], a, want)
			}
		}
	}
	if !slices.Equal(ps[0].Recv.Dims, []int{16, 8, 2}) {
		t.Errorf("largest packet %v, want a z face 16x8x2", ps[0].Recv.Dims)
	}
	d := mustDecompose(t, MPINo, []int{64, 32, 16}, 8)
	for rank := range d.Procs() {
		for k, p := range Packets(d.Local, 2) {
			_, to := d.Peers(rank, p)
			if from, _ := d.Peers(to, p); from != rank {
				t.Errorf("rank %d sends packet %d to %d, which receives it from %d", rank, k, to, from)
			}
		}
	}
}

// A radius deeper than the box wraps the send offset inside the padded
// box, as acm's modulo does.
func TestPacketsDeepRadius(t *testing.T) {
	nn, r := []int{2, 2}, 4
	mm := PaddedBox(nn, r)
	for _, p := range Packets(nn, r) {
		for a := range nn {
			if p.Send.Offset[a] < 0 || p.Send.Offset[a]+p.Send.Dims[a] > mm[a] {
				t.Errorf("send %v leaves the padded box %v", p.Send, mm)
			}
		}
	}
}
