// Package node turns a resolved config.Node into Akita components wired
// together: GCDs, xGMI bundles, host links, the host IO die, the NUMA
// domains' DDR4 controllers, the NICs, the network's switches, the route
// tables and the HIP runtime. With network.nodes > 1 it builds that many
// identical nodes in one engine (a cluster); ids are global (Hubs).
package node

import (
	"fmt"

	"github.com/akisim/akisim/components/cpu"
	"github.com/akisim/akisim/components/dram"
	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/gcd"
	"github.com/akisim/akisim/components/hub"
	"github.com/akisim/akisim/components/mall"
	"github.com/akisim/akisim/components/nic"
	"github.com/akisim/akisim/components/rosetta"
	"github.com/akisim/akisim/components/sdma"
	"github.com/akisim/akisim/components/xgmi"
	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/internal/limit"
	"github.com/sarchlab/akita/v3/sim"
)

// Node is a built node (or cluster of nodes), ready to run operations.
// GCDs, bundles, host links, DRAM and NICs of all nodes are listed by
// global id; Host and Cores are node 0's.
type Node struct {
	Config   *config.Node
	Engine   *sim.SerialEngine
	GCDs     []*gcd.GCD
	Host     *hub.Hub
	Hosts    []*hub.Hub // by node
	Cores    *cpu.Cores // node 0's host cores as memory requesters
	AllCores []*cpu.Cores
	DRAM     []*dram.Controller // by global NUMA id
	Bundles  []*xgmi.Bundle     // in config order, node by node, without removed ones
	BundleOf map[[2]int]*xgmi.Bundle
	// the network's links by the switches they join, each way (load_aware)
	switchLinks map[[2]int]linkDir
	paths       map[[2]int][][]int
	HostLinks   []*xgmi.Bundle // by GCD; side 0 = GCD
	NICs        []*nic.NIC     // by global NIC id (node*nic.count + k)
	NICLinks    []*xgmi.Bundle // by global NIC id: its PCIe link; side 0 = GCD
	Switches    []*rosetta.Switch
	NetLinks    []*xgmi.Bundle // NIC-switch cables (side 0 = NIC), then switch-switch links
	Routes      *Routes
	Runtime     *hip.Runtime
}

// Build makes the node (or cluster) of a validated config.
func Build(c *config.Node) (*Node, error) {
	if err := limit.Memory(fmt.Sprintf("the simulated machine (%d nodes of %d GCDs)", c.Nodes(), c.GCD.Count), buildBytes(c)); err != nil {
		return nil, err
	}
	n := &Node{Config: c, Engine: sim.NewSerialEngine(), BundleOf: map[[2]int]*xgmi.Bundle{},
		switchLinks: map[[2]int]linkDir{}, paths: map[[2]int][][]int{}}
	routes, err := NewRoutes(c)
	if err != nil {
		return nil, err
	}
	n.Routes = routes
	var devices []hip.Device
	for k := 0; k < c.Nodes(); k++ {
		devices = append(devices, n.buildNode(k)...)
	}
	n.Host, n.Cores = n.Hosts[0], n.AllCores[0]
	n.buildNetwork()
	n.Runtime = hip.NewRuntime("Node.Host.HIP", n.Engine, c.Runtime, c.Env, devices, n.AllCores)
	if c.Host.Unified() {
		n.Runtime.UnifyHostMemory()
	}
	var hubs []int
	for _, x := range n.NICs {
		hubs = append(hubs, x.Hub.ID)
	}
	n.Runtime.AddNICs(n.nicEngines(), hubs, c.Host.NUMADomains, c.NIC.EventNs)
	return n, nil
}

// prefix names node k's components: "Node" alone, "Node[k]" in a cluster.
func (n *Node) prefix(k int) string {
	if n.Config.Nodes() == 1 {
		return "Node"
	}
	return fmt.Sprintf("Node[%d]", k)
}

