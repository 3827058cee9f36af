package rccl

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// RCCL's rings for the Frontier node (rome_models.cc, model 73; hardware.md).
var rcclFrontier = [][]int{
	{0, 1, 3, 2, 4, 5, 7, 6},
	{6, 7, 5, 4, 2, 3, 1, 0},
	{0, 1, 5, 4, 6, 7, 3, 2},
	{2, 3, 7, 6, 4, 5, 1, 0},
}

func TestFrontierRingsAreRCCLs(t *testing.T) {
	rings := mustRings(t, load(t, "frontier-node.toml"), all(8))
	want := map[string]int{}
	for _, r := range rcclFrontier {
		want[cycle(r)]++
	}
	if got := cycles(rings); !maps.Equal(got, want) {
		t.Fatalf("rings %v, want RCCL's %v", got, want)
	}
	// Same order as RCCL's table too, each ring from rank 0.
	for i, r := range rings {
		if cycle(r.GCDs) != cycle(rcclFrontier[i]) {
			t.Errorf("ring %d is %v, RCCL's ring %d is %v", i, r.GCDs, i, rcclFrontier[i])
		}
		if r.GBps != 50 {
			t.Errorf("ring %d: %g GB/s, want one 50 GB/s link", i, r.GBps)
		}
	}
}

// The search proves its answer on the Frontier node: it never runs out of
// steps.
func TestFrontierSearchIsExhaustive(t *testing.T) {
	for _, name := range []string{"frontier-node.toml", "frontier-dual-xgmi.toml"} {
		s := newSearch(newGraph(load(t, name)), all(8))
		if s.run(); s.cut {
			t.Errorf("%s: search cut short", name)
		}
	}
}

func TestDualXGMIRingsChange(t *testing.T) {
	frontier := mustRings(t, load(t, "frontier-node.toml"), all(8))
	dual := mustRings(t, load(t, "frontier-dual-xgmi.toml"), all(8))
	if maps.Equal(cycles(dual), cycles(frontier)) {
		t.Fatalf("dual-xgmi rings %v equal Frontier's", cycles(dual))
	}
	// The what-if node matches no stored RCCL model, so RCCL searches with
	// its Rome 4P2H limit of two rings, each faster than Frontier's: the
	// widest links now carry a ring at 4/3 of a link.
	if len(frontier) != 4 || len(dual) != rome4P2HRings {
		t.Errorf("%d and %d rings, want 4 (Frontier, node model 73) and %d (dual, searched)", len(frontier), len(dual), rome4P2HRings)
	}
	if dual[0].GBps <= frontier[0].GBps {
		t.Errorf("dual-xgmi rings at %g GB/s, Frontier's at %g: want faster", dual[0].GBps, frontier[0].GBps)
	}
}

// Without a stored model, more than 4 GCDs (up to 8) get at most two rings
// (RCCL's Rome 4P2H search limit); the whole Frontier node, its stored model,
// keeps four.
func TestRome4P2HLimit(t *testing.T) {
	f := load(t, "frontier-node.toml")
	for _, c := range []struct {
		gcds []int
		want int
	}{{[]int{0, 1, 6, 7, 2, 3, 4}, 2}, {[]int{0, 1, 2, 3, 4}, 2}, {all(8), 4}} {
		if got := len(mustRings(t, f, c.gcds)); got != c.want {
			t.Errorf("GCDs %v: %d rings, want %d", c.gcds, got, c.want)
		}
	}
}

// hops lists the directed GCD pairs a ring passes data between.
func hops(r Ring) [][2]int {
	var h [][2]int
	for i, g := range r.GCDs {
		h = append(h, [2]int{g, r.GCDs[(i+1)%len(r.GCDs)]})
	}
	return h
}

func TestRingsAvoidMissingLink(t *testing.T) {
	top := load(t, "frontier-node.toml", "xgmi.bundle[0-1].lanes=0")
	rings := mustRings(t, top, all(8))
	for _, r := range rings {
		for _, h := range hops(r) {
			if top.Lanes[h[0]][h[1]] == 0 {
				t.Errorf("ring %v: hop %d->%d has no link", r.GCDs, h[0], h[1])
			}
		}
	}
	if maps.Equal(cycles(rings), cycles(mustRings(t, load(t, "frontier-node.toml"), all(8)))) {
		t.Error("rings did not change without the 0-1 bundle")
	}
}

