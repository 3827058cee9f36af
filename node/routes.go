package node

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/config"
)

// Routes is the node's route table: for every ordered pair of hubs, the
// routes SDMA data takes, the routes kernels (and the host's cores) take,
// and the control route of small writes such as completion signals. By
// default each traffic type has one route per pair, as Infinity Fabric
// routes by static per-destination tables; the tie policies
// (routing.sdma_ties, routing.kernel_ties) keep several tied routes only
// as what-if studies, over which the components then spread.
type Routes struct {
	host   int
	data   map[[2]int][]fabric.Route
	kernel map[[2]int][]fabric.Route
	signal map[[2]int]fabric.Route
}

// NewRoutes computes the route tables of a topology whose last hub is the host.
func NewRoutes(t *fabric.Topology, gcds int, c config.Routing) (*Routes, error) {
	r := &Routes{host: gcds, data: map[[2]int][]fabric.Route{},
		kernel: map[[2]int][]fabric.Route{}, signal: map[[2]int]fabric.Route{}}
	for a := 0; a <= gcds; a++ {
		for b := 0; b <= gcds; b++ {
			k := [2]int{a, b}
			var err error
			if r.data[k], err = tied(t, a, b, c.SDMA, c.SDMATies, c.MaxHops, gcds); err != nil {
				return nil, err
			}
			if r.kernel[k], err = tied(t, a, b, c.Kernel, c.KernelTies, c.MaxHops, gcds); err != nil {
				return nil, err
			}
			sig, err := tied(t, a, b, c.Control, config.TiesTable, c.MaxHops, gcds)
			if err != nil {
				return nil, err
			}
			r.signal[k] = sig[0]
		}
	}
	return r, nil
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

// DataRoutes are the routes of SDMA data from hub a to hub b.
func (r *Routes) DataRoutes(a, b int) []fabric.Route { return r.data[[2]int{a, b}] }

// KernelRoutes are the routes of kernel memory traffic from hub a to hub b.
func (r *Routes) KernelRoutes(a, b int) []fabric.Route { return r.kernel[[2]int{a, b}] }

// SignalRoute is the route of small control writes from hub a to hub b.
func (r *Routes) SignalRoute(a, b int) fabric.Route { return r.signal[[2]int{a, b}] }

// HubOf is the hub in front of a memory.
func (r *Routes) HubOf(m fabric.Memory) int {
	if m.Host {
		return r.host
	}
	return m.Index
}
