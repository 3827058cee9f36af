package fabric

import (
	"fmt"
	"slices"
)

// Policy chooses among the routes between two hubs.
type Policy string

// Route policies. Widest maximises the bottleneck bandwidth, then minimises
// hops (what hipMemcpyPeer appears to do, seed paper E4); Fewest minimises
// hops, then maximises the bottleneck.
const (
	Widest Policy = "widest"
	Fewest Policy = "fewest"
)

// Topology is the graph of hubs and the links between them, with the
// per-direction bandwidth of each link, used to build route tables.
type Topology struct {
	n  int
	bw map[[2]int]float64
	nb [][]int
}

// NewTopology makes a topology of n hubs without links.
func NewTopology(n int) *Topology {
	return &Topology{n: n, bw: map[[2]int]float64{}, nb: make([][]int, n)}
}

// Connect adds a link of the given per-direction bandwidth between a and b.
func (t *Topology) Connect(a, b int, gbps float64) {
	t.bw[[2]int{a, b}] = gbps
	t.bw[[2]int{b, a}] = gbps
	t.nb[a] = append(t.nb[a], b)
	t.nb[b] = append(t.nb[b], a)
}

// Bandwidth is the per-direction bandwidth of the link a-b, 0 if none.
func (t *Topology) Bandwidth(a, b int) float64 { return t.bw[[2]int{a, b}] }

// Routes lists every best route from src to dst under the policy, visiting
// at most maxHops links and, as on the real fabric, never passing through
// the host hub (exclude) on the way. Tied routes come in the order of the
// hubs they visit, lowest first (slices.Compare): a route table that keeps
// one route keeps the first, the one through the lowest-numbered GCD.
func (t *Topology) Routes(src, dst int, p Policy, maxHops int, exclude int) ([]Route, error) {
	if src == dst {
		return []Route{{src}}, nil
	}
	var all []Route
	seen := make([]bool, t.n)
	var walk func(r Route)
	walk = func(r Route) {
		u := r[len(r)-1]
		if u == dst {
			all = append(all, append(Route(nil), r...))
			return
		}
		if r.Hops() == maxHops {
			return
		}
		for _, v := range t.nb[u] {
			if seen[v] || (v == exclude && v != dst) {
				continue
			}
			seen[v] = true
			walk(append(r, v))
			seen[v] = false
		}
	}
	seen[src] = true
	walk(Route{src})
	if len(all) == 0 {
		return nil, fmt.Errorf("no route from hub %d to hub %d within %d hops", src, dst, maxHops)
	}
	better := func(a, b Route) int { // >0 if a better than b
		wa, wb := t.bottleneck(a), t.bottleneck(b)
		if p == Fewest && a.Hops() != b.Hops() {
			return b.Hops() - a.Hops()
		}
		if wa != wb {
			if wa > wb {
				return 1
			}
			return -1
		}
		return b.Hops() - a.Hops()
	}
	best := []Route{all[0]}
	for _, r := range all[1:] {
		switch c := better(r, best[0]); {
		case c > 0:
			best = []Route{r}
		case c == 0:
			best = append(best, r)
		}
	}
	// the walk's order follows the order links were connected (the config's
	// bundle order); the hubs' own order does not
	slices.SortFunc(best, func(a, b Route) int { return slices.Compare(a, b) })
	return best, nil
}

func (t *Topology) bottleneck(r Route) float64 {
	w := -1.0
	for i := 0; i+1 < len(r); i++ {
		b := t.Bandwidth(r[i], r[i+1])
		if w < 0 || b < w {
			w = b
		}
	}
	return w
}
