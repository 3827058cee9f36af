// Package gcd models one graphics compute die: its data-fabric hub joining
// HBM, SDMA engines, host link and xGMI bundles, and its HBM controller.
// Compute units attach to the hub through their own port (next model).
package gcd

import (
	"fmt"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/sdma"
	"github.com/sarchlab/akita/v3/sim"
)

// GCD is one die's hardware.
type GCD struct {
	ID          int
	Hub         *fabric.Hub
	HBM         *fabric.MemoryController
	HostEngines []*sdma.Engine // SDMA engines for host<->GCD copies
	XGMIEngines []*sdma.Engine // SDMA engines for GCD<->GCD copies
}

// Builder builds GCDs.
type Builder struct {
	engine       sim.Engine
	hbmGBps      float64
	hbmLatencyNs float64
	forwardNs    float64
	reorderNs    float64
	hostEngines  int
	xgmiEngines  int
	sdma         sdma.Builder
}

// MakeBuilder returns a builder for an MI250X GCD with 2 host and 3 xGMI engines.
func MakeBuilder() Builder {
	return Builder{hbmGBps: 1600, hostEngines: 2, xgmiEngines: 3, sdma: sdma.MakeBuilder()}
}

// WithEngine sets the simulation engine.
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithHBM sets HBM bandwidth (GB/s) and latency (ns).
func (b Builder) WithHBM(gbps, latencyNs float64) Builder {
	b.hbmGBps, b.hbmLatencyNs = gbps, latencyNs
	return b
}

// WithHubLatencies sets the forwarding and reorder latencies of the hub (ns).
func (b Builder) WithHubLatencies(forwardNs, reorderNs float64) Builder {
	b.forwardNs, b.reorderNs = forwardNs, reorderNs
	return b
}

// WithSDMA sets how many host and xGMI engines the GCD has and how to build them.
func (b Builder) WithSDMA(host, xgmi int, eb sdma.Builder) Builder {
	b.hostEngines, b.xgmiEngines, b.sdma = host, xgmi, eb
	return b
}

// Build makes GCD id, named name.
func (b Builder) Build(name string, id int) *GCD {
	g := &GCD{ID: id}
	g.Hub = fabric.NewHub(name+".Hub", b.engine, id)
	g.Hub.ForwardDelay = fabric.Ns(b.forwardNs)
	g.Hub.ReorderDelay = fabric.Ns(b.reorderNs)
	g.HBM = fabric.NewMemoryController(name+".HBM", b.engine, b.hbmGBps, b.hbmLatencyNs)
	fabric.Wire(g.Hub.MemoryPort(id), g.HBM.Port)
	eb := b.sdma.WithEngine(b.engine).WithHub(id)
	for i := 0; i < b.hostEngines; i++ {
		g.HostEngines = append(g.HostEngines, b.engine1(eb, g, fmt.Sprintf("%s.SDMAHost[%d]", name, i)))
	}
	for i := 0; i < b.xgmiEngines; i++ {
		g.XGMIEngines = append(g.XGMIEngines, b.engine1(eb, g, fmt.Sprintf("%s.SDMAXGMI[%d]", name, i)))
	}
	return g
}

func (b Builder) engine1(eb sdma.Builder, g *GCD, name string) *sdma.Engine {
	e := eb.Build(name)
	local := g.Hub.LocalPort(fmt.Sprintf("Engine[%d]", len(g.HostEngines)+len(g.XGMIEngines)), e.MemPort)
	fabric.Wire(local, e.MemPort)
	return e
}

// Engines lists the host engines, then the xGMI engines.
func (g *GCD) Engines() []*sdma.Engine {
	return append(append([]*sdma.Engine{}, g.HostEngines...), g.XGMIEngines...)
}
