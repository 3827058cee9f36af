package node

import (
	"fmt"
	"sync"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/config"
)

// Routes is the cluster's route table: for every ordered pair of hubs, the
// routes SDMA data takes, the routes kernels (and the host's cores) take,
// and the control route of small writes such as completion signals. By
// default each traffic type has one route per pair, as Infinity Fabric
// routes by static per-destination tables; the tie policies
// (routing.sdma_ties, routing.kernel_ties) keep several tied routes only
// as what-if studies, over which the components then spread.
//
// All nodes are alike, so one node's tables, in local hub ids (Hubs), serve
// every node; a pair's global routes are made from them at its first use.
// Between nodes only NICs send: a NIC's request crosses the switches to the
// NIC on the far node that serves its target (the target GCD's NIC, by
// NUMA policy) and goes on inside that node.
type Routes struct {
	hubs Hubs
	numa int // NUMA domains per node
	net  *Network
	cfg  *config.Node

	local                  [3]map[[2]int][]fabric.Route // data, kernel, signal: local ids
	data, kernel, signalRs map[[2]int][]fabric.Route    // global ids, made on first use
	onNew                  func(fabric.Route)           // sees each route made, before its first use (Node builds what it crosses)
}

const (
	classData = iota
	classKernel
	classSignal
)

// NewRoutes computes the route tables of a node config's topology (its
// GCDs, host and NICs; local hub ids as in Hubs).
func NewRoutes(c *config.Node) (*Routes, error) {
	h := hubsOf(c)
	t := localTopology(c)
	r := &Routes{hubs: h, numa: c.Host.NUMADomains, net: newNetwork(c, h), cfg: c,
		data: map[[2]int][]fabric.Route{}, kernel: map[[2]int][]fabric.Route{}, signalRs: map[[2]int][]fabric.Route{}}
	for i := range r.local {
		r.local[i] = map[[2]int][]fabric.Route{}
	}
	key := localKey(c)
	if l, ok := localTables.Load(key); ok {
		r.local = l.([3]map[[2]int][]fabric.Route)
		return r, nil
	}
	gcds, n := c.GCD.Count, h.LocalCount()
	host := gcds
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			// a NIC hangs on one GCD: routes to or from it take a hop more
			hops := c.Routing.MaxHops
			if a > host {
				hops++
			}
			if b > host {
				hops++
			}
			k := [2]int{a, b}
			var err error
			if r.local[classData][k], err = tied(t, a, b, c.Routing.SDMA, c.Routing.SDMATies, hops, host); err != nil {
				return nil, err
			}
			if r.local[classKernel][k], err = tied(t, a, b, c.Routing.Kernel, c.Routing.KernelTies, hops, host); err != nil {
				return nil, err
			}
			if r.local[classSignal][k], err = tied(t, a, b, c.Routing.Control, config.TiesTable, hops, host); err != nil {
				return nil, err
			}
		}
	}
	localTables.Store(key, r.local)
	return r, nil
}

// localTables are the route tables of one node, by what they are made of
// (localKey): a run builds its node afresh, and a node of many devices
// (a partition mode's 64) takes seconds to route. They are read only.
var localTables sync.Map

// localKey is what a node's route tables depend on: its topology
// (localTopology), the routing policies and the hop limit.
func localKey(c *config.Node) string {
	return fmt.Sprint(c.GCD.Count, c.XGMI.LaneBandwidthGBps, c.XGMI.Bundles, c.HostLink.BandwidthGBps,
		c.NIC.GCDs, c.NIC.PCIe.BandwidthGBps, c.Routing)
}

// localTopology is one node's hubs and links, in local ids.
func localTopology(c *config.Node) *fabric.Topology {
	gcds := c.GCD.Count
	topo := fabric.NewTopology(gcds + 1 + c.NIC.Count)
	for _, b := range c.XGMI.Bundles {
		if b.Lanes > 0 {
			topo.Connect(b.GCDs[0], b.GCDs[1], c.XGMI.LaneBandwidthGBps*float64(b.Lanes))
		}
	}
	for g := 0; g < gcds; g++ {
		topo.Connect(g, gcds, c.HostLink.BandwidthGBps)
	}
	for k, g := range c.NIC.GCDs {
		topo.Connect(gcds+1+k, g, c.NIC.PCIe.BandwidthGBps)
	}
	return topo
}