// buildNode makes node k's components and returns its GCDs as the runtime sees them.
func (n *Node) buildNode(k int) []hip.Device {
	c, e, h := n.Config, n.Engine, n.Routes.Hubs()
	count := c.GCD.Count
	base, numaBase := k*count, k*c.Host.NUMADomains
	pre := n.prefix(k)

	eb := sdma.MakeBuilder().
		WithRouteTable(n.Routes).
		WithDatapath(c.SDMA.ClockGHz, c.SDMA.BytesPerCycle).
		WithTransactions(c.Sim.SDMATransactionBytes, c.SDMA.OutstandingBytes).
		WithQueues(c.SDMA.QueuesPerEngine).
		WithTimings(c.SDMA.PacketProcessNs, c.SDMA.FenceNs, c.SDMA.SignalNs)
	gb := gcd.MakeBuilder().WithEngine(e).
		WithHBM(c.GCD.HBMBandwidthGBps*c.GCD.HBMEfficiency, c.GCD.HBMLatencyNs).
		WithHubLatencies(c.GCD.HubForwardNs, c.GCD.ReorderNs).
		WithSDMA(c.SDMA.HostEngines, c.SDMA.XGMIEngines, eb).
		WithComputeUnits(c.GCD.ComputeUnits, c.GCD.WorkgroupSlots, c.Sim.CUTransactionBytes, c.GCD.CUOutstandingBytes).
		WithXCDs(c.GCD.XCDs).
		WithCUIssue(float64(c.GCD.CUBytesPerClock)*c.GCD.ClockGHz).
		WithRouteSpray(c.Routing.KernelTies == config.TiesSpray).
		WithKernelTimings(c.GCD.KernelLaunchNs, c.GCD.KernelEndNs).
		WithIdleCosts(c.GCD.CPWakeNs, c.GCD.PacketFetchNs).
		WithTLB(c.GCD.TLBEntries, c.GCD.PageWalkers, c.GCD.PageWalkNs).
		WithConcurrentKernels(c.GCD.ConcurrentKernels).
		WithL2(c.GCD.L2Bytes, c.Sim.L2BlockBytes, float64(c.GCD.L2Slices*c.GCD.L2BytesPerClock)*c.GCD.ClockGHz, c.GCD.L2LatencyNs).
		WithLine(c.GCD.LineBytes).
		WithKernelRoutes(n.Routes)
	if m := c.MALL; m.Bytes > 0 {
		gb = gb.WithMALL(mall.MakeBuilder().WithCapacity(m.Bytes, m.Ways).WithLine(m.LineBytes, c.Sim.L2BlockBytes).
			WithChannels(m.Channels, m.ChannelBandwidthGBps).WithLatency(m.LatencyNs).
			WithPolicy(mall.Policy{WriteAllocate: m.WriteAllocate, WriteBack: m.WriteBack}))
	}
	devices := make([]hip.Device, count)
	for g := 0; g < count; g++ {
		d := gb.Build(fmt.Sprintf("%s.GCD[%d]", pre, g), base+g)
		n.GCDs = append(n.GCDs, d)
		devices[g] = hip.Device{HostEngines: d.HostEngines, XGMIEngines: d.XGMIEngines, CUs: d.CUs, NUMA: numaBase + c.Host.GCDNUMA[g]}
	}

	hostHub := h.Host(k)
	host := cpu.MakeBuilder().WithEngine(e).WithHubID(hostHub).WithGCDNUMA(c.Host.GCDNUMA).WithNodeBase(base, numaBase).
		WithLatencies(c.Host.HubLatencyNs, c.Host.RemoteNUMANs).Build(pre + ".Host.IODie")
	n.Hosts = append(n.Hosts, host)
	if !c.Host.Unified() {
		n.buildDRAM(pre, host, numaBase)
	}

	xb := xgmi.MakeBuilder().WithEngine(e).
		WithLaneBandwidth(c.XGMI.LaneBandwidthGBps).
		WithFlightLatency(c.XGMI.FlightLatencyNs).
		WithPacket(c.XGMI.PacketPayloadBytes, c.XGMI.PacketOverheadBytes, c.XGMI.RequestBytes).
		WithResponseOverhead(c.XGMI.ResponseOverheadBytes).
		WithCredits(c.XGMI.CreditBytes, c.Sim.EarlyBooking)
	for _, b := range c.XGMI.Bundles {
		if b.Lanes == 0 {
			continue
		}
		a, z := base+b.GCDs[0], base+b.GCDs[1]
		x := xb.WithLanes(b.Lanes).Build(fmt.Sprintf("%s.XGMI[%d][%d]", pre, b.GCDs[0], b.GCDs[1]))
		n.Bundles = append(n.Bundles, x)
		n.BundleOf[[2]int{a, z}] = x
		n.BundleOf[[2]int{z, a}] = x
		wireLink(n.GCDs[a].Hub, z, x.Port(0))
		wireLink(n.GCDs[z].Hub, a, x.Port(1))
	}
	hb := linkBuilder(e, c.HostLink, c.Sim.EarlyBooking)
	for g := 0; g < count; g++ {
		l := hb.Build(fmt.Sprintf("%s.HostLink[%d]", pre, g))
		n.HostLinks = append(n.HostLinks, l)
		wireLink(n.GCDs[base+g].Hub, hostHub, l.Port(0))
		wireLink(host, base+g, l.Port(1))
	}
	cores := cpu.MakeCoresBuilder().WithEngine(e).WithHubID(hostHub).WithRoutes(n.Routes).
		WithCores(c.Host.Cores, c.Sim.CoreTransactionBytes, c.Host.CoreOutstandingBytes).
		WithLoadLines(c.Host.CoreLoadLines).Build(pre+".Host.Cores", host)
	n.AllCores = append(n.AllCores, cores)

	nb := nic.MakeBuilder().WithEngine(e).WithRouteTable(n.Routes).WithForward(c.NIC.ForwardNs).
		WithDMA(c.NIC.Engines, c.NIC.OutstandingBytes, int(c.Sim.NICTransactionBytes), c.NIC.PCIe.BandwidthGBps, c.NIC.CommandNs, c.NIC.EventNs).
		WithPacketAdaptive(c.Network.AdaptiveRouting == "per_packet")
	pb := linkBuilder(e, c.NIC.PCIe, c.Sim.EarlyBooking)
	for i, g := range c.NIC.GCDs {
		id := h.NIC(k, i)
		x := nb.Build(fmt.Sprintf("%s.NIC[%d]", pre, i), id)
		n.NICs = append(n.NICs, x)
		l := pb.Build(fmt.Sprintf("%s.NIC[%d].PCIe", pre, i))
		n.NICLinks = append(n.NICLinks, l)
		wireLink(n.GCDs[base+g].Hub, id, l.Port(0))
		wireLink(x.Hub, base+g, l.Port(1))
	}
	return devices
}

