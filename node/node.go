// Package node turns a resolved config.Node into Akita components wired
// together: GCDs, xGMI bundles, host links, the host IO die, the NUMA
// domains' DDR4 controllers, the NICs, the network's switches, the route
// tables and the HIP runtime. With network.nodes > 1 it makes that many
// identical nodes in one engine (a cluster), each built when a run first
// touches it; ids are global (Hubs).
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
	"github.com/sarchlab/akita/v3/tracing"
)

// Node is a built node (or cluster of nodes), ready to run operations.
// GCDs, host links, DRAM, NICs, switches and network links of all nodes
// are listed by global id; Host and Cores are node 0's. A cluster builds
// node 0 at once and each other node, switch and network link when a run
// first touches it (a rank's memory, a route), so an entry stays nil for
// parts no run touched; Bundles lists the built nodes' bundles.
type Node struct {
	Config   *config.Node
	Engine   *fabric.SerialEngine
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
	joins       map[*fabric.Packet]*join // packets dealt over paths, by the whole, until rejoined
	dealing     dealing                  // adapt's scratch
	HostLinks   []*xgmi.Bundle           // by GCD; side 0 = GCD
	NICs        []*nic.NIC               // by global NIC id (node*nic.count + k)
	NICLinks    []*xgmi.Bundle           // by global NIC id: its PCIe link; side 0 = GCD
	Switches    []*rosetta.Switch
	NetLinks    []*xgmi.Bundle // NIC-switch cables (side 0 = NIC), then switch-switch links
	Routes      *Routes
	Runtime     *hip.Runtime
	built       []bool         // by node
	tracer      tracing.Tracer // Akita's task tracer of every part built (TraceTasks), or nil
	nodesBuilt  int
	builders    *builders      // of a node's parts, made once
	linkAt      map[[2]int]int // a switch pair's link: its index in Network.Links (made when first needed)
	idle        *Idle          // parts never run, for the stats of parts not built (made when first needed)
}

// Build makes the node (or cluster) of a validated config.
func Build(c *config.Node) (*Node, error) {
	if err := limit.Memory(fmt.Sprintf("the simulated machine's first node and tables (%d nodes of %d GCDs)", c.Nodes(), c.GCD.Count), buildBytes(c, 1)); err != nil {
		return nil, err
	}
	n := &Node{Config: c, Engine: fabric.NewSerialEngine(), BundleOf: map[[2]int]*xgmi.Bundle{},
		switchLinks: map[[2]int]linkDir{}, paths: map[[2]int][][]int{},
		joins: map[*fabric.Packet]*join{}}
	routes, err := NewRoutes(c)
	if err != nil {
		return nil, err
	}
	n.Routes = routes
	nodes, gcds, nics, numa := c.Nodes(), c.GCD.Count, c.NIC.Count, c.Host.NUMADomains
	n.built = make([]bool, nodes)
	n.GCDs, n.HostLinks = make([]*gcd.GCD, nodes*gcds), make([]*xgmi.Bundle, nodes*gcds)
	n.Hosts, n.AllCores, n.DRAM = make([]*hub.Hub, nodes), make([]*cpu.Cores, nodes), make([]*dram.Controller, nodes*numa)
	n.NICs, n.NICLinks = make([]*nic.NIC, nodes*nics), make([]*xgmi.Bundle, nodes*nics)
	if nodes > 1 {
		w := routes.Network()
		n.Switches, n.NetLinks = make([]*rosetta.Switch, w.Switches()), make([]*xgmi.Bundle, nodes*nics+w.LinkCount())
	}
	devices := make([]hip.Device, nodes*gcds) // until built, a GCD is its NUMA domain
	for g := range devices {
		devices[g].NUMA = g/gcds*numa + c.Host.GCDNUMA[g%gcds]
	}
	h := routes.Hubs()
	hubs := make([]int, nodes*nics)
	for k := range hubs {
		hubs[k] = h.NIC(k/nics, k%nics)
	}
	n.Runtime = hip.NewRuntime("Node.Host.HIP", n.Engine, c.Runtime, c.Stack.ROCmRelease(), c.Env, devices, n.AllCores)
	if c.Host.Unified() {
		n.Runtime.UnifyHostMemory()
		n.DRAM = nil // an APU node's NUMA domains are its GCDs' HBM (Routes.HubOf): no DRAM controllers
	}
	n.Runtime.AddNICs(newTransport(hubs, c.NIC.EventNs), nodes*nics, numa)
	n.Runtime.OnDemand(n.need)
	routes.onNew = n.touch
	n.need(0)
	n.Host, n.Cores = n.Hosts[0], n.AllCores[0]
	return n, nil
}

