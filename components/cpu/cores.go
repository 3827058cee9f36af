package cpu

import (
	"math"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/gcd"
	"github.com/akisim/akisim/components/hub"
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
	txnBytes int64
	maxBytes int64
	routes   gcd.KernelRoutes
}

// MakeCoresBuilder returns a builder for 64 cores.
func MakeCoresBuilder() CoresBuilder {
	return CoresBuilder{cores: 64, txnBytes: 65536, maxBytes: 4 << 16}
}

// WithEngine sets the simulation engine.
func (b CoresBuilder) WithEngine(e sim.Engine) CoresBuilder { b.engine = e; return b }

// WithHubID sets the route id of the host hub the cores sit behind.
func (b CoresBuilder) WithHubID(id int) CoresBuilder { b.hub = id; return b }

// WithCores sets the core count, the bytes of a stream a core moves per
// step (simulation granularity) and the bytes of each stream it keeps in
// flight.
func (b CoresBuilder) WithCores(n int, txnBytes, outstandingBytes int64) CoresBuilder {
	b.cores, b.txnBytes, b.maxBytes = n, txnBytes, outstandingBytes
	return b
}

// WithRoutes sets how the cores' traffic crosses the fabric.
func (b CoresBuilder) WithRoutes(r gcd.KernelRoutes) CoresBuilder { b.routes = r; return b }

// Build makes the cores and wires them to the host hub.
func (b CoresBuilder) Build(name string, host *hub.Hub) *gcd.ComputeUnits {
	c := gcd.MakeBuilder().WithEngine(b.engine).WithKernelRoutes(b.routes).
		WithComputeUnits(b.cores, 1, b.txnBytes, b.maxBytes).WithKernelTimings(0, 0).
		WithCUIssue(math.Inf(1)). // a core's stores are limited by what it keeps in flight
		BuildComputeUnits(name, b.hub)
	fabric.Wire(host.LocalPort("Cores", c.MemPort), c.MemPort)
	return c
}
