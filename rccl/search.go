package rccl

import (
	"slices"
	"sort"

	"github.com/akisim/akisim/components/fabric"
)

// graph is the node's directed links, numbered.
type graph struct {
	n     int
	id    [][]int // id[a][b]: directed link a->b, -1 if no bundle
	lanes []int   // lanes of each directed link
	fab   *fabric.Topology
}

func newGraph(t Topology) *graph {
	g := &graph{n: len(t.Lanes), fab: fabric.NewTopology(len(t.Lanes))}
	g.id = make([][]int, g.n)
	for a := range g.id {
		g.id[a] = make([]int, g.n)
		for b := range g.id[a] {
			g.id[a][b] = -1
			if t.Lanes[a][b] > 0 {
				g.id[a][b] = len(g.lanes)
				g.lanes = append(g.lanes, t.Lanes[a][b])
				if a < b {
					g.fab.Connect(a, b, float64(t.Lanes[a][b]))
				}
			}
		}
	}
	return g
}

// route is the links from GCD a to GCD b as the node's kernel route table
// has them by default (routing.kernel = "fewest", kernel_ties = "table"):
// the fewest hops, then the widest, then through the lowest-numbered GCDs;
// nil if b cannot be reached.
func (g *graph) route(a, b int) []int {
	dist := make([]int, g.n) // hops from a: bounds the route search
	for i := range dist {
		dist[i] = -1
	}
	dist[a] = 0
	for queue := []int{a}; len(queue) > 0; queue = queue[1:] {
		for u := 0; u < g.n; u++ {
			if v := queue[0]; g.id[v][u] >= 0 && dist[u] < 0 {
				dist[u] = dist[v] + 1
				queue = append(queue, u)
			}
		}
	}
	if dist[b] < 0 {
		return nil
	}
	routes, err := g.fab.Routes(a, b, fabric.Fewest, dist[b], -1)
	if err != nil {
		panic(err) // b is dist[b] hops away
	}
	var links []int
	for i, hub := range routes[0][1:] {
		links = append(links, g.id[routes[0][i]][hub])
	}
	return links
}

// search packs rings of one communicator into the link graph.
type search struct {
	g      *graph
	m      int       // ranks
	routes [][][]int // routes[i][j]: links rank i's data crosses to rank j; nil: no hop
	first  [][]int   // links a ring may leave each rank by
	last   [][]int   // links a ring may enter each rank by
	speeds []frac    // candidate speeds, fastest first
	limit  int       // most hops without a direct link a ring may take
	most   int       // most rings the search may return

	// State of the search at one speed.
	free  []int // rings each link can still take
	used  []int // rings on each link
	cur   solution
	best  solution
	need  int // rings needed to beat the best of faster speeds
	steps int
	cut   bool // a search ran out of steps: its best may not be the best
}

// newSearch prepares the search of one communicator's rings: hops over
// direct links, or, only if no ring can do without, rings with as few hops
// as possible routed through other GCDs (pairs without a link). nil if no
// ring joins the GCDs.
func newSearch(g *graph, gcds []int) *search {
	s := &search{g: g, m: len(gcds), most: maxRings}
	s.routes = make([][][]int, s.m)
	for i, a := range gcds {
		s.routes[i] = make([][]int, s.m)
		for j, b := range gcds {
			if i != j {
				s.routes[i][j] = g.route(a, b)
			}
		}
	}
	s.limit = s.fewestIndirect()
	if s.limit < 0 {
		return nil
	}
	s.first = make([][]int, s.m)
	s.last = make([][]int, s.m)
	laneSet := map[int]bool{}
	for i := range s.routes {
		for j, r := range s.routes[i] {
			if len(r) > 1 && s.limit == 0 {
				s.routes[i][j] = nil // not needed: keep the bound and speeds tight
			}
			if r = s.routes[i][j]; r == nil {
				continue
			}
			s.first[i] = appendNew(s.first[i], r[0])
			s.last[j] = appendNew(s.last[j], r[len(r)-1])
			for _, l := range r {
				laneSet[g.lanes[l]] = true
			}
		}
	}
	s.speeds = candidateSpeeds(laneSet)
	return s
}

// fewestIndirect is the fewest hops without a direct link a ring needs, -1
// if no ring joins the ranks (within the search budget).
func (s *search) fewestIndirect() int {
	fewest, steps := -1, 0
	in := make([]bool, s.m)
	var walk func(at, left, ind int)
	walk = func(at, left, ind int) {
		if steps++; steps > budget || (fewest >= 0 && ind >= fewest) {
			return
		}
		if left == 0 {
			if r := s.routes[at][0]; at == 0 || r != nil { // at == 0: a one-rank ring
				if len(r) > 1 {
					ind++
				}
				if fewest < 0 || ind < fewest {
					fewest = ind
				}
			}
			return
		}
		for next := 1; next < s.m; next++ {
			if r := s.routes[at][next]; !in[next] && r != nil {
				in[next] = true
				walk(next, left-1, ind+min(len(r)-1, 1))
				in[next] = false
			}
		}
	}
	walk(0, s.m-1, 0)
	return fewest
}

// appendNew appends v to list unless it is there.
func appendNew(list []int, v int) []int {
	if slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}

