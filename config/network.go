package config

// MaxNodes bounds network.nodes: a whole Frontier (9,408 nodes) fits.
const MaxNodes = 16384

// Nodes is the number of nodes of the run (network.nodes).
func (n *Node) Nodes() int { return max(n.Network.Nodes, 1) }

// TotalGCDs is the number of GCDs of all nodes: global GCD ids are
// node*gcd.count + the GCD's id in its node.
func (n *Node) TotalGCDs() int { return n.Nodes() * n.GCD.Count }

// TotalNUMA is the number of NUMA domains of all nodes, numbered as GCDs are.
func (n *Node) TotalNUMA() int { return n.Nodes() * n.Host.NUMADomains }

// NICOf is the NIC (local index) a rank bound to local GCD g sends
// through: the NIC of the NUMA domain the GCD's host link joins
// (MPICH_OFI_NIC_POLICY=NUMA, ranks bound to their GCD's domain).
func (n *Node) NICOf(g int) int {
	d := n.Host.GCDNUMA[g]
	for k, m := range n.NIC.NUMA {
		if m == d {
			return k
		}
	}
	return 0 // validated: every domain with a GCD has a NIC
}

// GlobalGCDNUMA is host.gcd_numa for every GCD of the run, in global ids.
func (n *Node) GlobalGCDNUMA() []int {
	m := make([]int, n.TotalGCDs())
	for g := range m {
		m[g] = g/n.GCD.Count*n.Host.NUMADomains + n.Host.GCDNUMA[g%n.GCD.Count]
	}
	return m
}

// GlobalNICOf is, for every GCD of the run, the global id (node*nic.count +
// k) of the NIC its rank sends through; -1 for a node without NICs.
func (n *Node) GlobalNICOf() []int {
	m := make([]int, n.TotalGCDs())
	for g := range m {
		m[g] = -1
		if n.NIC.Count > 0 {
			m[g] = g/n.GCD.Count*n.NIC.Count + n.NICOf(g%n.GCD.Count)
		}
	}
	return m
}

// Groups is the number of dragonfly groups the run's nodes fill.
func (n *Node) Groups() int {
	w := &n.Network
	return (n.Nodes() + w.NodesPerGroup - 1) / w.NodesPerGroup
}

// SwitchesPerGroup is the number of switches of a full group.
func (n *Node) SwitchesPerGroup() int {
	w := &n.Network
	return w.NodesPerGroup / w.NodesPerSet * w.SwitchesPerSet
}

// validateNetwork checks the NICs and the network that joins the nodes.
func (n *Node) validateNetwork(v *validator) {
	c := &n.NIC
	v.int("nic.count", int64(c.Count))
	v.int("nic.engines", int64(c.Engines))
	for _, l := range []struct {
		key  string
		list []int
	}{{"nic.gcds", c.GCDs}, {"nic.numa", c.NUMA}, {"nic.switch", c.Switch}} {
		if len(l.list) != c.Count {
			v.fail(l.key, []string{"nic.count"}, "must have one entry per NIC (nic.count = %d), got %d", c.Count, len(l.list))
		}
	}
	for i, g := range c.GCDs {
		if g < 0 || g >= n.GCD.Count {
			v.fail(indexKey("nic.gcds", i), []string{"gcd.count"},
				"NIC %d hangs on GCD %d, which does not exist (gcd.count = %d)", i, g, n.GCD.Count)
		}
	}
	for i, d := range c.NUMA {
		if d < 0 || d >= n.Host.NUMADomains {
			v.fail(indexKey("nic.numa", i), []string{"host.numa_domains"},
				"NUMA domain of NIC %d must be 0..%d, got %d", i, n.Host.NUMADomains-1, d)
		}
	}
	v.float("nic.pcie.bandwidth_gbps", c.PCIe.BandwidthGBps)
	v.float("nic.pcie.flight_latency_ns", c.PCIe.FlightLatencyNs)
	n.validateWire(v, "nic.pcie", c.PCIe.PacketPayloadBytes, c.PCIe.PacketOverheadBytes, c.PCIe.ResponseOverheadBytes, c.PCIe.RequestBytes, c.PCIe.CreditBytes)
	v.int("nic.pcie.response_overhead_bytes", int64(c.PCIe.ResponseOverheadBytes))
	v.float("nic.forward_ns", c.ForwardNs)
	v.int("nic.outstanding_bytes", int64(c.OutstandingBytes))
	v.float("nic.command_ns", c.CommandNs)
	v.float("nic.event_ns", c.EventNs)
	v.int("nic.inject_bytes", c.InjectBytes)

	w := &n.Network
	v.int("network.nodes", int64(w.Nodes))
	v.float("network.link.bandwidth_gbps", w.Link.BandwidthGBps)
	v.float("network.link.flight_latency_ns", w.Link.FlightLatencyNs)
	n.validateWire(v, "network.link", w.Link.PacketPayloadBytes, w.Link.PacketOverheadBytes, w.Link.ResponseOverheadBytes, w.Link.RequestBytes, w.Link.CreditBytes)
	v.int("network.link.response_overhead_bytes", int64(w.Link.ResponseOverheadBytes))
	v.float("network.switch_ns", w.SwitchNs)
	v.float("network.global_ns", w.GlobalNs)
	v.int("network.nodes_per_set", int64(w.NodesPerSet))
	v.int("network.switches_per_set", int64(w.SwitchesPerSet))
	v.int("network.nodes_per_group", int64(w.NodesPerGroup))
	v.int("network.switch_ports", int64(w.SwitchPorts))
	v.int("network.adaptive_paths", int64(w.AdaptivePaths))
	v.choice("network.adaptive_routing", w.AdaptiveRouting)
	if len(v.errs) > 0 {
		return
	}
	for i, s := range c.Switch {
		if s < 0 || s >= w.SwitchesPerSet {
			v.fail(indexKey("nic.switch", i), []string{"network.switches_per_set"},
				"NIC %d is cabled to switch %d of its set, which has switches 0..%d", i, s, w.SwitchesPerSet-1)
			return // validatePorts counts cables by switch
		}
	}
	if w.NodesPerGroup%w.NodesPerSet != 0 {
		v.fail("network.nodes_per_group", []string{"network.nodes_per_set"},
			"must be a multiple of nodes_per_set = %d, got %d", w.NodesPerSet, w.NodesPerGroup)
		return
	}
	for g := 0; g < n.GCD.Count && n.Nodes() > 1; g++ {
		if !n.nicServes(g) {
			v.fail("nic.numa", []string{"host.gcd_numa", "network.nodes", "gcd.count"},
				"no NIC serves NUMA domain %d, so GCD %d cannot reach the other nodes", n.Host.GCDNUMA[g], g)
			return
		}
	}
	n.validatePorts(v)
}

