package config

import (
	"slices"
	"strings"
)

// Compute partition modes (gcd.compute_partition): how many HIP devices a
// [gcd] entry's XCDs are grouped into (AMD SMI's accelerator partition
// profiles: on MI300X SPX 1, DPX 2, QPX 4, CPX 8; MI300A SPX 1, TPX 3,
// CPX 6 devices).
var PartitionModes = []string{"SPX", "DPX", "TPX", "QPX", "CPX"}

// Memory partition modes (gcd.memory_partition): NUMA domains a [gcd]
// entry's HBM is split into (NPS4: pairs of an MI300X's 8 stacks).
var MemoryModes = []string{"NPS1", "NPS4"}

// ComputePartitions is how many devices a [gcd] entry of xcds XCDs is in
// mode (0: not a mode).
func ComputePartitions(mode string, xcds int) int {
	switch mode {
	case "SPX":
		return 1
	case "DPX":
		return 2
	case "TPX":
		return 3
	case "QPX":
		return 4
	case "CPX":
		return xcds
	}
	return 0
}

// namedModes are the compute partition modes AMD names for a device of
// xcds XCDs: MI300X's 8 (AMD SMI's profiles), MI300A's 6 (the Hunter
// study, AMD's MI300A partitioning guide); any other count SPX and CPX.
func namedModes(xcds int) []string {
	switch xcds {
	case 8:
		return []string{"SPX", "DPX", "QPX", "CPX"}
	case 6:
		return []string{"SPX", "TPX", "CPX"}
	}
	return []string{"SPX", "CPX"}
}

// MemoryPartitions is how many NUMA memory partitions mode splits a [gcd]
// entry's HBM into (0: not a mode).
func MemoryPartitions(mode string) int {
	switch mode {
	case "NPS1":
		return 1
	case "NPS4":
		return 4
	}
	return 0
}

// Partitioning is how a loaded config's devices sit on the physical
// [gcd] entries it describes. Unpartitioned (SPX/NPS1) every field is 1
// but GPUs, and device g is entry g.
type Partitioning struct {
	GPUs    int // physical [gcd] entries
	Devices int // devices per entry (compute partitions)
	Memory  int // memory partitions per entry: its devices split evenly over them
}

// Partitioning says how n's devices (gcd.count of them) sit on its
// physical GPUs.
func (n *Node) Partitioning() Partitioning {
	if n.parts != nil {
		return n.parts.Partitioning
	}
	return Partitioning{GPUs: n.GCD.Count, Devices: 1, Memory: 1}
}

// MemoryGroup is the memory partition device g's HBM channels belong to,
// numbered over the node: the devices of one group share its channels'
// bandwidth (and each has its own share of its capacity and MALL).
func (p Partitioning) MemoryGroup(g int) int { return g / (p.Devices / p.Memory) }

// partitioned is what partition made of a config: the physical config
// it was loaded as (what WriteTOML writes back) and how devices sit on it.
type partitioned struct {
	Partitioning
	physical *Node
}

// iodLanes is the width of the bundles partition puts between devices of
// one GPU, in xgmi lanes (assumed: no published IOD-to-IOD bandwidth was
// found; MaxLanes x 64 GB/s on MI300X, so a copy between partitions is
// bound by its engines, not by the IOD).
const iodLanes = MaxLanes

// validatePartition checks the partition modes against the XCDs they
// split and what the split makes of each device.
func (n *Node) validatePartition(v *validator) {
	g := &n.GCD
	v.choice("gcd.compute_partition", g.ComputePartition)
	v.choice("gcd.memory_partition", g.MemoryPartition)
	p, q := ComputePartitions(g.ComputePartition, g.XCDs), MemoryPartitions(g.MemoryPartition)
	if p == 0 || q == 0 || g.XCDs < 1 {
		return
	}
	if g.XCDs%p != 0 {
		v.fail("gcd.compute_partition", []string{"gcd.xcds"}, "%s makes %d devices, which must divide gcd.xcds (%d)", g.ComputePartition, p, g.XCDs)
		return
	}
	if modes := namedModes(g.XCDs); !slices.Contains(modes, g.ComputePartition) {
		v.fail("gcd.compute_partition", []string{"gcd.xcds"}, "%s is not a mode AMD names for a device of %d XCDs (%s)", g.ComputePartition, g.XCDs, strings.Join(modes, ", "))
		return
	}
	if q > 1 && g.ComputePartition != "CPX" || p%q != 0 {
		v.fail("gcd.memory_partition", []string{"gcd.compute_partition", "gcd.xcds"},
			"%s makes %d memory partitions: AMD pairs NPS4 with CPX only, and its partitions must divide the devices (%d with %s)", g.MemoryPartition, q, p, g.ComputePartition)
		return
	}
	if p == 1 {
		return
	}
	if n.Nodes() > 1 {
		v.fail("gcd.compute_partition", []string{"network.nodes"}, "%s is modelled on one node only (network.nodes = 1), got network.nodes = %d", g.ComputePartition, n.Network.Nodes)
	}
	if g.Count*p > MaxGCDs {
		v.fail("gcd.compute_partition", []string{"gcd.count"}, "%s makes gcd.count x %d = %d devices, more than %d", g.ComputePartition, p, g.Count*p, MaxGCDs)
	}
	if g.HBMBytes/int64(p) < MinMemoryBytes {
		v.fail("gcd.compute_partition", []string{"gcd.hbm_bytes"}, "%s leaves each device gcd.hbm_bytes / %d = %d bytes, less than %d", g.ComputePartition, p, g.HBMBytes/int64(p), MinMemoryBytes)
	}
	m := &n.MALL
	if m.Channels%q != 0 {
		v.fail("mall.channels", []string{"gcd.memory_partition"}, "must split into %d memory partitions with %s, got %d", q, g.MemoryPartition, m.Channels)
	}
}