// need builds node k if no run touched it yet. The memory it takes is
// checked first; a node beyond what the machine has free ends the run
// (Run returns the limit's error).
func (n *Node) need(k int) {
	if n.built[k] {
		return
	}
	c, count := n.Config, n.nodesBuilt+1
	if err := limit.Memory(fmt.Sprintf("the %d nodes (of %d GCDs) the run touched", count, c.GCD.Count), buildBytes(c, count)); err != nil {
		panic(buildError{err})
	}
	n.built[k], n.nodesBuilt = true, count
	devices := n.buildNode(k)
	var engines [][]*sdma.Engine
	for _, x := range n.NICs[k*c.NIC.Count : (k+1)*c.NIC.Count] {
		engines = append(engines, x.Engines)
	}
	n.Runtime.Attach(k, devices, n.AllCores[k], engines)
	n.traceNode(k)
}

// TraceTasks has Akita's tracer t see the work of every part built, now
// and as a run touches more: the copies of each SDMA and NIC DMA engine,
// each GCD's kernels with their workgroups and steps, and what their
// transactions take on each link direction and memory (HBM, DRAM), as
// children of the copy or step (tracing.CollectTrace).
func (n *Node) TraceTasks(t tracing.Tracer) {
	n.tracer = t
	for k, built := range n.built {
		if built {
			n.traceNode(k)
		}
	}
	for _, l := range n.NetLinks {
		if l != nil {
			n.trace(l)
		}
	}
}

// traceNode hooks the tracer, if any, to node k's engines, CUs, links
// and memories.
func (n *Node) traceNode(k int) {
	if n.tracer == nil {
		return
	}
	c := n.Config
	count, nics, numa := c.GCD.Count, c.NIC.Count, c.Host.NUMADomains
	for _, d := range n.GCDs[k*count : (k+1)*count] {
		n.trace(d.CUs, d.HBM)
		for _, e := range d.Engines() {
			n.trace(e)
		}
	}
	for i, x := range n.NICs[k*nics : (k+1)*nics] {
		n.trace(n.NICLinks[k*nics+i])
		for _, e := range x.Engines {
			n.trace(e)
		}
	}
	for _, l := range n.HostLinks[k*count : (k+1)*count] {
		n.trace(l)
	}
	if n.DRAM != nil {
		for _, m := range n.DRAM[k*numa : (k+1)*numa] {
			n.trace(m)
		}
	}
	for _, bd := range c.XGMI.Bundles {
		if x := n.BundleOf[[2]int{k*count + bd.GCDs[0], k*count + bd.GCDs[1]}]; bd.Lanes > 0 && x != nil {
			n.trace(x)
		}
	}
}

// trace hooks the tracer, if any, to parts.
func (n *Node) trace(parts ...tracing.NamedHookable) {
	if n.tracer == nil {
		return
	}
	for _, p := range parts {
		tracing.CollectTrace(p, n.tracer)
	}
}

// buildError unwinds a run whose next node would not fit in memory.
type buildError struct{ err error }

// Idle is a GCD, a host link and a NUMA domain's DRAM built and never
// run: what a part no run touched reports (all its counters zero).
type Idle struct {
	GCD      *gcd.GCD
	HostLink *xgmi.Bundle
	DRAM     *dram.Controller
}