// nicServes says whether a NIC serves the NUMA domain of local GCD g.
func (n *Node) nicServes(g int) bool {
	for _, d := range n.NIC.NUMA {
		if d == n.Host.GCDNUMA[g] {
			return true
		}
	}
	return false
}

// validatePorts checks every switch has a port for each of its cables:
// the NICs of its set, a link to every other switch of its group and its
// share of the group's global links (one to every other group).
func (n *Node) validatePorts(v *validator) {
	w := &n.Network
	if n.Nodes() == 1 {
		return
	}
	nics := make([]int, w.SwitchesPerSet)
	for _, s := range n.NIC.Switch {
		nics[s] += w.NodesPerSet
	}
	most := 0
	for _, k := range nics {
		most = max(most, k)
	}
	group := n.SwitchesPerGroup() - 1
	global := (n.Groups() - 1 + n.SwitchesPerGroup() - 1) / n.SwitchesPerGroup()
	if need := most + group + global; need > w.SwitchPorts {
		v.fail("network.switch_ports", []string{"network.nodes_per_set", "network.switches_per_set", "nic.switch", "network.nodes_per_group", "network.nodes"},
			"a switch needs %d ports (%d NICs, %d other switches of its group, %d global links), got %d",
			need, most, group, global, w.SwitchPorts)
	}
}

// CXI is what a communication library needs to know to send between
// nodes: how ids divide into nodes, each GCD's NIC, and libfabric CXI's
// protocol thresholds (docs/references.md [libfabric-cxi]).
type CXI struct {
	GCDsPerNode, NUMAPerNode, NICsPerNode int
	NICOf                                 []int // by global GCD: the global NIC its rank uses (-1: none)
	Streams                               int   // a rank's NIC command streams: commands its NIC works on at once
	InjectBytes                           int64 // nic.inject_bytes
	EagerMax                              int64 // FI_CXI_RDZV_THRESHOLD + FI_CXI_RDZV_GET_MIN
	EagerSize                             int64 // FI_CXI_RDZV_EAGER_SIZE
}

// CXI returns the run's CXI parameters.
func (n *Node) CXI() CXI {
	return CXI{GCDsPerNode: n.GCD.Count, NUMAPerNode: n.Host.NUMADomains, NICsPerNode: n.NIC.Count, NICOf: n.GlobalNICOf(),
		Streams: n.NIC.Engines, InjectBytes: n.NIC.InjectBytes,
		EagerMax: n.Env.RdzvThreshold + n.Env.RdzvGetMin, EagerSize: n.Env.RdzvEagerSize}
}
