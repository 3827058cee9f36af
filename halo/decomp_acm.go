package halo

import (
	"fmt"
	"math"
)

// acmDecompose is acm's greedy decomposition (acc-comm/acm/detail/decomp.cc:44-84,
// `decompose`): while procs remain, try each distinct prime factor of what
// remains on each axis whose local extent it divides, from the last axis
// down, and keep the (factor, axis) with the smallest
// prod(n_i + 2)/prod(n_i) after the cut; ties keep the first found (the
// smallest factor, the highest axis). acm's ratio uses a halo of 1 whatever
// the exchange's radius (decomp.cc:40: rr = 1), so this one does too. The
// cuts always divide: when no factor divides any axis, acm stops with an
// error (decomp.cc:76, ERRCHK(best_factor > 0)), and so does this.
// nn and the result are in acm's order (axis 0 = x, the fastest).
func acmDecompose(nn []int, procs int) ([]int, error) {
	local := append([]int(nil), nn...)
	decomp := ones(len(nn))
	for procs > 1 {
		bestAxis, bestFactor, best := -1, 0, math.MaxFloat64
		f, _ := primePowers(procs)
		for _, p := range f {
			for axis := len(nn) - 1; axis >= 0; axis-- {
				if local[axis]%p.val != 0 {
					continue
				}
				local[axis] /= p.val
				r := haloToInterior(local)
				local[axis] *= p.val
				if r < best {
					bestAxis, bestFactor, best = axis, p.val, r
				}
			}
		}
		if bestFactor == 0 {
			return nil, fmt.Errorf("dims: %s cannot be cut into %d more equal parts (no prime factor of %d divides a local extent %s)",
				joinDims(nn), procs, procs, joinDims(local))
		}
		procs /= bestFactor
		local[bestAxis] /= bestFactor
		decomp[bestAxis] *= bestFactor
	}
	return decomp, nil
}

// haloToInterior is acm's surface_area_to_volume (decomp.cc:37-42): the
// integer products, then one division, so that equal ratios tie exactly.
func haloToInterior(nn []int) float64 {
	outer, inner := 1, 1
	for _, n := range nn {
		outer *= n + 2
		inner *= n
	}
	return float64(outer) / float64(inner)
}

// procsPerLevel is acm's get_nprocs_per_layer (mpi_utils.cc:144-157): each
// topology level takes min(procs left, its size), fine to coarse, and what
// is left is the node level; the product must come back to procs
// (mpi_utils.cc:154), which fails when a level cannot be filled and more
// procs remain (e.g. 6 or 12 procs on LUMI's {2, 2, 2}).
func procsPerLevel(procs int, levels []int) ([]int, error) {
	per := make([]int, 0, len(levels)+1)
	left := procs
	for _, l := range levels {
		if l < 1 {
			return nil, fmt.Errorf("levels: %v, every level must be at least 1", levels)
		}
		per = append(per, min(left, l))
		left /= per[len(per)-1]
	}
	per = append(per, left)
	if p := product(per); p != procs {
		return nil, fmt.Errorf("levels: %v do not divide %d procs (the levels take %v, product %d)", levels, procs, per, p)
	}
	return per, nil
}

// acmHierarchical is decompose_hierarchical (decomp.cc:87-107): the
// coarsest level (the node level) is cut first, each finer level cuts what
// the coarser one left. The result is fine to coarse, as acm returns it.
func acmHierarchical(nn []int, perLevel []int) ([][]int, error) {
	out := make([][]int, len(perLevel))
	cur := append([]int(nil), nn...)
	for i := len(perLevel) - 1; i >= 0; i-- {
		d, err := acmDecompose(cur, perLevel[i])
		if err != nil {
			return nil, err
		}
		out[i] = d
		for a := range cur {
			cur[a] /= d[a]
		}
	}
	return out, nil
}

// hierarchicalCoords is hierarchical_to_spatial (decomp.cc:109-123): the
// rank's low digits, in the finest level's box (x fastest), give the
// coordinates within it; the next digits place that box in the next level.
func hierarchicalCoords(rank int, levels [][]int) []int {
	coords := make([]int, len(levels[0]))
	scale := ones(len(coords))
	for _, dims := range levels {
		c := toSpatial(rank/product(scale), dims)
		for a := range coords {
			coords[a] += scale[a] * c[a]
			scale[a] *= dims[a]
		}
	}
	return coords
}

// toSpatial is acm's to_spatial (ntuple.h:441): x fastest, each coordinate
// taken modulo its extent.
func toSpatial(i int, dims []int) []int {
	c := make([]int, len(dims))
	div := 1
	for a, d := range dims {
		c[a] = (i / div) % d
		div *= d
	}
	return c
}

// toLinear is acm's to_linear (ntuple.h:427), x fastest.
func toLinear(c, dims []int) int {
	i, f := 0, 1
	for a, d := range dims {
		i += c[a] * f
		f *= d
	}
	return i
}

func ones(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

func product(s []int) int {
	p := 1
	for _, v := range s {
		p *= v
	}
	return p
}
