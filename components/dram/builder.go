// Package dram models the DDR4 controller of one host NUMA domain: its
// channels' bandwidth, shared by every GCD and core whose traffic lands on
// the domain, and its access latency.
package dram

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// Builder builds NUMA-domain memory controllers.
type Builder struct {
	engine      sim.Engine
	channels    int
	channelGBps float64
	efficiency  float64
	latencyNs   float64
}

// MakeBuilder returns a builder for 2 channels of DDR4-3200.
func MakeBuilder() Builder {
	return Builder{channels: 2, channelGBps: 25.6, efficiency: 1, latencyNs: 96}
}

// WithEngine sets the simulation engine.
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithChannels sets the channel count and per-channel peak in GB/s.
func (b Builder) WithChannels(n int, gbps float64) Builder {
	b.channels, b.channelGBps = n, gbps
	return b
}

// WithEfficiency sets the sustained fraction of peak bandwidth.
func (b Builder) WithEfficiency(f float64) Builder { b.efficiency = f; return b }

// WithLatency sets the access latency in ns.
func (b Builder) WithLatency(ns float64) Builder { b.latencyNs = ns; return b }

// Build makes the controller.
func (b Builder) Build(name string) *fabric.MemoryController {
	gbps := float64(b.channels) * b.channelGBps * b.efficiency
	return fabric.NewMemoryController(name, b.engine, gbps, b.latencyNs)
}
