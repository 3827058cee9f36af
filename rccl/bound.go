package rccl

// BusBound is the most bus bandwidth (GB/s) the channels' rings can carry:
// each channel's ring moves data at most as fast as the slowest link it
// crosses gives it, a link's bandwidth (lanes x t.LaneGBps, one direction)
// shared by every channel crossing it the same way; the channels add up.
// wire is the share of a link's bytes that is data for the stores a ring
// makes into its peer (payload / (payload + a write packet's header)).
// A ring collective's busbw (rccl-tests) cannot exceed it.
func BusBound(t Topology, channels []Ring, wire float64) float64 {
	g := newGraph(t)
	load := map[int]int{} // directed link -> channels crossing it
	routes := make([][][]int, len(channels))
	for c, r := range channels {
		for i, a := range r.GCDs {
			b := r.GCDs[(i+1)%len(r.GCDs)]
			if a == b {
				continue
			}
			links := g.route(a, b)
			routes[c] = append(routes[c], links)
			for _, l := range links {
				load[l]++
			}
		}
	}
	total := 0.0
	for c := range channels {
		slowest := -1.0
		for _, links := range routes[c] {
			for _, l := range links {
				share := float64(g.lanes[l]) * t.LaneGBps * wire / float64(load[l])
				if slowest < 0 || share < slowest {
					slowest = share
				}
			}
		}
		if slowest > 0 {
			total += slowest
		}
	}
	return total
}