// tied lists the best routes from a to b under a policy; under the table
// tie policy only the first (the one through the lowest-numbered hubs).
func tied(t *fabric.Topology, a, b int, policy, ties string, maxHops, host int) ([]fabric.Route, error) {
	rs, err := t.Routes(a, b, fabric.Policy(policy), maxHops, host)
	if err != nil || ties != config.TiesTable {
		return rs, err
	}
	return rs[:1], nil
}

// routes returns the global routes of a traffic class from hub a to hub b.
func (r *Routes) routes(class int, global map[[2]int][]fabric.Route, a, b int) []fabric.Route {
	k := [2]int{a, b}
	if rs, ok := global[k]; ok {
		return rs
	}
	na, la, oka := r.hubs.Local(a)
	nb, lb, okb := r.hubs.Local(b)
	if !oka || !okb {
		panic(fmt.Sprintf("node: no route from hub %d to hub %d: switches are not endpoints", a, b))
	}
	var rs []fabric.Route
	if na == nb {
		for _, l := range r.local[class][[2]int{la, lb}] {
			rs = append(rs, r.globalRoute(na, l))
		}
	} else {
		rs = r.acrossNodes(class, a, nb, lb)
	}
	global[k] = rs
	if r.onNew != nil {
		for _, rt := range rs {
			r.onNew(rt)
		}
	}
	return rs
}

// globalRoute turns a route of local ids into node's global hubs.
func (r *Routes) globalRoute(node int, l fabric.Route) fabric.Route {
	g := make(fabric.Route, len(l))
	for i, h := range l {
		g[i] = r.hubs.Global(node, h)
	}
	return g
}

// acrossNodes is the route from NIC hub a to local hub lb of node nb: the
// switches between the two NICs, then within node nb.
func (r *Routes) acrossNodes(class, a, nb, lb int) []fabric.Route {
	na, la, _ := r.hubs.Local(a)
	gcds := r.hubs.GCDsPerNode
	if la <= gcds {
		panic(fmt.Sprintf("node: hub %d (node %d) reaches node %d only through a NIC", a, na, nb))
	}
	// the NIC serving the target: its GCD's, by NUMA policy; remote host
	// memory comes in through the first NIC (the host hub stands for all
	// its NUMA domains)
	far := 0
	switch {
	case lb < gcds:
		far = r.cfg.NICOf(lb)
	case lb > gcds:
		far = lb - gcds - 1
	}
	in := r.globalRoute(nb, r.local[class][[2]int{gcds + 1 + far, lb}][0])
	paths := r.net.Paths(r.net.SwitchOf(na, la-gcds-1), r.net.SwitchOf(nb, far))
	if class == classSignal {
		paths = paths[:1]
	}
	var rs []fabric.Route
	for _, p := range paths {
		route := fabric.Route{a}
		for _, s := range p {
			route = append(route, r.hubs.Switch(s))
		}
		rs = append(rs, append(route, in...))
	}
	return rs
}

// DataRoutes are the routes of SDMA (and NIC) data from hub a to hub b.
func (r *Routes) DataRoutes(a, b int) []fabric.Route { return r.routes(classData, r.data, a, b) }

// KernelRoutes are the routes of kernel memory traffic from hub a to hub b.
func (r *Routes) KernelRoutes(a, b int) []fabric.Route { return r.routes(classKernel, r.kernel, a, b) }

// SignalRoute is the route of small control writes from hub a to hub b.
func (r *Routes) SignalRoute(a, b int) fabric.Route {
	return r.routes(classSignal, r.signalRs, a, b)[0]
}

// HubOf is the hub in front of a memory: a GCD's HBM (global GCD id) or a
// NUMA domain's DRAM (global NUMA id, node*numa_domains + domain). On an
// APU node (host.memory = "hbm") a NUMA domain is its GCD's HBM, and the
// global ids agree (one domain per GCD, domain g on GCD g).
func (r *Routes) HubOf(m fabric.Memory) int {
	if m.Host && !r.cfg.Host.Unified() {
		return r.hubs.Host(m.Index / r.numa)
	}
	return m.Index
}

// Hubs is how the cluster numbers its hubs.
func (r *Routes) Hubs() Hubs { return r.hubs }

// Network is the switches and how NICs hang on them.
func (r *Routes) Network() *Network { return r.net }
