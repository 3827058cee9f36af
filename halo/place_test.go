package halo

import (
	"slices"
	"strings"
	"testing"
)

func TestPlacementGCDs(t *testing.T) {
	lumi := DefaultPlacement(Hierarchical)
	for r, want := range map[int]int{0: 6, 1: 7, 2: 0, 7: 5, 8: 14, 9: 15, 63: 61} {
		if g := lumi.GCD(r); g != want {
			t.Errorf("LUMI map: rank %d on GCD %d, want %d", r, g, want)
		}
	}
	id := DefaultPlacement(MPINo)
	for r := 0; r < 24; r++ {
		if id.GCD(r) != r {
			t.Errorf("identity map: rank %d on GCD %d", r, id.GCD(r))
		}
	}
	for _, c := range []struct {
		a, b int
		want Level
	}{{0, 0, SameGCD}, {0, 1, SamePackage}, {1, 2, SameNode}, {7, 8, OtherNode}, {6, 7, SamePackage}} {
		if l := id.Level(c.a, c.b); l != c.want {
			t.Errorf("identity: ranks %d,%d at level %v, want %v", c.a, c.b, l, c.want)
		}
	}
	// Under the LUMI map rank 1 (GCD 7) and rank 2 (GCD 0) are on different
	// packages, ranks 2 and 3 (GCDs 0, 1) on one.
	if lumi.Level(1, 2) != SameNode || lumi.Level(2, 3) != SamePackage || lumi.Level(7, 6) != SamePackage {
		t.Errorf("LUMI map levels: 1-2 %v, 2-3 %v, 6-7 %v", lumi.Level(1, 2), lumi.Level(2, 3), lumi.Level(6, 7))
	}
}

func TestNewPlacementBadInput(t *testing.T) {
	for _, c := range []struct {
		m     []int
		per   int
		field string
	}{
		{nil, 2, "gcd_map:"},
		{[]int{0, 1, 1, 3}, 2, "gcd_map:"},
		{[]int{0, 1, 2, 8}, 2, "gcd_map:"},
		{[]int{0, -1}, 1, "gcd_map:"},
		{[]int{0, 1, 2, 3, 4, 5, 6, 7}, 3, "gcds_per_package:"},
		{[]int{0, 1}, 0, "gcds_per_package:"},
	} {
		_, err := NewPlacement(c.m, c.per)
		if err == nil || !strings.HasPrefix(err.Error(), c.field) || strings.Contains(err.Error(), "\n") {
			t.Errorf("NewPlacement(%v, %d): %v; want one line starting %q", c.m, c.per, err, c.field)
		}
	}
	if p, err := NewPlacement(LUMIGCDs, 2); err != nil || p.GCD(10) != 8 {
		t.Errorf("NewPlacement(LUMI): %v, %v", p, err)
	}
}

// 3^D - 1 messages per rank, sized as the halo's segments: together they
// are the padded box minus the interior, 8 B a point.
func TestMessagesCountAndBytes(t *testing.T) {
	for _, c := range []struct {
		global []int
		procs  int
		radius int
		want   int
	}{{[]int{256, 256, 256}, 64, 4, 26}, {[]int{512, 256, 128}, 8, 3, 26}, {[]int{1024, 1024, 16}, 8, 3, 26}, {[]int{256, 128}, 8, 4, 8}, {[]int{4096}, 4, 4, 2}} {
		for _, name := range DecompositionNames {
			d := mustDecompose(t, name, c.global, c.procs)
			msgs, err := Messages(d, DefaultPlacement(name), c.radius)
			if err != nil {
				t.Fatal(err)
			}
			if len(msgs) != c.want*c.procs {
				t.Fatalf("%s %v: %d messages, want %d per rank", name, c.global, len(msgs), c.want)
			}
			padded, inner := 1, 1
			for _, n := range d.Local {
				padded *= n + 2*c.radius
				inner *= n
			}
			sent := make([]int64, c.procs)
			recv := make([]int64, c.procs)
			for _, m := range msgs {
				sent[m.Src] += m.Bytes
				recv[m.Dst] += m.Bytes
				if m.Dst != d.Neighbour(m.Src, m.Dir) {
					t.Fatalf("%s: message %+v is not to the neighbour in its direction", name, m)
				}
			}
			for r := range sent {
				if want := int64(padded-inner) * ElementBytes; sent[r] != want || recv[r] != want {
					t.Fatalf("%s %v: rank %d sends %d B, receives %d B; the halo is %d B", name, c.global, r, sent[r], recv[r], want)
				}
			}
		}
	}
}

