package validate

import (
	"fmt"
	"math"

	"github.com/akisim/akisim/config"
)

// numaPoints are the full E2: host memory on any NUMA domain copies to
// GCD 0 and to GCD 4 as fast as memory on the GCD's own domain (the seed
// paper: no loss for non-optimal pairs). Pinned hipMemcpyAsync is compared
// at every size (its worst ratio), Comm|Scope's NUMA-to-GPU family
// (pageable, blocking hipMemcpy) at 1 GiB. That two GCDs on one domain
// still contend is E3.
func numaPoints(c *config.Node) ([]Point, error) {
	gcds := []int{0, 4}
	rows, err := commScope(c, `^Comm_hip(MemcpyAsync_PinnedToGPU/[0-9]+/[04]/|Memcpy_NUMAToGPU/[0-9]+/[04]/log2\(N\):30/)`)
	if err != nil {
		return nil, err
	}
	// bandwidth by family, GCD, size and domain
	type key struct {
		family string
		gcd    int
		bytes  int64
		numa   int
	}
	bw := map[key]float64{}
	for _, r := range rows {
		if r.Metric != "bandwidth" {
			continue
		}
		numa, gcd, err := endpointIDs("E2", r)
		if err != nil {
			return nil, err
		}
		bw[key{r.Case, gcd, r.Bytes, numa}] = r.Value
	}
	// the ratio furthest from 1 over the sizes, per family, GCD and domain
	worst := map[key]float64{}
	for k, v := range bw {
		near, ok := bw[key{k.family, k.gcd, k.bytes, c.Host.GCDNUMA[k.gcd]}]
		if !ok {
			return nil, fmt.Errorf("validate: E2: no %s row from GCD %d's own domain", k.family, k.gcd)
		}
		w := key{family: k.family, gcd: k.gcd, numa: k.numa}
		if r, seen := worst[w]; !seen || math.Abs(v/near-1) > math.Abs(r-1) {
			worst[w] = v / near
		}
	}
	var pts []Point
	for _, family := range []string{"Comm_hipMemcpyAsync_PinnedToGPU", "Comm_hipMemcpy_NUMAToGPU"} {
		what := "pinned, worst size"
		if family == "Comm_hipMemcpy_NUMAToGPU" {
			what = "hipMemcpy_NUMAToGPU, 1 GiB"
		}
		for _, g := range gcds {
			near := c.Host.GCDNUMA[g]
			for numa := 0; numa < c.Host.NUMADomains; numa++ {
				if numa == near {
					continue
				}
				r, ok := worst[key{family: family, gcd: g, numa: numa}]
				if !ok {
					return nil, fmt.Errorf("validate: E2: no %s row NUMA %d -> GCD %d", family, numa, g)
				}
				pts = append(pts, Point{Experiment: "E2 NUMA placement",
					Name:      fmt.Sprintf("%s: NUMA %d / NUMA %d (near) -> GCD %d", what, numa, near, g),
					Simulated: r, Published: 1, Tolerance: 0.05, Unit: "x"})
			}
		}
	}
	return pts, nil
}