// Idle makes the idle parts once; they are wired to nothing.
func (n *Node) Idle() *Idle {
	if n.idle == nil {
		b := n.parts()
		n.idle = &Idle{GCD: b.gcd.Build("Idle.GCD", 0), HostLink: b.hlink.Build("Idle.HostLink"), DRAM: b.dram.Build("Idle.DRAM")}
	}
	return n.idle
}

// Built says whether node k is built (a run touched it).
func (n *Node) Built(k int) bool { return n.built[k] }

// prefix names node k's components: "Node" alone, "Node[k]" in a cluster.
func (n *Node) prefix(k int) string {
	if n.Config.Nodes() == 1 {
		return "Node"
	}
	return fmt.Sprintf("Node[%d]", k)
}

// builders are those of a node's parts and the network's, made once for
// every node a run touches.
type builders struct {
	gcd    gcd.Builder
	host   cpu.Builder
	dram   dram.Builder
	xgmi   xgmi.Builder
	hlink  xgmi.Builder // host links
	nic    nic.Builder
	pcie   xgmi.Builder
	sw     rosetta.Builder
	cable  xgmi.Builder // NIC-switch cables and links within a group
	global xgmi.Builder // links between groups
}

// parts makes the builders on first use.
func (n *Node) parts() *builders {
	if n.builders != nil {
		return n.builders
	}
	c, e := n.Config, n.Engine
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
		WithStreamGather(c.Sim.StreamGather).
		WithKernelTimings(c.GCD.KernelLaunchNs, c.GCD.KernelEndNs).
		WithWaveStart(c.GCD.WaveStartNs).
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
	lb := linkBuilder(e, c.Network.Link, c.Sim.EarlyBooking)
	n.builders = &builders{
		gcd: gb,
		host: cpu.MakeBuilder().WithEngine(e).WithGCDNUMA(c.Host.GCDNUMA).
			WithLatencies(c.Host.HubLatencyNs, c.Host.RemoteNUMANs),
		dram: dram.MakeBuilder().WithEngine(e).
			WithChannels(c.DRAM.ChannelsPerDomain, c.DRAM.ChannelBandwidthGBps).
			WithEfficiency(c.DRAM.Efficiency).WithLatency(c.DRAM.LatencyNs),
		xgmi: xgmi.MakeBuilder().WithEngine(e).
			WithLaneBandwidth(c.XGMI.LaneBandwidthGBps).
			WithFlightLatency(c.XGMI.FlightLatencyNs).
			WithPacket(c.XGMI.PacketPayloadBytes, c.XGMI.PacketOverheadBytes, c.XGMI.RequestBytes).
			WithResponseOverhead(c.XGMI.ResponseOverheadBytes).
			WithCredits(c.XGMI.CreditBytes, c.Sim.EarlyBooking),
		hlink: linkBuilder(e, c.HostLink, c.Sim.EarlyBooking).WithSharedDirections(c.Host.LinkSharedDirections),
		nic: nic.MakeBuilder().WithEngine(e).WithRouteTable(n.Routes).WithForward(c.NIC.ForwardNs).
			WithDMA(c.NIC.Engines, c.NIC.OutstandingBytes, int(c.Sim.NICTransactionBytes), c.NIC.PCIe.BandwidthGBps, c.NIC.CommandNs, c.NIC.EventNs).
			WithPacketAdaptive(c.Network.AdaptiveRouting == "per_packet"),
		pcie:   linkBuilder(e, c.NIC.PCIe, c.Sim.EarlyBooking),
		sw:     rosetta.MakeBuilder().WithEngine(e).WithLatency(c.Network.SwitchNs),
		cable:  lb,
		global: lb.WithFlightLatency(c.Network.Link.FlightLatencyNs + c.Network.GlobalNs),
	}
	return n.builders
}