// partition turns a config of physical GPUs in a partition mode into the
// devices the mode exposes, numbered GPU by GPU (device g is partition
// g mod p of GPU g / p, its XCDs the GPU's gcd.xcds / p from
// (g mod p) x gcd.xcds / p on). Each
// device gets:
//   - its XCDs, each with its CUs and L2, and its share of the FP64 peak;
//   - its share of the HBM's capacity and of the MALL's capacity, in
//     whole sets (assumed: a device's lines compete only with its own);
//   - the HBM channels and MALL channels of its memory partition, whose
//     bandwidth the devices of that partition share (node.Build);
//   - sdma engines: host and xgmi engines divided by p, at least one each;
//   - its own host link (assumed: one PCIe link per GPU in hardware, not
//     shared between its partitions here) on its GPU's NUMA domain.
//
// Partition 0 of each GPU carries the GPU's xGMI links; the others reach
// it over a bundle of iodLanes (the IOD): routing.max_hops becomes the
// physical GPUs' worst hop count plus those 2.
// An unpartitioned config (SPX, NPS1) is left as it is.
func (n *Node) partition() {
	g := &n.GCD
	p, q := ComputePartitions(g.ComputePartition, g.XCDs), MemoryPartitions(g.MemoryPartition)
	if p <= 1 && q <= 1 {
		return
	}
	phys := n.clone()
	gpus := g.Count
	g.Count = gpus * p
	g.XCDs /= p
	g.HBMBytes /= int64(p)
	g.HBMBandwidthGBps /= float64(q)
	g.FP64GFlops /= float64(p)
	if set := int64(n.MALL.Ways) * n.Sim.L2BlockBytes; set > 0 {
		n.MALL.Bytes = n.MALL.Bytes / int64(p) / set * set // whole sets
	}
	n.MALL.Channels /= q
	n.SDMA.HostEngines = max(1, n.SDMA.HostEngines/p)
	n.SDMA.XGMIEngines = max(1, n.SDMA.XGMIEngines/p)

	var bundles []Bundle
	for _, b := range phys.XGMI.Bundles {
		bundles = append(bundles, Bundle{GCDs: [2]int{b.GCDs[0] * p, b.GCDs[1] * p}, Lanes: b.Lanes})
	}
	for gpu := 0; gpu < gpus; gpu++ {
		for k := 1; k < p; k++ {
			bundles = append(bundles, Bundle{GCDs: [2]int{gpu * p, gpu*p + k}, Lanes: iodLanes})
		}
	}
	n.XGMI.Bundles = bundles
	if p > 1 { // from a GPU's partition to its partition 0, across, and on to the partition asked for
		n.Routing.MaxHops = phys.worstHops() + 2
	}

	h := &n.Host
	h.GCDNUMA = nil
	for dev := 0; dev < g.Count; dev++ {
		if h.Unified() {
			h.GCDNUMA = append(h.GCDNUMA, dev) // an APU device's host memory is its share of the HBM
		} else {
			h.GCDNUMA = append(h.GCDNUMA, phys.Host.GCDNUMA[dev/p])
		}
	}
	if h.Unified() {
		h.NUMADomains, h.NUMABytes = g.Count, g.HBMBytes
	}
	n.NIC.GCDs, n.NIC.NUMA = slices.Clone(n.NIC.GCDs), slices.Clone(n.NIC.NUMA)
	for i := range n.NIC.GCDs {
		n.NIC.GCDs[i] *= p
	}
	if h.Unified() { // an APU's domain is now its partition 0's
		for i := range n.NIC.NUMA {
			n.NIC.NUMA[i] *= p
		}
	}
	n.parts = &partitioned{Partitioning: Partitioning{GPUs: gpus, Devices: p, Memory: q}, physical: phys}
}

// worstHops is the most bundles any GCD crosses to reach another.
func (n *Node) worstHops() int {
	adj := make([][]int, n.GCD.Count)
	for _, b := range n.XGMI.Bundles {
		adj[b.GCDs[0]] = append(adj[b.GCDs[0]], b.GCDs[1])
		adj[b.GCDs[1]] = append(adj[b.GCDs[1]], b.GCDs[0])
	}
	worst := 0
	for src := range adj {
		for _, d := range hops(adj, src) {
			worst = max(worst, d)
		}
	}
	return worst
}

// clone is a copy of n that shares none of the slices partition rewrites.
func (n *Node) clone() *Node {
	c := *n
	c.XGMI.Bundles = slices.Clone(n.XGMI.Bundles)
	c.Host.GCDNUMA = slices.Clone(n.Host.GCDNUMA)
	c.NIC.GCDs = slices.Clone(n.NIC.GCDs)
	c.NIC.NUMA = slices.Clone(n.NIC.NUMA)
	return &c
}