// directCycles lists every ring over gcds (from gcds[0]) that uses direct
// links only, by trying every order.
func directCycles(top Topology, gcds []int) [][]int {
	var out [][]int
	rest := slices.Clone(gcds[1:])
	var try func(k int)
	try = func(k int) {
		if k == len(rest) {
			ring := append([]int{gcds[0]}, rest...)
			for _, h := range hops(Ring{GCDs: ring}) {
				if len(ring) > 1 && top.Lanes[h[0]][h[1]] == 0 {
					return
				}
			}
			out = append(out, ring)
			return
		}
		for i := k; i < len(rest); i++ {
			rest[k], rest[i] = rest[i], rest[k]
			try(k + 1)
			rest[k], rest[i] = rest[i], rest[k]
		}
	}
	try(0)
	return out
}

// On the Frontier node exactly two sets of four rings fit at one link a
// ring (counted here by brute force); RCCL's uses all 24 directed links,
// the other 20, which is the tie-break that picks RCCL's.
func TestFrontierTieBreak(t *testing.T) {
	top := load(t, "frontier-node.toml")
	rings := directCycles(top, all(8))
	use := map[[2]int]int{}
	var sets []map[[2]int]int
	var pick func(start, left int)
	pick = func(start, left int) {
		if left == 0 {
			sets = append(sets, maps.Clone(use))
			return
		}
		for i := start; i < len(rings); i++ {
			hs := hops(Ring{GCDs: rings[i]})
			fits := true
			for _, h := range hs {
				fits = fits && use[h] < top.Lanes[h[0]][h[1]]
			}
			if !fits {
				continue
			}
			for _, h := range hs {
				use[h]++
			}
			pick(i, left-1)
			for _, h := range hs {
				if use[h]--; use[h] == 0 {
					delete(use, h)
				}
			}
		}
	}
	pick(0, 5)
	if len(sets) != 0 {
		t.Fatalf("%d sets of five rings fit at one link", len(sets))
	}
	pick(0, 4)
	var links []int
	for _, u := range sets {
		links = append(links, len(u))
	}
	if slices.Sort(links); !slices.Equal(links, []int{20, 24}) {
		t.Errorf("sets of four rings use %v directed links, want [20 24]", links)
	}
}

// Every communicator of the Frontier node, in every size: each ring visits
// each GCD once, from rank 0, and uses direct links only when some ring can.
func TestEveryRingVisitsEachGCDOnce(t *testing.T) {
	top := load(t, "frontier-node.toml")
	for set := 1; set < 1<<8; set++ {
		var gcds []int
		for g := 7; g >= 0; g-- { // descending: ranks and GCD ids differ
			if set&(1<<g) != 0 {
				gcds = append(gcds, g)
			}
		}
		rings := mustRings(t, top, gcds)
		direct := len(directCycles(top, gcds)) > 0
		for _, r := range rings {
			if r.Ranks[0] != 0 || !slices.Equal(slices.Sorted(slices.Values(r.Ranks)), all(len(gcds))) {
				t.Fatalf("%v: ring ranks %v are not 0..%d from 0", gcds, r.Ranks, len(gcds)-1)
			}
			for i, k := range r.Ranks {
				if r.GCDs[i] != gcds[k] {
					t.Fatalf("%v: ring %v: rank %d is on GCD %d, not %d", gcds, r.Ranks, k, gcds[k], r.GCDs[i])
				}
			}
			for _, h := range hops(r) {
				if direct && len(gcds) > 1 && top.Lanes[h[0]][h[1]] == 0 {
					t.Errorf("%v: ring %v takes %d->%d without a link though a direct ring exists", gcds, r.GCDs, h[0], h[1])
				}
			}
			if r.GBps != rings[0].GBps {
				t.Errorf("%v: rings at %g and %g GB/s", gcds, r.GBps, rings[0].GBps)
			}
		}
	}
}

func TestSubsetRings(t *testing.T) {
	top := load(t, "frontier-node.toml")
	for _, tc := range []struct {
		gcds []int
		want []string // directed cycles, in order
	}{
		// 1-7 has no link: one hop per ring goes through other GCDs; at one
		// link (36 GB/s in RCCL's units, at least 25) RCCL runs them twice.
		{[]int{0, 1, 6, 7}, []string{"[0 1 7 6]", "[0 6 7 1]", "[0 1 7 6]", "[0 6 7 1]"}},
		// E8's 7-GCD communicator: 1 has links to 0 and 3 only; the Rome
		// 4P2H limit of two rings leaves no room to double them.
		{[]int{0, 1, 6, 7, 2, 3, 4}, []string{"[0 1 3 7 6 4 2]", "[0 2 4 6 7 3 1]"}},
		// A quad: three rings at RCCL's top speed, 4/3 of a link, doubled.
		{[]int{0, 1}, []string{"[0 1]", "[0 1]", "[0 1]", "[0 1]", "[0 1]", "[0 1]"}},
	} {
		var got []string
		for _, r := range mustRings(t, top, tc.gcds) {
			got = append(got, cycle(r.GCDs))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%v: rings %v, want %v", tc.gcds, got, tc.want)
		}
	}
}

