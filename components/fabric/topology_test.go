package fabric

import (
	"reflect"
	"testing"
)

// frontier is the MI250X node's xGMI graph plus the host as hub 8.
func frontier() *Topology {
	t := NewTopology(9)
	for _, b := range [][3]int{{0, 1, 4}, {2, 3, 4}, {4, 5, 4}, {6, 7, 4}, {0, 6, 2}, {2, 4, 2},
		{0, 2, 1}, {1, 3, 1}, {1, 5, 1}, {3, 7, 1}, {4, 6, 1}, {5, 7, 1}} {
		t.Connect(b[0], b[1], 50*float64(b[2]))
	}
	for g := 0; g < 8; g++ {
		t.Connect(g, 8, 36)
	}
	return t
}

func TestRoutes(t *testing.T) {
	topo := frontier()
	cases := []struct {
		src, dst int
		p        Policy
		want     []Route
	}{
		{1, 7, Widest, []Route{{1, 0, 6, 7}}},         // 2 links wide in 3 hops (seed paper)
		{1, 7, Fewest, []Route{{1, 3, 7}, {1, 5, 7}}}, // 2 hops, single links, tied
		{0, 3, Widest, []Route{{0, 1, 3}, {0, 2, 3}}}, // tie
		{0, 7, Widest, []Route{{0, 6, 7}}},            // dual then quad
		{0, 1, Widest, []Route{{0, 1}}},               // direct quad
		{3, 8, Widest, []Route{{3, 8}}},               // own host link
		{8, 5, Fewest, []Route{{8, 5}}},               // host to GCD
	}
	for _, c := range cases {
		got, err := topo.Routes(c.src, c.dst, c.p, 3, 8)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%d->%d %s: %v, want %v", c.src, c.dst, c.p, got, c.want)
		}
	}
}

// GCD-to-GCD routes never pass through the host, and a route longer than
// the hop limit is not taken.
func TestRoutesAvoidHostAndRespectHops(t *testing.T) {
	topo := frontier()
	for s := 0; s < 8; s++ {
		for d := 0; d < 8; d++ {
			rs, err := topo.Routes(s, d, Widest, 3, 8)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rs {
				for _, h := range r {
					if h == 8 {
						t.Errorf("%d->%d goes through the host: %v", s, d, r)
					}
				}
			}
		}
	}
	if _, err := topo.Routes(1, 7, Widest, 1, 8); err == nil {
		t.Error("1->7 found a route within one hop")
	}
	rs, _ := topo.Routes(1, 7, Widest, 2, 8)
	if len(rs) != 2 || rs[0].Hops() != 2 {
		t.Errorf("1->7 within 2 hops: %v, want the two single-link routes", rs)
	}
}

func TestWireBytes(t *testing.T) {
	p := &Packet{Kind: WriteReq, Size: 64 << 10}
	if got, want := p.WireBytes(64, 21, 11, 64), 64<<10+1024*21; got != want {
		t.Errorf("64 KiB write: %d wire bytes, want %d", got, want)
	}
	ack := &Packet{Kind: WriteAck, Size: 64 << 10}
	if got := ack.WireBytes(64, 21, 11, 64); got != 21 {
		t.Errorf("ack: %d wire bytes, want one header (21)", got)
	}
	read := &Packet{Kind: ReadReq, Size: 64 << 10}
	if got := read.WireBytes(64, 21, 11, 64); got != 64<<10 {
		t.Errorf("64 KiB read request: %d wire bytes, want one 64 B request per line", got)
	}
	small := &Packet{Kind: WriteReq, Size: 16}
	if got := small.WireBytes(64, 21, 11, 64); got != 37 {
		t.Errorf("16 B write: %d wire bytes, want 37", got)
	}
	// read data carries the response header, no address
	data := &Packet{Kind: ReadRsp, Size: 64 << 10}
	if got, want := data.WireBytes(64, 21, 11, 64), 64<<10+1024*11; got != want {
		t.Errorf("64 KiB of read data: %d wire bytes, want %d", got, want)
	}
}

// Tied routes come lowest hubs first whatever order the links were given
// in: the tie-break of a route table does not depend on the config's order.
func TestRoutesTieOrderIgnoresLinkOrder(t *testing.T) {
	topo := NewTopology(4)
	for _, b := range [][2]int{{2, 3}, {0, 2}, {1, 3}, {0, 1}} { // through 2 connected first
		topo.Connect(b[0], b[1], 50)
	}
	got, err := topo.Routes(0, 3, Fewest, 3, -1)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Route{{0, 1, 3}, {0, 2, 3}}; !reflect.DeepEqual(got, want) {
		t.Errorf("0->3: %v, want %v", got, want)
	}
}
