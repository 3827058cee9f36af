package halo

import (
	"fmt"
	"slices"
)

// Placement puts ranks on GCDs: ranks fill nodes GCDsPerNode at a time (8
// tasks per node in Slurm's default block distribution, as acm's LUMI jobs
// run: bm-64.sh, --ntasks-per-node=8), and within a node the rank's local
// index picks its GCD from LocalGCD. Global GCD ids are node*GCDsPerNode +
// local GCD.
type Placement struct {
	// LocalGCD maps rank % GCDsPerNode to the GCD it runs on; a permutation
	// of 0..GCDsPerNode-1.
	LocalGCD []int
	// GCDsPerPackage is how many consecutive GCD ids share a package
	// (MI250X: 2, joined by the quad xGMI bundle).
	GCDsPerPackage int
}

// IdentityGCDs is the map of acm's generic device selection, GCD = rank % 8
// (experimental/mpi_utils_experimental.cc:96-106), used by its mpi-no and
// mpi-default runs (bm_rank_reordering.cc:396).
var IdentityGCDs = []int{0, 1, 2, 3, 4, 5, 6, 7}

// LUMIGCDs is acm's select_device_lumi map (mpi_utils_experimental.cc:74-94),
// LUMI's recommended order, under which consecutive pairs of ranks share a
// package; acm uses it for every decomposition of its hierarchical job
// (hierarchical and both custom ones, bm_rank_reordering.cc:397-398, 424-436),
// launched with --cpu-bind=map_cpu:33,41,49,57,17,25,1,9.
var LUMIGCDs = []int{6, 7, 0, 1, 2, 3, 4, 5}

// NewPlacement checks that localGCD is a permutation and perPackage divides
// the node.
func NewPlacement(localGCD []int, perPackage int) (Placement, error) {
	n := len(localGCD)
	if n < 1 {
		return Placement{}, fmt.Errorf("gcd_map: empty, want one GCD per rank of a node")
	}
	seen := make([]bool, n)
	for i, g := range localGCD {
		if g < 0 || g >= n || seen[g] {
			return Placement{}, fmt.Errorf("gcd_map: %v, entry %d (%d) is not a distinct GCD in 0..%d", localGCD, i, g, n-1)
		}
		seen[g] = true
	}
	if perPackage < 1 || n%perPackage != 0 {
		return Placement{}, fmt.Errorf("gcds_per_package: %d does not divide %d GCDs per node", perPackage, n)
	}
	return Placement{LocalGCD: slices.Clone(localGCD), GCDsPerPackage: perPackage}, nil
}

// DefaultPlacement is the placement acm's jobs give the named decomposition:
// LUMIGCDs for hierarchical and custom, IdentityGCDs for mpi-no and
// mpi-default; two GCDs per package.
func DefaultPlacement(name string) Placement {
	m := IdentityGCDs
	if name == Hierarchical || name == Custom {
		m = LUMIGCDs
	}
	return Placement{LocalGCD: slices.Clone(m), GCDsPerPackage: 2}
}

// PlacementOn is DefaultPlacement on a node of gcds GCDs. acm's maps are
// for 8 GCDs, two per package; on another node (an MI300A node's 4 APUs,
// one device per package) only its generic device selection, GCD = rank %
// gcds, applies, so hierarchical and custom, placed by LUMI's map, are
// refused.
func PlacementOn(name string, gcds int) (Placement, error) {
	if gcds == len(IdentityGCDs) {
		return DefaultPlacement(name), nil
	}
	if name == Hierarchical || name == Custom {
		return Placement{}, fmt.Errorf("acm places %s ranks by LUMI's map of a node's 8 GCDs, the node has %d", name, gcds)
	}
	ids := make([]int, gcds)
	for i := range ids {
		ids[i] = i
	}
	return NewPlacement(ids, 1)
}

// GCDsPerNode is the number of ranks (and GCDs) per node.
func (p Placement) GCDsPerNode() int { return len(p.LocalGCD) }

// GCD returns rank's global GCD id.
func (p Placement) GCD(rank int) int {
	n := p.GCDsPerNode()
	return rank/n*n + p.LocalGCD[rank%n]
}

// Level is how far apart two GCDs are: the path their messages take.
type Level int

const (
	SameGCD     Level = iota // a self-neighbour: a copy within one GCD
	SamePackage              // the two GCDs of one package (quad xGMI bundle)
	SameNode                 // other packages of the node (xGMI)
	OtherNode                // the network
	NumLevels
)

var levelNames = [NumLevels]string{"gcd", "package", "node", "network"}

func (l Level) String() string { return levelNames[l] }

// Level returns how far apart the GCDs of ranks a and b are.
func (p Placement) Level(a, b int) Level {
	ga, gb := p.GCD(a), p.GCD(b)
	n := p.GCDsPerNode()
	switch {
	case ga == gb:
		return SameGCD
	case ga/n != gb/n:
		return OtherNode
	case ga/p.GCDsPerPackage == gb/p.GCDsPerPackage:
		return SamePackage
	}
	return SameNode
}
