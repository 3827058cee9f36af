package node

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/config"
)

// Routes is the node's route table: for every pair of hubs, the routes SDMA
// data takes (all tied best routes under the SDMA policy, over which the
// fabric spreads it), the routes kernels take, and the control route of
// small writes such as completion signals.
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
			if r.data[k], err = t.Routes(a, b, fabric.Policy(c.SDMA), c.MaxHops, gcds); err != nil {
				return nil, err
			}
			if r.kernel[k], err = t.Routes(a, b, fabric.Policy(c.Kernel), c.MaxHops, gcds); err != nil {
				return nil, err
			}
			sig, err := t.Routes(a, b, fabric.Policy(c.Control), c.MaxHops, gcds)
			if err != nil {
				return nil, err
			}
			r.signal[k] = sig[0]
		}
	}
	return r, nil
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
