// Package node turns a resolved config.Node into Akita components wired
// together: GCDs, xGMI bundles, host links, the host IO die, the NUMA
// domains' DDR4 controllers, the route tables and the HIP runtime.
package node

import (
	"fmt"

	"github.com/akisim/akisim/components/cpu"
	"github.com/akisim/akisim/components/dram"
	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/gcd"
	"github.com/akisim/akisim/components/hub"
	"github.com/akisim/akisim/components/sdma"
	"github.com/akisim/akisim/components/xgmi"
	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/hip"
	"github.com/sarchlab/akita/v3/sim"
)

// Node is a built node, ready to run operations.
type Node struct {
	Config    *config.Node
	Engine    *sim.SerialEngine
	GCDs      []*gcd.GCD
	Host      *hub.Hub
	Cores     *cpu.Cores // the host's cores as memory requesters
	DRAM      []*dram.Controller
	Bundles   []*xgmi.Bundle // in config order, without removed ones
	BundleOf  map[[2]int]*xgmi.Bundle
	HostLinks []*xgmi.Bundle // by GCD; side 0 = GCD
	Routes    *Routes
	Runtime   *hip.Runtime
}

// Build makes the node of a validated config.
func Build(c *config.Node) (*Node, error) {
	n := &Node{Config: c, Engine: sim.NewSerialEngine(), BundleOf: map[[2]int]*xgmi.Bundle{}}
	e := n.Engine
	count := c.GCD.Count
	host := count // route id of the host hub

	topo := fabric.NewTopology(count + 1)
	for _, b := range c.XGMI.Bundles {
		if b.Lanes > 0 {
			topo.Connect(b.GCDs[0], b.GCDs[1], c.XGMI.LaneBandwidthGBps*float64(b.Lanes))
		}
	}
	for g := 0; g < count; g++ {
		topo.Connect(g, host, c.HostLink.BandwidthGBps)
	}
	routes, err := NewRoutes(topo, count, c.Routing)
	if err != nil {
		return nil, err
	}
	n.Routes = routes

	eb := sdma.MakeBuilder().
		WithRouteTable(routes).
		WithDatapath(c.SDMA.ClockGHz, c.SDMA.BytesPerCycle).
		WithTransactions(c.Sim.SDMATransactionBytes, c.SDMA.OutstandingBytes).
		WithQueues(c.SDMA.QueuesPerEngine).
		WithTimings(c.SDMA.PacketProcessNs, c.SDMA.FenceNs, c.SDMA.SignalNs)
	gb := gcd.MakeBuilder().WithEngine(e).
		WithHBM(c.GCD.HBMBandwidthGBps*c.GCD.HBMEfficiency, c.GCD.HBMLatencyNs).
		WithHubLatencies(c.GCD.HubForwardNs, c.GCD.ReorderNs).
		WithSDMA(c.SDMA.HostEngines, c.SDMA.XGMIEngines, eb).
		WithComputeUnits(c.GCD.ComputeUnits, c.GCD.WorkgroupSlots, c.Sim.CUTransactionBytes, c.GCD.CUOutstandingBytes).
		WithCUIssue(float64(c.GCD.CUBytesPerClock)*c.GCD.ClockGHz).
		WithRouteSpray(c.Routing.KernelTies == config.TiesSpray).
		WithKernelTimings(c.GCD.KernelLaunchNs, c.GCD.KernelEndNs).
		WithIdleCosts(c.GCD.CPWakeNs, c.GCD.PacketFetchNs).
		WithTLB(c.GCD.TLBEntries, c.GCD.PageWalkers, c.GCD.PageWalkNs).
		WithConcurrentKernels(c.GCD.ConcurrentKernels).
		WithL2(c.GCD.L2Bytes, c.Sim.L2BlockBytes, float64(c.GCD.L2Slices*c.GCD.L2BytesPerClock)*c.GCD.ClockGHz, c.GCD.L2LatencyNs).
		WithLine(c.GCD.LineBytes).
		WithKernelRoutes(routes)
	devices := make([]hip.Device, count)
	for g := 0; g < count; g++ {
		d := gb.Build(fmt.Sprintf("Node.GCD[%d]", g), g)
		n.GCDs = append(n.GCDs, d)
		devices[g] = hip.Device{HostEngines: d.HostEngines, XGMIEngines: d.XGMIEngines, CUs: d.CUs, NUMA: c.Host.GCDNUMA[g]}
	}

	n.Host = cpu.MakeBuilder().WithEngine(e).WithHubID(host).WithGCDNUMA(c.Host.GCDNUMA).
		WithLatencies(c.Host.HubLatencyNs, c.Host.RemoteNUMANs).Build("Node.Host.IODie")
	db := dram.MakeBuilder().WithEngine(e).
		WithChannels(c.DRAM.ChannelsPerDomain, c.DRAM.ChannelBandwidthGBps).
		WithEfficiency(c.DRAM.Efficiency).WithLatency(c.DRAM.LatencyNs)
	for d := 0; d < c.Host.NUMADomains; d++ {
		m := db.Build(fmt.Sprintf("Node.Host.NUMA[%d].DRAM", d))
		n.DRAM = append(n.DRAM, m)
		fabric.Wire(n.Host.MemoryPort(d), m.Port)
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
		a, z := b.GCDs[0], b.GCDs[1]
		x := xb.WithLanes(b.Lanes).Build(fmt.Sprintf("Node.XGMI[%d][%d]", a, z))
		n.Bundles = append(n.Bundles, x)
		n.BundleOf[[2]int{a, z}] = x
		n.BundleOf[[2]int{z, a}] = x
		wireLink(e, n.GCDs[a].Hub, z, x.Port(0))
		wireLink(e, n.GCDs[z].Hub, a, x.Port(1))
	}
	hb := xgmi.MakeBuilder().WithEngine(e).WithLanes(1).
		WithLaneBandwidth(c.HostLink.BandwidthGBps).
		WithFlightLatency(c.HostLink.FlightLatencyNs).
		WithPacket(c.HostLink.PacketPayloadBytes, c.HostLink.PacketOverheadBytes, c.HostLink.RequestBytes).
		WithCredits(c.HostLink.CreditBytes, c.Sim.EarlyBooking)
	for g := 0; g < count; g++ {
		l := hb.Build(fmt.Sprintf("Node.HostLink[%d]", g))
		n.HostLinks = append(n.HostLinks, l)
		wireLink(e, n.GCDs[g].Hub, host, l.Port(0))
		wireLink(e, n.Host, g, l.Port(1))
	}
	n.Cores = cpu.MakeCoresBuilder().WithEngine(e).WithHubID(host).WithRoutes(routes).
		WithCores(c.Host.Cores, c.Sim.CoreTransactionBytes, c.Host.CoreOutstandingBytes).
		WithLoadLines(c.Host.CoreLoadLines).Build("Node.Host.Cores", n.Host)
	n.Runtime = hip.NewRuntime("Node.Host.HIP", e, c.Runtime, c.Env, devices, n.Cores)
	return n, nil
}

func wireLink(e sim.Engine, h *hub.Hub, neighbour int, linkPort sim.Port) {
	p := h.LinkPort(neighbour)
	fabric.Wire(p, linkPort)
}