func TestRingsDeterministic(t *testing.T) {
	top := load(t, "frontier-node.toml")
	for _, gcds := range [][]int{all(8), {0, 1, 6, 7}, {5, 2, 7}} {
		first := mustRings(t, top, gcds)
		for range 3 {
			if again := mustRings(t, load(t, "frontier-node.toml"), gcds); !reflect.DeepEqual(again, first) {
				t.Fatalf("%v: %v, then %v", gcds, first, again)
			}
		}
	}
}

// 16 GCDs finish fast however dense the links; the results are rings.
func TestSixteenGCDs(t *testing.T) {
	bits := func(x int) int {
		n := 0
		for ; x > 0; x &= x - 1 {
			n++
		}
		return n
	}
	for name, top := range map[string]Topology{
		"all-to-all": matrix(16, func(a, b int) int { return 1 }),
		"hypercube":  matrix(16, func(a, b int) int { return map[bool]int{true: 2}[bits(a^b) == 1] }),
		"line":       matrix(16, func(a, b int) int { return map[bool]int{true: 4}[b == a+1] }),
	} {
		rings := mustRings(t, top, all(16))
		for _, r := range rings {
			if !slices.Equal(slices.Sorted(slices.Values(r.GCDs)), all(16)) {
				t.Errorf("%s: ring %v", name, r.GCDs)
			}
		}
		t.Logf("%s: %d rings at %g GB/s", name, len(rings), rings[0].GBps)
	}
	// All-to-all single links: 15 rings, each leaving every GCD by its own
	// link, doubled at half the speed as RCCL does after its search.
	if n := len(mustRings(t, matrix(16, func(a, b int) int { return 1 }), all(16))); n != 30 {
		t.Errorf("all-to-all: %d rings, want 30", n)
	}
}

// One rank: its rings cross no link, and RCCL's search fills its 64.
func TestOneRank(t *testing.T) {
	rings := mustRings(t, load(t, "frontier-node.toml"), []int{5})
	if len(rings) != maxRings || !slices.Equal(rings[0].GCDs, []int{5}) {
		t.Errorf("%d rings, first %v; want %d of [5]", len(rings), rings[0].GCDs, maxRings)
	}
}

func TestRingsBadInput(t *testing.T) {
	frontier := load(t, "frontier-node.toml")
	asym := matrix(3, func(a, b int) int { return 1 })
	asym.Lanes[0][1] = 2
	island := matrix(3, func(a, b int) int { return map[bool]int{true: 1}[a == 0 && b == 1] })
	for _, tc := range []struct {
		top  Topology
		gcds []int
		want string
	}{
		{frontier, nil, "no GCDs"},
		{frontier, all(17), "at most 16"},
		{frontier, []int{0, 8}, "rank 1 on GCD 8: the node has GCDs 0..7"},
		{frontier, []int{0, -1}, "rank 1 on GCD -1"},
		{frontier, []int{3, 1, 3}, "ranks 0 and 2 both on GCD 3"},
		{Topology{LaneGBps: 50}, []int{0}, "no GCDs"},
		{Topology{Lanes: [][]int{{0}}, LaneGBps: 0}, []int{0}, "lane bandwidth must be > 0"},
		{Topology{Lanes: [][]int{{0, 1}, {1}}, LaneGBps: 50}, []int{0}, "row 1 has 1 entries, want 2"},
		{Topology{Lanes: [][]int{{0, 1}, {}}, LaneGBps: 50}, []int{0}, "row 1 has 0 entries, want 2"},
		{Topology{Lanes: [][]int{{1}}, LaneGBps: 50}, []int{0}, "GCD 0 has 1 lanes to itself"},
		{Topology{Lanes: [][]int{{0, -1}, {-1, 0}}, LaneGBps: 50}, []int{0}, "GCD 0 to GCD 1 has -1 lanes"},
		{asym, []int{0}, "GCD 0 to GCD 1 has 2 lanes, the other way 1"},
		{island, []int{0, 1, 2}, "no ring joins GCDs [0 1 2]"},
	} {
		_, err := Rings(tc.top, tc.gcds)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: error %v, want one line with %q", tc.gcds, err, tc.want)
		}
	}
}

func ExampleRings() {
	top := Topology{Lanes: [][]int{{0, 4, 1}, {4, 0, 1}, {1, 1, 0}}, LaneGBps: 50}
	rings, _ := Rings(top, []int{0, 1, 2})
	for _, r := range rings {
		fmt.Println(r.GCDs, r.GBps)
	}
	// Output:
	// [0 1 2] 25
	// [0 2 1] 25
	// [0 1 2] 25
	// [0 2 1] 25
}