// candidateSpeeds lists every speed at which the number of rings a link
// takes changes (its lanes / k), up to maxSpeed, and maxSpeed, fastest
// first: between two of them the packings, and so the best, do not change.
func candidateSpeeds(laneSet map[int]bool) []frac {
	speeds := []frac{maxSpeed}
	for l := range laneSet {
		for k := 1; k <= maxRings; k++ {
			f := frac{l, k}
			if maxSpeed.less(f) {
				continue
			}
			dup := false
			for _, x := range speeds {
				if !x.less(f) && !f.less(x) {
					dup = true
					break
				}
			}
			if !dup {
				speeds = append(speeds, f)
			}
		}
	}
	sort.Slice(speeds, func(i, j int) bool { return speeds[j].less(speeds[i]) })
	return speeds
}

// run tries the speeds from the fastest down and keeps the rings with the
// highest aggregate bandwidth (rings x speed), the faster speed on a tie. Like
// RCCL it stops lowering the speed at 0.49 of the best speed found.
func (s *search) run() solution {
	var best solution
	for _, sp := range s.speeds {
		if best.n > 0 && sp.p*best.speed.q*100 <= 49*best.speed.p*sp.q {
			break
		}
		s.need = 1
		if best.n > 0 {
			s.need = best.n*best.speed.p*sp.q/(sp.p*best.speed.q) + 1
		}
		if s.need > s.most {
			continue
		}
		if got := s.at(sp); got.n > 0 && (best.n == 0 || got.total(&best) > 0) {
			best = got
		}
	}
	return best
}

// at finds the best packing at one speed with at least s.need rings.
func (s *search) at(sp frac) solution {
	s.free = make([]int, len(s.g.lanes))
	s.used = make([]int, len(s.g.lanes))
	for l, lanes := range s.g.lanes {
		s.free[l] = lanes * sp.q / sp.p
	}
	s.cur = solution{speed: sp}
	s.best = solution{speed: sp}
	s.steps = 0
	s.pack()
	return s.best
}

// pack records the rings chosen so far and tries one more, no smaller (in
// order) than the last, so that each set of rings is met once.
func (s *search) pack() {
	if s.cur.n >= s.need && s.cur.better(&s.best) {
		s.best = s.cur
		s.best.ring = append([][]int(nil), s.cur.ring...)
	}
	if s.cur.n == s.most || s.cur.n+s.bound() < max(s.need, s.best.n) {
		return
	}
	var prev []int
	if s.cur.n > 0 {
		prev = s.cur.ring[s.cur.n-1]
	}
	ring := make([]int, 1, s.m)
	s.extend(ring, make([]bool, s.m), prev, 0)
}

// extend grows a ring hop by hop, the lower rank first; prev, while the ring
// matches its start, bounds the next rank from below.
func (s *search) extend(ring []int, in []bool, prev []int, ind int) {
	if s.steps++; s.steps > budget {
		s.cut = true
		return
	}
	at := ring[len(ring)-1]
	if len(ring) == s.m {
		if ind+s.indirect(at, 0) <= s.limit && s.take(at, 0) {
			s.cur.ring = append(s.cur.ring, slices.Clone(ring))
			s.cur.n++
			s.pack()
			s.cur.n--
			s.cur.ring = s.cur.ring[:s.cur.n]
			s.drop(at, 0)
		}
		return
	}
	for next := 1; next < s.m; next++ {
		step := s.indirect(at, next)
		if in[next] || (prev != nil && next < prev[len(ring)]) || ind+step > s.limit || !s.take(at, next) {
			continue
		}
		in[next] = true
		tight := prev
		if prev != nil && next > prev[len(ring)] {
			tight = nil
		}
		s.extend(append(ring, next), in, tight, ind+step)
		in[next] = false
		s.drop(at, next)
	}
}

// indirect is 1 if the hop from rank i to rank j has no direct link.
func (s *search) indirect(i, j int) int {
	if len(s.routes[i][j]) > 1 {
		return 1
	}
	return 0
}

// take books one ring on the route from rank i to rank j, if it fits.
func (s *search) take(i, j int) bool {
	if i == j {
		return true // a one-rank ring crosses no link
	}
	r := s.routes[i][j]
	if r == nil {
		return false
	}
	for k, l := range r {
		if s.free[l] == 0 {
			s.release(r[:k])
			return false
		}
		s.free[l]--
		if s.used[l] == 0 {
			s.cur.links++
		}
		s.used[l]++
	}
	s.cur.hops += len(r)
	return true
}

func (s *search) drop(i, j int) {
	if i != j {
		s.release(s.routes[i][j])
		s.cur.hops -= len(s.routes[i][j])
	}
}

func (s *search) release(links []int) {
	for _, l := range links {
		s.free[l]++
		s.used[l]--
		if s.used[l] == 0 {
			s.cur.links--
		}
	}
}

// bound is an upper bound on the rings that still fit: each leaves and
// enters every rank once.
func (s *search) bound() int {
	b := s.most
	if s.m == 1 {
		return b // a one-rank ring crosses no link
	}
	for i := 0; i < s.m; i++ {
		for _, links := range [][]int{s.first[i], s.last[i]} {
			sum := 0
			for _, l := range links {
				sum += s.free[l]
			}
			b = min(b, sum)
		}
	}
	return b
}
