// Package nic models a node's network interface (an HPE Slingshot-11 NIC,
// "Cassini"): a small router between its PCIe link to a GCD and its cable
// to a switch, and DMA engines that carry out RDMA commands. A put reads
// local memory and writes remote memory; a get reads remote memory and
// writes local memory; both are copies an engine runs across the fabric
// and the network, so the NIC needs no protocol of its own here: the
// library's protocol (eager, rendezvous) is made of such copies.
package nic

import (
	"fmt"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/hub"
	"github.com/akisim/akisim/components/sdma"
	"github.com/sarchlab/akita/v3/sim"
)

// NIC is one network interface.
type NIC struct {
	Hub     *hub.Hub       // forwards packets between the PCIe link and the network
	Engines []*sdma.Engine // DMA engines, one command each at a time
	writer  *writer        // its own writes of data that came in from the network
	network map[int]bool   // hubs on its network side (its switch)
	bridged uint64         // writes from the network passed on (Bridged)
}

// Builder builds NICs.
type Builder struct {
	engine    sim.Engine
	routes    sdma.RouteTable
	forwardNs float64
	engines   int
	dma       sdma.Builder
}

// MakeBuilder returns a builder with no values: node gives each from the
// config (nic.*), and Build refuses one without them.
func MakeBuilder() Builder { return Builder{dma: sdma.MakeBuilder()} }

// WithEngine sets the simulation engine.
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithRouteTable sets how the NIC's traffic crosses the fabric and network.
func (b Builder) WithRouteTable(r sdma.RouteTable) Builder { b.routes = r; return b }

// WithForward sets the latency of a packet passing through the NIC (ns).
func (b Builder) WithForward(ns float64) Builder { b.forwardNs = ns; return b }

// WithDMA sets the number of DMA engines (commands the NIC works on at
// once), the bytes each keeps in flight and the transaction size, its
// datapath rate (GB/s), the command cost (doorbell to first request) and
// the completion cost (to the host seeing the event), in ns.
func (b Builder) WithDMA(engines, outstandingBytes, txnBytes int, gbps, commandNs, eventNs float64) Builder {
	b.engines = engines
	// a byte per cycle at gbps GHz: any rate, not one truncated to whole GB/s
	b.dma = b.dma.WithTransactions(txnBytes, outstandingBytes).WithDatapath(gbps, 1).
		WithQueues(1).WithTimings(commandNs, 0, eventNs)
	return b
}

// WithPacketAdaptive has the DMA engines spread each transfer's
// transactions over the network's paths in turn (Slingshot adapts per
// packet) instead of one path per transfer.
func (b Builder) WithPacketAdaptive(on bool) Builder {
	b.dma = b.dma.WithTransactionRoutes(on)
	return b
}

// Build makes NIC name, with route id hubID.
func (b Builder) Build(name string, hubID int) *NIC {
	fabric.Require("nic.Builder", fabric.Need{What: "WithDMA (nic.engines)", Given: b.engines > 0})
	n := &NIC{Hub: hub.MakeBuilder().WithEngine(b.engine).WithID(hubID).WithLatencies(b.forwardNs, 0).Build(name + ".Hub"),
		network: map[int]bool{}}
	n.writer = newWriter(name+".Writer", b.engine, n.Hub)
	n.Hub.Bridge = n.bridge
	eb := b.dma.WithEngine(b.engine).WithHub(hubID).WithRouteTable(b.routes)
	for i := 0; i < b.engines; i++ {
		e := eb.Build(fmt.Sprintf("%s.DMA[%d]", name, i))
		fabric.Wire(n.Hub.LocalPort(fmt.Sprintf("DMA[%d]", i), e.MemPort), e.MemPort)
		n.Engines = append(n.Engines, e)
	}
	return n
}

// Network tells the NIC which neighbour hub is on its network side.
func (n *NIC) Network(hubID int) { n.network[hubID] = true }
