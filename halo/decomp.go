package halo

import (
	"fmt"
	"strconv"
	"strings"
)

// The decompositions of acm's rank-reordering benchmark
// (acc-comm/benchmarks/bm_rank_reordering.cc:424-440, mpi_utils.cc:311-330).
const (
	// MPINo is MPI_Dims_create + MPI_Cart_create(reorder = 0): rank r sits
	// at the r-th coordinates in the Cartesian order (MPI's last dimension,
	// acm's x, fastest).
	MPINo = "mpi-no"
	// MPIDefault is the same dims with reorder = 1. MPICH's MPI_Cart_create
	// maps each rank to itself when asked to reorder (MPIR_Cart_map_impl in
	// src/mpi/topo/topo_impl.c: "newrank = rank"; its man page: "We ignore
	// 'reorder' info currently"); no Cray MPICH document describes another
	// Cartesian reorder, so this assumes Cray MPICH keeps the order too and
	// MPIDefault places ranks exactly as MPINo. acm itself expects little:
	// "likely inop with most MPI implementations" (mpi_utils.cc:122).
	MPIDefault = "mpi-default"
	// Custom is acm's greedy factor search (decomp.cc:44) with the Cartesian
	// order; acm runs it as mpi-no-custom-decomp and
	// mpi-default-custom-decomp, which the reorder assumption above makes one.
	Custom = "custom"
	// Hierarchical cuts the grid level by level over the machine's topology
	// and numbers ranks so that consecutive ranks share the finest level
	// (mpi_utils.cc:239-309).
	Hierarchical = "hierarchical"
)

// DecompositionNames lists the names Decompose takes, in acm's order.
var DecompositionNames = []string{MPINo, MPIDefault, Custom, Hierarchical}

// LUMILevels is acm's LUMI topology, fine to coarse: 2 GCDs per package,
// 2 packages, 2 pairs of packages per node (mpi_utils.cc:221-225).
var LUMILevels = []int{2, 2, 2}

// Decomposition is a global grid cut into one local box per rank. Axes are
// in acm's order: axis 0 is x, the fastest-varying (acm's column-major
// ntuples; MPI's dims are the reverse, mpi_utils.cc:22-54).
type Decomposition struct {
	Name   string
	Global []int // global grid points per axis
	Dims   []int // ranks per axis
	// Local is every rank's interior box: Global / Dims per axis, the
	// remainder dropped as acm's get_local_nn does (mpi_utils.cc:585-590)
	// when MPI_Dims_create's dims do not divide the grid.
	Local []int
	// Levels is the hierarchical decomposition, fine to coarse, one
	// ranks-per-axis shape per level (the last is the node level); nil for
	// the others.
	Levels [][]int
	coords [][]int // by rank (MPI_COMM_WORLD's, which fixes the GCD)
	rankAt []int   // by linear coordinates (x fastest)
}

// Decompose cuts the grid global (points per axis, x first) over procs
// ranks as the named decomposition does; levels are the hierarchical
// decomposition's topology, fine to coarse (LUMILevels), unused otherwise.
func Decompose(name string, global []int, procs int, levels []int) (*Decomposition, error) {
	if len(global) < 1 || len(global) > 3 {
		return nil, fmt.Errorf("dims: %d axes, want 1 to 3", len(global))
	}
	for a, n := range global {
		if n < 1 {
			return nil, fmt.Errorf("dims: %d points on axis %s, want at least 1", n, axisName(a))
		}
	}
	if procs < 1 {
		return nil, fmt.Errorf("procs: %d, want at least 1", procs)
	}
	d := &Decomposition{Name: name, Global: append([]int(nil), global...)}
	var err error
	switch name {
	case MPINo, MPIDefault:
		var dims []int
		if dims, err = DimsCreate(procs, len(global)); err == nil {
			d.Dims = reversed(dims)
		}
	case Custom:
		d.Dims, err = acmDecompose(global, procs)
	case Hierarchical:
		var per []int
		if per, err = procsPerLevel(procs, levels); err == nil {
			if d.Levels, err = acmHierarchical(global, per); err == nil {
				d.Dims = ones(len(global))
				for _, l := range d.Levels {
					for a := range l {
						d.Dims[a] *= l[a]
					}
				}
			}
		}
	default:
		return nil, fmt.Errorf("decomp: unknown decomposition %q (want one of %s)", name, strings.Join(DecompositionNames, ", "))
	}
	if err != nil {
		return nil, err
	}
	d.Local = make([]int, len(global))
	for a := range global {
		if d.Local[a] = global[a] / d.Dims[a]; d.Local[a] < 1 {
			return nil, fmt.Errorf("dims: %d points on axis %s over %d ranks leave none per rank", global[a], axisName(a), d.Dims[a])
		}
	}
	d.place(procs)
	return d, nil
}

// place gives every rank its coordinates.
func (d *Decomposition) place(procs int) {
	d.coords = make([][]int, procs)
	d.rankAt = make([]int, procs)
	for r := range d.coords {
		if d.Levels != nil {
			d.coords[r] = hierarchicalCoords(r, d.Levels)
		} else {
			d.coords[r] = toSpatial(r, d.Dims)
		}
		d.rankAt[toLinear(d.coords[r], d.Dims)] = r
	}
}

// Procs is the number of ranks.
func (d *Decomposition) Procs() int { return len(d.coords) }

// Coords returns rank's coordinates in the grid of ranks (x first).
func (d *Decomposition) Coords(rank int) []int { return append([]int(nil), d.coords[rank]...) }

// Offset returns the global index of rank's first interior point.
func (d *Decomposition) Offset(rank int) []int {
	o := d.Coords(rank)
	for a := range o {
		o[a] *= d.Local[a]
	}
	return o
}

// Neighbour returns the rank whose box lies in direction dir (each -1, 0
// or 1) from rank's, periodic on every axis; it may be rank itself.
func (d *Decomposition) Neighbour(rank int, dir []int) int {
	c := d.Coords(rank)
	for a := range c {
		c[a] = ((c[a]+dir[a])%d.Dims[a] + d.Dims[a]) % d.Dims[a]
	}
	return d.rankAt[toLinear(c, d.Dims)]
}

func reversed(s []int) []int {
	r := make([]int, len(s))
	for i, v := range s {
		r[len(s)-1-i] = v
	}
	return r
}

func axisName(a int) string {
	if a < 3 {
		return string("xyz"[a])
	}
	return strconv.Itoa(a)
}

func joinDims(s []int) string {
	p := make([]string, len(s))
	for i, v := range s {
		p[i] = strconv.Itoa(v)
	}
	return strings.Join(p, "x")
}
