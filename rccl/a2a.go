package rccl

import "slices"

// model79 is RCCL's stored model of 8 GPUs joined all to all by one xGMI
// link each, four on each of two CPUs, seen without NICs (rome_models.cc
// rome_model_79, matched by parseA2a8P: the 8-MI300X platform). Its ring
// list gives these 14 rings of GPU ids twice over, 28 channels; each
// directed link carries 4 of them.
var model79 = [][]int{
	{0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 2, 3, 4, 5, 7, 6}, {0, 2, 4, 1, 3, 6, 5, 7},
	{0, 2, 4, 6, 1, 7, 3, 5}, {0, 3, 1, 5, 2, 7, 4, 6}, {0, 3, 5, 1, 6, 2, 7, 4},
	{0, 4, 1, 7, 3, 6, 2, 5}, {7, 6, 5, 4, 3, 2, 1, 0}, {6, 7, 5, 4, 3, 2, 1, 0},
	{7, 5, 6, 3, 1, 4, 2, 0}, {5, 3, 7, 1, 6, 4, 2, 0}, {6, 4, 7, 2, 5, 1, 3, 0},
	{4, 7, 2, 6, 1, 5, 3, 0}, {5, 2, 6, 3, 7, 1, 4, 0},
}

// model79Repeats is how many times the model's ring list holds each ring;
// model79PerLink how many of the listed rings cross each directed link.
const model79Repeats, model79PerLink = 2, 4

// isAllToAll8 says whether the communicator is 8 GCDs, four on each of two
// NUMA domains, every two joined by the same number of links: the node
// parseA2a8P matches against model 79 (its first GPU mapping, the
// identity, fits any such node).
func isAllToAll8(t Topology, gcds []int) bool {
	if len(gcds) != 8 || len(t.NUMA) != len(t.Lanes) {
		return false
	}
	width := t.Lanes[gcds[0]][gcds[1]]
	perNUMA := map[int]int{}
	for _, a := range gcds {
		perNUMA[t.NUMA[a]]++
		for _, b := range gcds {
			if a != b && t.Lanes[a][b] != width {
				return false
			}
		}
	}
	if len(perNUMA) != 2 {
		return false
	}
	for _, n := range perNUMA {
		if n != 4 {
			return false
		}
	}
	return width > 0
}

// a2aRings are model 79's rings for the communicator, each walked from
// rank 0, at the speed they share a link with: 4 rings each way.
func a2aRings(t Topology, gcds []int) []Ring {
	// GPU ids of the model are the node's GPUs in order; rank i is gcds[i].
	order := slices.Clone(gcds)
	slices.Sort(order)
	var out []Ring
	for range model79Repeats {
		for _, r := range model79 {
			ranks := make([]int, len(r))
			for i, g := range r {
				ranks[i] = slices.Index(gcds, order[g])
			}
			at := slices.Index(ranks, 0)
			ranks = append(ranks[at:], ranks[:at]...)
			out = append(out, Ring{Ranks: ranks, GCDs: ranksToGCDs(ranks, gcds),
				GBps: float64(t.Lanes[gcds[0]][gcds[1]]) * t.LaneGBps / model79PerLink})
		}
	}
	return out
}