// buildDRAM makes node's NUMA domains' DRAM controllers behind its IO die.
// An APU node has none: its NUMA domains are the GCDs' HBM (Routes.HubOf).
func (n *Node) buildDRAM(pre string, host *hub.Hub, numaBase int) {
	c, e := n.Config, n.Engine
	db := dram.MakeBuilder().WithEngine(e).
		WithChannels(c.DRAM.ChannelsPerDomain, c.DRAM.ChannelBandwidthGBps).
		WithEfficiency(c.DRAM.Efficiency).WithLatency(c.DRAM.LatencyNs)
	for d := 0; d < c.Host.NUMADomains; d++ {
		m := db.Build(fmt.Sprintf("%s.Host.NUMA[%d].DRAM", pre, d))
		n.DRAM = append(n.DRAM, m)
		fabric.Wire(host.MemoryPort(numaBase+d), m.Port)
	}
}

// buildNetwork makes the switches, cables each NIC to its switch and joins
// the switches; one node needs none.
func (n *Node) buildNetwork() {
	c, h := n.Config, n.Routes.Hubs()
	if c.Nodes() == 1 {
		return
	}
	w := n.Routes.Network()
	sb := rosetta.MakeBuilder().WithEngine(n.Engine).WithLatency(c.Network.SwitchNs)
	for s := 0; s < w.Switches(); s++ {
		n.Switches = append(n.Switches, sb.Build(fmt.Sprintf("Network.Switch[%d]", s), h.Switch(s)))
		if c.Network.AdaptiveRouting == "load_aware" {
			n.Switches[s].Hub.Adapt = n.adapt
		}
	}
	lb := linkBuilder(n.Engine, c.Network.Link, c.Sim.EarlyBooking)
	for k := 0; k < c.Nodes(); k++ {
		for i := range c.NIC.GCDs {
			s := w.SwitchOf(k, i)
			l := lb.Build(fmt.Sprintf("Network.Cable[%d][%d]", k, i))
			n.NetLinks = append(n.NetLinks, l)
			x := n.NICs[k*c.NIC.Count+i]
			x.Network(h.Switch(s))
			wireLink(x.Hub, h.Switch(s), l.Port(0))
			wireLink(n.Switches[s].Hub, h.NIC(k, i), l.Port(1))
		}
	}
	global := lb.WithFlightLatency(c.Network.Link.FlightLatencyNs + c.Network.GlobalNs)
	for _, p := range w.Links() {
		b := lb
		if w.IsGlobal(p[0], p[1]) {
			b = global
		}
		l := b.Build(fmt.Sprintf("Network.Link[%d][%d]", p[0], p[1]))
		n.NetLinks = append(n.NetLinks, l)
		n.switchLinks[p] = linkDir{l, 0}
		n.switchLinks[[2]int{p[1], p[0]}] = linkDir{l, 1}
		wireLink(n.Switches[p[0]].Hub, h.Switch(p[1]), l.Port(0))
		wireLink(n.Switches[p[1]].Hub, h.Switch(p[0]), l.Port(1))
	}
}