// buildNode makes node k's components and returns its GCDs as the runtime sees them.
func (n *Node) buildNode(k int) []hip.Device {
	c, h, b := n.Config, n.Routes.Hubs(), n.parts()
	count, numa := c.GCD.Count, c.Host.NUMADomains
	base, numaBase := k*count, k*numa
	pre := n.prefix(k)

	devices := make([]hip.Device, count)
	part := c.Partitioning()
	shares := map[int]*gcd.MemoryShare{}
	for g := 0; g < count; g++ {
		gb := b.gcd
		if part.Devices > 1 || part.Memory > 1 { // a partition mode: the devices of a memory partition share its channels
			m := part.MemoryGroup(g)
			if shares[m] == nil {
				shares[m] = &gcd.MemoryShare{}
			}
			gb = gb.WithMemoryShare(shares[m])
		}
		d := gb.Build(fmt.Sprintf("%s.GCD[%d]", pre, g), base+g)
		n.GCDs[base+g] = d
		devices[g] = hip.Device{HostEngines: d.HostEngines, XGMIEngines: d.XGMIEngines, CUs: d.CUs, NUMA: numaBase + c.Host.GCDNUMA[g]}
	}

	hostHub := h.Host(k)
	host := b.host.WithHubID(hostHub).WithNodeBase(base, numaBase).Build(pre + ".Host.IODie")
	n.Hosts[k] = host
	for d := 0; d < numa && !c.Host.Unified(); d++ {
		m := b.dram.Build(fmt.Sprintf("%s.Host.NUMA[%d].DRAM", pre, d))
		n.DRAM[numaBase+d] = m
		fabric.Wire(host.MemoryPort(numaBase+d), m.Port)
	}

	for _, bd := range c.XGMI.Bundles {
		if bd.Lanes == 0 {
			continue
		}
		a, z := base+bd.GCDs[0], base+bd.GCDs[1]
		xb := b.xgmi.WithLanes(bd.Lanes)
		if p := c.Partitioning().Devices; p > 1 && bd.GCDs[0]/p == bd.GCDs[1]/p {
			xb = xb.WithFlightLatency(0) // the IOD between partitions of one GPU: no SerDes (assumed), its hubs' forwarding only
		}
		x := xb.Build(fmt.Sprintf("%s.XGMI[%d][%d]", pre, bd.GCDs[0], bd.GCDs[1]))
		n.Bundles = append(n.Bundles, x)
		n.BundleOf[[2]int{a, z}] = x
		n.BundleOf[[2]int{z, a}] = x
		wireLink(n.GCDs[a].Hub, z, x.Port(0))
		wireLink(n.GCDs[z].Hub, a, x.Port(1))
	}
	for g := 0; g < count; g++ {
		l := b.hlink.Build(fmt.Sprintf("%s.HostLink[%d]", pre, g))
		n.HostLinks[base+g] = l
		wireLink(n.GCDs[base+g].Hub, hostHub, l.Port(0))
		wireLink(host, base+g, l.Port(1))
	}
	n.AllCores[k] = cpu.MakeCoresBuilder().WithEngine(n.Engine).WithHubID(hostHub).WithRoutes(n.Routes).
		WithCores(c.Host.Cores, c.Sim.CoreTransactionBytes, c.Host.CoreOutstandingBytes).
		WithLoadLines(c.Host.CoreLoadLines).WithStoreAllocate(c.Host.StoreAllocate, c.Host.L3Bytes).
		WithCCDLink(c.Host.CCDLinkGBps).Build(pre+".Host.Cores", host)

	for i, g := range c.NIC.GCDs {
		id := h.NIC(k, i)
		x := b.nic.Build(fmt.Sprintf("%s.NIC[%d]", pre, i), id)
		n.NICs[k*c.NIC.Count+i] = x
		l := b.pcie.Build(fmt.Sprintf("%s.NIC[%d].PCIe", pre, i))
		n.NICLinks[k*c.NIC.Count+i] = l
		wireLink(n.GCDs[base+g].Hub, id, l.Port(0))
		wireLink(x.Hub, base+g, l.Port(1))
	}
	return devices
}

