package hub

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// Builder builds hubs.
type Builder struct {
	engine             sim.Engine
	id                 int
	forwardNs, reorder float64
	memoryDelay        func(p *fabric.Packet) sim.VTimeInSec
}

// MakeBuilder returns a builder for hub 0 without latencies.
func MakeBuilder() Builder { return Builder{} }

// WithEngine sets the simulation engine.
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithID sets the hub's id in routes.
func (b Builder) WithID(id int) Builder { b.id = id; return b }

// WithLatencies sets the latency of passing a packet from one link to
// another and of reordering one that crossed a multi-link bundle (ns).
func (b Builder) WithLatencies(forwardNs, reorderNs float64) Builder {
	b.forwardNs, b.reorder = forwardNs, reorderNs
	return b
}

// WithMemoryDelay sets the extra latency of delivering a request to a
// memory, given the packet (the host's NUMA distance).
func (b Builder) WithMemoryDelay(f func(p *fabric.Packet) sim.VTimeInSec) Builder {
	b.memoryDelay = f
	return b
}

// Build makes the hub.
func (b Builder) Build(name string) *Hub {
	return &Hub{ComponentBase: sim.NewComponentBase(name), engine: fabric.NewCalendar(b.engine), ID: b.id,
		ForwardDelay: fabric.Ns(b.forwardNs), ReorderDelay: fabric.Ns(b.reorder), MemoryDelay: b.memoryDelay}
}
