package rccl

import (
	"fmt"

	"github.com/akisim/akisim/config"
)

// Topology is the xGMI link graph of a node as RCCL's search sees it: how
// many links join each pair of GCDs, and what one link carries.
type Topology struct {
	// Lanes[a][b] is the number of xGMI links (lanes) of the bundle joining
	// GCDs a and b, 0 if there is none. It is symmetric, square (one row per
	// GCD of the node) and zero on the diagonal.
	Lanes [][]int
	// LaneGBps is what one link carries in one direction, GB/s.
	LaneGBps float64
	// NUMA is each GCD's host NUMA domain (host.gcd_numa), which RCCL's
	// node models match on; nil: unknown.
	NUMA []int
	GPU  GPU
}

// GPU is what RCCL reads of the node's GPUs where its choices differ by
// architecture. The zero value is gfx90a, MI250X's GCD.
type GPU struct {
	// GFX942 marks CDNA 3 devices (MI300X, MI300A). Configs name no
	// architecture; a device of more than one XCD is CDNA 3.
	GFX942 bool
	CUs    int // compute units of one device (RCCL's gpu.cu)
}

// FromConfig is the node's xGMI graph: one row per GCD, each bundle's links
// (config.Load has already dropped bundles with lanes = 0).
func FromConfig(n *config.Node) Topology {
	lanes := make([][]int, n.GCD.Count)
	for i := range lanes {
		lanes[i] = make([]int, n.GCD.Count)
	}
	for _, b := range n.XGMI.Bundles {
		a, c := b.GCDs[0], b.GCDs[1]
		lanes[a][c] += b.Lanes
		lanes[c][a] += b.Lanes
	}
	return Topology{Lanes: lanes, LaneGBps: n.XGMI.LaneBandwidthGBps, NUMA: n.Host.GCDNUMA, GPU: gpuOf(n)}
}

// gpuOf is what RCCL reads of n's devices.
func gpuOf(n *config.Node) GPU {
	return GPU{GFX942: n.GCD.XCDs > 1, CUs: n.GCD.ComputeUnits * max(n.GCD.XCDs, 1)}
}

// check reports the first way t is not a link graph.
func (t Topology) check() error {
	n := len(t.Lanes)
	if n == 0 {
		return fmt.Errorf("rccl: topology has no GCDs")
	}
	if !(t.LaneGBps > 0) {
		return fmt.Errorf("rccl: topology lane bandwidth must be > 0, got %g", t.LaneGBps)
	}
	for a, row := range t.Lanes {
		if len(row) != n {
			return fmt.Errorf("rccl: topology row %d has %d entries, want %d", a, len(row), n)
		}
	}
	for a, row := range t.Lanes {
		for b, l := range row {
			switch {
			case l < 0:
				return fmt.Errorf("rccl: topology: GCD %d to GCD %d has %d lanes", a, b, l)
			case a == b && l != 0:
				return fmt.Errorf("rccl: topology: GCD %d has %d lanes to itself", a, l)
			case t.Lanes[b][a] != l:
				return fmt.Errorf("rccl: topology: GCD %d to GCD %d has %d lanes, the other way %d", a, b, l, t.Lanes[b][a])
			}
		}
	}
	return nil
}