// touch builds what a route the run is about to use crosses: the nodes of
// its hubs, its switches, the cables between NICs and switches and the
// links between switches.
func (n *Node) touch(rt fabric.Route) {
	h := n.Routes.Hubs()
	first := h.Switch(0)
	for i, hub := range rt {
		if hub < first {
			node, _, _ := h.Local(hub)
			n.need(node)
		} else {
			n.buildSwitch(hub - first)
		}
		if i == 0 {
			continue
		}
		switch a, b := rt[i-1], hub; {
		case a >= first && b >= first:
			n.buildLink(a-first, b-first)
		case a >= first:
			n.buildCable(b - h.NIC(0, 0))
		case b >= first:
			n.buildCable(a - h.NIC(0, 0))
		}
	}
}

// buildSwitch makes switch s.
func (n *Node) buildSwitch(s int) {
	if n.Switches[s] != nil {
		return
	}
	n.Switches[s] = n.parts().sw.Build(fmt.Sprintf("Network.Switch[%d]", s), n.Routes.Hubs().Switch(s))
	if n.Config.Network.AdaptiveRouting == "load_aware" {
		n.Switches[s].Hub.Adapt = n.adapt
	}
}

// buildCable makes the cable of NIC id (global) to its switch.
func (n *Node) buildCable(id int) {
	if n.NetLinks[id] != nil {
		return
	}
	c, h, w := n.Config, n.Routes.Hubs(), n.Routes.Network()
	k, i := id/c.NIC.Count, id%c.NIC.Count
	n.need(k)
	s := w.SwitchOf(k, i)
	n.buildSwitch(s)
	l := n.parts().cable.Build(fmt.Sprintf("Network.Cable[%d][%d]", k, i))
	n.NetLinks[id] = l
	n.trace(l)
	x := n.NICs[id]
	x.Network(h.Switch(s))
	wireLink(x.Hub, h.Switch(s), l.Port(0))
	wireLink(n.Switches[s].Hub, h.NIC(k, i), l.Port(1))
}

// buildLink makes the link between switches a and b, and both switches.
func (n *Node) buildLink(a, b int) {
	if _, ok := n.switchLinks[[2]int{a, b}]; ok {
		return
	}
	w, h := n.Routes.Network(), n.Routes.Hubs()
	if n.linkAt == nil {
		n.linkAt = map[[2]int]int{}
		for i, p := range w.Links() {
			n.linkAt[p] = i
		}
	}
	p := [2]int{min(a, b), max(a, b)}
	at, ok := n.linkAt[p]
	if !ok {
		panic(fmt.Sprintf("node: no link joins switches %d and %d", a, b))
	}
	n.buildSwitch(p[0])
	n.buildSwitch(p[1])
	bl := n.parts().cable
	if w.IsGlobal(p[0], p[1]) {
		bl = n.parts().global
	}
	l := bl.Build(fmt.Sprintf("Network.Link[%d][%d]", p[0], p[1]))
	n.NetLinks[len(n.NICs)+at] = l
	n.trace(l)
	n.switchLinks[p] = linkDir{l, 0}
	n.switchLinks[[2]int{p[1], p[0]}] = linkDir{l, 1}
	wireLink(n.Switches[p[0]].Hub, h.Switch(p[1]), l.Port(0))
	wireLink(n.Switches[p[1]].Hub, h.Switch(p[0]), l.Port(1))
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

// buildBytes is about the memory nodes nodes of c take: per node its
// components and, per GCD, its TLB's and L2's hash tables (up to 4 slots
// of 16 bytes per entry or block, blockmap.go).
func buildBytes(c *config.Node, nodes int) int64 {
	perGCD := limit.Product(64, int64(c.GCD.TLBEntries)+int64(max(1, c.GCD.XCDs))*c.GCD.L2Bytes/max(1, c.Sim.L2BlockBytes)+
		2*c.MALL.Bytes/max(1, c.Sim.L2BlockBytes)) // a MALL frame and its line sets: about two L2 blocks' worth
	perNode := limit.Product(perGCD, int64(c.GCD.Count)) + nodeBytes
	if perNode < 0 {
		return -1
	}
	return limit.Product(perNode, int64(nodes))
}
