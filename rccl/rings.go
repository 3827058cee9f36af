package rccl

import (
	"fmt"
	"slices"
)

// Ring is one ring of a communicator: the order in which its ranks pass
// data on. Rank i runs on the communicator's i-th GCD.
type Ring struct {
	Ranks []int   // ranks in ring order from rank 0; each sends to the next, the last to rank 0
	GCDs  []int   // the same ring in GCD ids
	GBps  float64 // bandwidth the search gave the ring on every link it crosses
}

// Limits of the search, from RCCL (see the package comment).
const (
	MaxGCDs = 16 // communicator size the search is made for
	// maxRings is RCCL's MAXCHANNELS/2, the most rings its search returns.
	maxRings = 64
	// budget bounds the search steps per speed, as RCCL's search timeout
	// does; a cut search keeps the best rings found so far.
	budget = 1 << 18
)

// maxSpeed is the fastest per-ring speed, in links: RCCL's first intra-node
// speed on AMD GPUs (48 GB/s) over what it counts per gfx90a xGMI link
// (MI200_XGMI_WIDTH, 36 GB/s).
var maxSpeed = frac{4, 3}

// Rings computes the rings of a communicator whose rank i runs on GCD
// gcds[i], from the node's link graph, as the package comment describes.
// No NCCL_* variable shapes them (RCCL's ring search reads none); Options
// shape the channels that run them.
func Rings(t Topology, gcds []int) ([]Ring, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	if err := checkGCDs(gcds, len(t.Lanes)); err != nil {
		return nil, err
	}
	s := newSearch(newGraph(t), gcds)
	if s == nil {
		return nil, fmt.Errorf("rccl: no ring joins GCDs %v: some have no xGMI route to the others", gcds)
	}
	if isAllToAll8(t, gcds) {
		return a2aRings(t, gcds), nil // RCCL takes its stored model's rings, no search
	}
	model := isModel73(t, gcds)
	if len(gcds) > 4 && len(gcds) <= 8 && !model {
		s.most = rome4P2HRings
	}
	best := s.run()
	if best.n == 0 {
		return nil, fmt.Errorf("rccl: no ring over GCDs %v found within the search budget", gcds)
	}
	rings := best.rings(gcds, t.LaneGBps)
	if !model {
		rings = dupRings(rings, t.LaneGBps, s.most)
	}
	return rings, nil
}

// dupRings is ncclTopoDupChannels after RCCL's own search (not after a
// model match): rings whose speed is at least 25 GB/s in RCCL's units
// (36 GB/s per gfx90a link) run twice at half the speed, within the
// search's channel limit. (The compute-capability clause never applies:
// RCCL gives AMD GPUs 60.)
func dupRings(rings []Ring, laneGBps float64, most int) []Ring {
	if len(rings) == 0 || rings[0].GBps/laneGBps*rcclLinkGBps < 25 {
		return rings
	}
	n := min(2*len(rings), most)
	out := make([]Ring, 0, n)
	for i := range n {
		r := rings[i%len(rings)]
		r.GBps /= float64((n + len(rings) - 1) / len(rings))
		out = append(out, r)
	}
	return out
}

func checkGCDs(gcds []int, n int) error {
	switch {
	case len(gcds) == 0:
		return fmt.Errorf("rccl: communicator has no GCDs")
	case len(gcds) > MaxGCDs:
		return fmt.Errorf("rccl: communicator has %d GCDs, the ring search takes at most %d", len(gcds), MaxGCDs)
	}
	seen := map[int]int{}
	for i, d := range gcds {
		if d < 0 || d >= n {
			return fmt.Errorf("rccl: rank %d on GCD %d: the node has GCDs 0..%d", i, d, n-1)
		}
		if j, ok := seen[d]; ok {
			return fmt.Errorf("rccl: ranks %d and %d both on GCD %d", j, i, d)
		}
		seen[d] = i
	}
	return nil
}

// frac is a speed in links, p/q: exact, so that ties are ties.
type frac struct{ p, q int }

// less reports a < b.
func (a frac) less(b frac) bool { return a.p*b.q < b.p*a.q }

// solution is a set of rings at one speed.
type solution struct {
	speed frac
	n     int     // rings
	hops  int     // links crossed by all rings together, RCCL's nHops
	links int     // distinct directed links used
	ring  [][]int // rings in ranks, each from rank 0, in nondecreasing order
}

// better reports whether a beats b at the same speed.
func (a *solution) better(b *solution) bool {
	if a.n != b.n {
		return a.n > b.n
	}
	if a.hops != b.hops {
		return a.hops < b.hops
	}
	return a.links > b.links // the first found wins a full tie: it comes first in order
}

// total compares aggregate ring bandwidth n x speed: -1, 0 or 1.
func (a *solution) total(b *solution) int {
	x, y := a.n*a.speed.p*b.speed.q, b.n*b.speed.p*a.speed.q
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// rings orders the solution's rings, each followed by its reverse when that
// is a ring too (so that consecutive channels load both directions of the
// links), and names their GCDs.
func (a *solution) rings(gcds []int, laneGBps float64) []Ring {
	placed := make([]bool, a.n)
	var out []Ring
	add := func(i int) {
		placed[i] = true
		r := Ring{Ranks: a.ring[i], GBps: float64(a.speed.p) / float64(a.speed.q) * laneGBps}
		for _, k := range r.Ranks {
			r.GCDs = append(r.GCDs, gcds[k])
		}
		out = append(out, r)
	}
	for i := range a.ring {
		if placed[i] {
			continue
		}
		add(i)
		rev := reverse(a.ring[i])
		for j := range a.ring {
			if !placed[j] && slices.Equal(a.ring[j], rev) {
				add(j)
				break
			}
		}
	}
	return out
}

// reverse is ring r run the other way, from rank 0.
func reverse(r []int) []int {
	out := []int{r[0]}
	for i := len(r) - 1; i > 0; i-- {
		out = append(out, r[i])
	}
	return out
}

// rome4P2HRings is how many rings RCCL's search returns for more than 4
// GPUs joined by xGMI that match none of its stored node models: it marks
// them RCCL_TOPO_4P2H_ROME (rome_models.cc parseRome4P2H) and searches
// with maxChannels 2 (graph/search.cc).
const rome4P2HRings = 2

// model73 is the link matrix of RCCL's stored Frontier/LUMI node model
// (rome_models.cc rome_model_73, the xGMI counts of hardware.md), which an
// 8-GCD communicator of such a node matches: RCCL then takes the model's
// four rings instead of searching (Rings reaches the same four).
var model73 = [8][8]int{
	{0, 4, 1, 0, 0, 0, 2, 0},
	{4, 0, 0, 1, 0, 1, 0, 0},
	{1, 0, 0, 4, 2, 0, 0, 0},
	{0, 1, 4, 0, 0, 0, 0, 1},
	{0, 0, 2, 0, 0, 4, 1, 0},
	{0, 1, 0, 0, 4, 0, 0, 1},
	{2, 0, 0, 0, 1, 0, 0, 4},
	{0, 0, 0, 1, 0, 1, 4, 0},
}

// isModel73 says whether the communicator is every GCD of a node whose
// links are model 73's.
func isModel73(t Topology, gcds []int) bool {
	if len(t.Lanes) != 8 || len(gcds) != 8 {
		return false
	}
	for i, row := range t.Lanes {
		if !slices.Equal(row, model73[i][:]) {
			return false
		}
	}
	return true
}