// nicEngines lists each NIC's DMA engines, by global NIC id.
func (n *Node) nicEngines() [][]*sdma.Engine {
	var l [][]*sdma.Engine
	for _, x := range n.NICs {
		l = append(l, x.Engines)
	}
	return l
}

// linkBuilder makes one-lane links of a Link config (host, PCIe, network).
func linkBuilder(e sim.Engine, l config.Link, early float64) xgmi.Builder {
	return xgmi.MakeBuilder().WithEngine(e).WithLanes(1).
		WithLaneBandwidth(l.BandwidthGBps).
		WithFlightLatency(l.FlightLatencyNs).
		WithPacket(l.PacketPayloadBytes, l.PacketOverheadBytes, l.RequestBytes).
		WithResponseOverhead(l.ResponseOverheadBytes).
		WithCredits(l.CreditBytes, early)
}

func wireLink(h *hub.Hub, neighbour int, linkPort sim.Port) {
	fabric.Wire(h.LinkPort(neighbour), linkPort)
}

// nodeBytes is what one node's components take beside their TLB and L2
// tables: measured, a Frontier node takes 0.75 MB (akisim -set
// network.nodes=1024 peaks at 764 MB); 1 MiB leaves room.
const nodeBytes = 1 << 20

// buildBytes is about the memory Build takes for c: per node its
// components and, per GCD, its TLB's and L2's hash tables (up to 4 slots
// of 16 bytes per entry or block, blockmap.go).
func buildBytes(c *config.Node) int64 {
	perGCD := limit.Product(64, int64(c.GCD.TLBEntries)+int64(max(1, c.GCD.XCDs))*c.GCD.L2Bytes/max(1, c.Sim.L2BlockBytes)+
		2*c.MALL.Bytes/max(1, c.Sim.L2BlockBytes)) // a MALL frame and its line sets: about two L2 blocks' worth
	perNode := limit.Product(perGCD, int64(c.GCD.Count)) + nodeBytes
	if perNode < 0 {
		return -1
	}
	return limit.Product(perNode, int64(c.Nodes()))
}
