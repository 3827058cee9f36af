package cpu

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/gcd"
	"github.com/sarchlab/akita/v3/sim"
)

// CoresBuilder builds the host's cores as memory requesters: host threads
// loading or storing memory in place (mapped GPU memory, pinned host
// memory) work like compute units without a cache, each core a worker with
// a bounded number of transactions in flight. A host access is dispatched
// to them as a gcd.KernelCmd whose workgroups are the threads.
type CoresBuilder struct {
	engine   sim.Engine
	hub      int
	cores    int
	txnBytes int
	maxOut   int
	routes   gcd.KernelRoutes
}

// MakeCoresBuilder returns a builder for 64 cores.
func MakeCoresBuilder() CoresBuilder {
	return CoresBuilder{cores: 64, txnBytes: 65536, maxOut: 4}
}

// WithEngine sets the simulation engine.
func (b CoresBuilder) WithEngine(e sim.Engine) CoresBuilder { b.engine = e; return b }

// WithHubID sets the route id of the host hub the cores sit behind.
func (b CoresBuilder) WithHubID(id int) CoresBuilder { b.hub = id; return b }

// WithCores sets the core count and each core's transactions in flight.
func (b CoresBuilder) WithCores(n, txnBytes, maxOutstanding int) CoresBuilder {
	b.cores, b.txnBytes, b.maxOut = n, txnBytes, maxOutstanding
	return b
}

// WithRoutes sets how the cores' traffic crosses the fabric.
func (b CoresBuilder) WithRoutes(r gcd.KernelRoutes) CoresBuilder { b.routes = r; return b }

// Build makes the cores and wires them to the host hub.
func (b CoresBuilder) Build(name string, hub *fabric.Hub) *gcd.ComputeUnits {
	c := gcd.MakeBuilder().WithEngine(b.engine).WithKernelRoutes(b.routes).
		WithComputeUnits(b.cores, 1, b.txnBytes, b.maxOut).WithKernelTimings(0, 0).
		BuildComputeUnits(name, b.hub)
	fabric.Wire(hub.LocalPort("Cores", c.MemPort), c.MemPort)
	return c
}