func TestMessageBytesNonCubic(t *testing.T) {
	d := mustDecompose(t, MPINo, []int{128, 64, 32}, 8) // 64x32x16 boxes
	msgs, err := Messages(d, DefaultPlacement(MPINo), 4)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{
		"1x0x0":    4 * 32 * 16 * 8,
		"0x-1x0":   64 * 4 * 16 * 8,
		"0x0x1":    64 * 32 * 4 * 8,
		"1x1x0":    4 * 4 * 16 * 8,
		"-1x1x-1":  4 * 4 * 4 * 8,
		"0x-1x-1":  64 * 4 * 4 * 8,
		"-1x-1x-1": 4 * 4 * 4 * 8,
	}
	for _, m := range msgs[:26] {
		if b, ok := want[joinDims(m.Dir)]; ok && m.Bytes != b {
			t.Errorf("direction %s: %d B, want %d", joinDims(m.Dir), m.Bytes, b)
		}
	}
}

// The first messages follow acm's packet order: the segment at
// (-1,-1,-1) is received first, so the first send goes to (+1,+1,+1).
func TestMessagesOrder(t *testing.T) {
	d := mustDecompose(t, MPINo, []int{64, 64, 64}, 8)
	msgs, err := Messages(d, DefaultPlacement(MPINo), 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := joinDims(msgs[0].Dir); got != "1x1x1" {
		t.Errorf("first message towards %s", got)
	}
	if got := joinDims(msgs[1].Dir); got != "1x1x0" {
		t.Errorf("second message towards %s", got)
	}
	if got := joinDims(msgs[25].Dir); got != "-1x-1x-1" {
		t.Errorf("last message towards %s", got)
	}
}

// The hierarchical decomposition with the LUMI map puts each rank's
// finest-level partner (rank ^ 1, the other GCD of its package) next to it
// along x on cubic grids, 8 and 64 GCDs; on 8 GCDs (2 ranks along x) both x
// neighbours are that partner.
func TestHierarchicalXNeighboursSharePackage(t *testing.T) {
	for _, procs := range []int{8, 64} {
		d := mustDecompose(t, Hierarchical, []int{256, 256, 256}, procs)
		msgs, err := Messages(d, DefaultPlacement(Hierarchical), 4)
		if err != nil {
			t.Fatal(err)
		}
		partnerX := make([]bool, procs)
		for _, m := range msgs {
			x := joinDims(m.Dir) == "1x0x0" || joinDims(m.Dir) == "-1x0x0"
			if m.Dst == m.Src^1 {
				if !x || m.Level != SamePackage || m.SrcGCD/2 != m.DstGCD/2 {
					t.Fatalf("%d GCDs: message to the partner %+v not along x within a package", procs, m)
				}
				partnerX[m.Src] = true
			}
			if procs == 8 && x && m.Dst != m.Src^1 {
				t.Fatalf("8 GCDs: x message %+v not to the partner", m)
			}
		}
		for r, ok := range partnerX {
			if !ok {
				t.Fatalf("%d GCDs: rank %d sends nothing to rank %d", procs, r, r^1)
			}
		}
	}
}

func TestMessagesBadRadius(t *testing.T) {
	d := mustDecompose(t, MPINo, []int{64, 64, 8}, 8)
	for _, r := range []int{0, -1} {
		_, err := Messages(d, DefaultPlacement(MPINo), r)
		if err == nil || !strings.HasPrefix(err.Error(), "radius:") || strings.Contains(err.Error(), "\n") {
			t.Errorf("radius %d: %v", r, err)
		}
	}
	if _, err := ExchangeTraffic(d, DefaultPlacement(MPINo), 0); err == nil {
		t.Error("ExchangeTraffic: radius 0 accepted")
	}
}

// acm's comm-scaling-strong case 16^3 on 256 ranks with radius 4: boxes of
// 4x2x2, thinner than the halo, exchanged with acm's segment sizes.
func TestMessagesHaloDeeperThanBox(t *testing.T) {
	d := mustDecompose(t, MPIDefault, []int{16, 16, 16}, 256)
	if joinDims(d.Local) != "4x2x2" {
		t.Fatalf("local %v", d.Local)
	}
	msgs, err := Messages(d, DefaultPlacement(MPIDefault), 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 26*256 || msgs[0].Bytes != 4*4*4*8 {
		t.Fatalf("%d messages, corner %d B", len(msgs), msgs[0].Bytes)
	}
	for _, m := range msgs[:26] {
		if joinDims(m.Dir) == "0x0x1" && m.Bytes != 4*2*4*8 {
			t.Errorf("z face: %d B, want 4x2x4 points", m.Bytes)
		}
	}
}

// Traffic adds up to the messages, level by level, and a single rank sends
// everything to itself.
func TestExchangeTraffic(t *testing.T) {
	d := mustDecompose(t, Hierarchical, []int{256, 256, 256}, 64)
	p := DefaultPlacement(Hierarchical)
	tr, err := ExchangeTraffic(d, p, 4)
	if err != nil {
		t.Fatal(err)
	}
	msgs, _ := Messages(d, p, 4)
	var total [NumLevels]int64
	for _, m := range msgs {
		total[m.Level] += m.Bytes
	}
	if total != tr.Total {
		t.Errorf("totals %v, messages add to %v", tr.Total, total)
	}
	// 64 ranks of 64^3 in a 4x4x4 grid: one x face per rank stays in the
	// package, the one towards the partner; the node is a 2x2x2 block, so 7
	// of the 26 neighbours are on the node, 1 of them in the package.
	face := int64(4 * 64 * 64 * 8)
	for _, rt := range tr.PerRank {
		if rt.Messages[SamePackage] != 1 || rt.Bytes[SamePackage] != face || rt.Messages[SamePackage]+rt.Messages[SameNode] != 7 {
			t.Fatalf("rank %d: %v messages by level, %v B", rt.Rank, rt.Messages, rt.Bytes)
		}
		if rt.Bytes[SameGCD] != 0 {
			t.Fatalf("rank %d sends %d B to itself", rt.Rank, rt.Bytes[SameGCD])
		}
	}
	one := mustDecompose(t, MPINo, []int{64, 64, 64}, 1)
	tr, err = ExchangeTraffic(one, DefaultPlacement(MPINo), 4)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Total[SameGCD] != int64(72*72*72-64*64*64)*8 || tr.Total[SameGCD] != tr.Max[SameGCD] || tr.PerRank[0].Messages[SameGCD] != 26 {
		t.Errorf("one rank: %+v", tr)
	}
}

// The paper's placement claim as arithmetic: over acm's rank-reordering
// shapes on 512 GCDs (halo-exchange.md, radius 4), the worst rank's bytes
// over the network vary least under the hierarchical decomposition, and
// never exceed mpi-default's.
func TestHierarchicalNetworkBytesMostConsistent(t *testing.T) {
	shapes := [][]int{{2048, 2048, 2048}, {4096, 2048, 1024}, {4096, 4096, 512}, {1024, 2048, 4096}, {512, 4096, 4096}}
	spread := map[string]int64{}
	net := map[string][]int64{}
	for _, name := range DecompositionNames {
		lo, hi := int64(-1), int64(0)
		for _, g := range shapes {
			d := mustDecompose(t, name, g, 512)
			tr, err := ExchangeTraffic(d, DefaultPlacement(name), 4)
			if err != nil {
				t.Fatal(err)
			}
			b := tr.Max[OtherNode]
			net[name] = append(net[name], b)
			if lo < 0 || b < lo {
				lo = b
			}
			hi = max(hi, b)
		}
		spread[name] = hi - lo
	}
	for _, name := range DecompositionNames {
		if name != Hierarchical && spread[name] <= spread[Hierarchical] {
			t.Errorf("network bytes spread: %s %d <= hierarchical %d (%v vs %v)", name, spread[name], spread[Hierarchical], net[name], net[Hierarchical])
		}
	}
	for i := range shapes {
		if net[Hierarchical][i] > net[MPIDefault][i] {
			t.Errorf("%v: hierarchical sends %d B over the network, mpi-default %d", shapes[i], net[Hierarchical][i], net[MPIDefault][i])
		}
	}
	t.Logf("worst rank's network bytes per field: %v", net)
}

// On an 8-GCD node a decomposition gets acm's map; on a 4-APU node the
// generic rank % 4 with one device per package, and LUMI's map for
// hierarchical is refused.
func TestPlacementOn(t *testing.T) {
	p, err := PlacementOn(Hierarchical, 8)
	if err != nil || !slices.Equal(p.LocalGCD, LUMIGCDs) {
		t.Errorf("hierarchical on 8 GCDs: %v %v", p.LocalGCD, err)
	}
	p, err = PlacementOn(MPIDefault, 4)
	if err != nil || !slices.Equal(p.LocalGCD, []int{0, 1, 2, 3}) || p.GCD(5) != 5 || p.Level(0, 1) != SameNode || p.Level(3, 4) != OtherNode {
		t.Errorf("mpi-default on 4 APUs: %v, GCD(5) %d, levels %v %v, %v", p.LocalGCD, p.GCD(5), p.Level(0, 1), p.Level(3, 4), err)
	}
	if _, err := PlacementOn(Hierarchical, 4); err == nil {
		t.Error("hierarchical on 4 APUs placed by an 8-GCD map")
	}
}
