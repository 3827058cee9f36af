// Package rosetta models a Slingshot switch (HPE "Rosetta"): packets pass
// from port to port after a fixed latency, cut through; the cables on its
// ports (links) serialise them.
package rosetta

import (
	"github.com/akisim/akisim/components/hub"
	"github.com/sarchlab/akita/v3/sim"
)

// Switch is one switch, a router on the packets' routes.
type Switch struct{ *hub.Hub }

// Builder builds switches.
type Builder struct {
	engine    sim.Engine
	latencyNs float64
}

// MakeBuilder returns a builder of switches.
func MakeBuilder() Builder { return Builder{} }

// WithEngine sets the simulation engine.
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithLatency sets the port-to-port latency (ns).
func (b Builder) WithLatency(ns float64) Builder { b.latencyNs = ns; return b }

// Build makes switch name with route id hubID.
func (b Builder) Build(name string, hubID int) *Switch {
	return &Switch{hub.MakeBuilder().WithEngine(b.engine).WithID(hubID).WithLatencies(b.latencyNs, 0).Build(name)}
}
