// Package cpu models the host side of the node: the EPYC IO die that joins
// each GCD's host link to the DDR4 controllers of the NUMA domains. The HIP
// runtime (package hip) runs on this host and drives the GCDs' engines.
package cpu

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/hub"
	"github.com/sarchlab/akita/v3/sim"
)

// Builder builds the host IO die hub.
type Builder struct {
	engine       sim.Engine
	hubID        int
	gcdNUMA      []int
	gcdBase      int
	numaBase     int
	hubLatencyNs float64
	remoteNs     float64
}

// MakeBuilder returns a builder.
func MakeBuilder() Builder { return Builder{} }

// WithEngine sets the simulation engine.
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithHubID sets the route id of the host hub.
func (b Builder) WithHubID(id int) Builder { b.hubID = id; return b }

// WithGCDNUMA sets the NUMA domain each GCD's host link lands on.
func (b Builder) WithGCDNUMA(m []int) Builder { b.gcdNUMA = m; return b }

// WithNodeBase sets the global ids of the node's first GCD and first NUMA
// domain (in a cluster, hubs and memories are numbered across nodes).
func (b Builder) WithNodeBase(gcd, numa int) Builder { b.gcdBase, b.numaBase = gcd, numa; return b }

// WithLatencies sets the IO-die latency to memory and the extra latency to
// another NUMA domain's memory (ns).
func (b Builder) WithLatencies(hubNs, remoteNs float64) Builder {
	b.hubLatencyNs, b.remoteNs = hubNs, remoteNs
	return b
}

// Build makes the host hub.
func (b Builder) Build(name string) *hub.Hub {
	ioDie, remote, numa := fabric.Ns(b.hubLatencyNs), fabric.Ns(b.remoteNs), b.gcdNUMA
	gcdBase, numaBase := b.gcdBase, b.numaBase
	delay := func(p *fabric.Packet) sim.VTimeInSec {
		if p.Hop == 0 {
			// From the cores on the IO die (host stores to pinned host
			// memory): the IO-die latency only. The threads' own NUMA
			// domain does not travel with the request, so no remote cost.
			return ioDie
		}
		from := p.PrevHub() // the GCD whose host link carried it
		if numa[from-gcdBase]+numaBase != p.Target.Index {
			return ioDie + remote
		}
		return ioDie
	}
	return hub.MakeBuilder().WithEngine(b.engine).WithID(b.hubID).WithMemoryDelay(delay).Build(name)
}
