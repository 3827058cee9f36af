// Package dram models a memory controller: the DDR4 channels of one host
// NUMA domain, shared by every GCD and core whose traffic lands on the
// domain, or a GCD's HBM; its bandwidth and its access latency.
package dram

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// Builder builds memory controllers.
type Builder struct {
	engine      sim.Engine
	channels    int
	channelGBps float64
	efficiency  float64
	latencyNs   float64
	shared      *fabric.Server // nil: the controller's own
}

// MakeBuilder returns a builder with no values: node gives each from the
// config (dram.*, or a GCD's HBM), and Build refuses one without them.
func MakeBuilder() Builder { return Builder{} }

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

// WithBandwidth sets the sustained bandwidth in GB/s as one channel at
// full efficiency: how a GCD's HBM is given.
func (b Builder) WithBandwidth(gbps float64) Builder {
	b.channels, b.channelGBps, b.efficiency = 1, gbps, 1
	return b
}

// WithSharedBandwidth has the controller book its transfers on s, a
// bandwidth it shares with the other controllers given s (the devices of
// one memory partition sharing its channels); s's rate replaces the
// builder's. nil: its own.
func (b Builder) WithSharedBandwidth(s *fabric.Server) Builder { b.shared = s; return b }

// Build makes the controller.
func (b Builder) Build(name string) *Controller {
	if b.shared == nil {
		fabric.Require("dram.Builder", fabric.Need{What: "WithChannels or WithBandwidth (dram.channels_per_domain)", Given: b.channels > 0},
			fabric.Need{What: "WithChannels or WithBandwidth (dram.channel_bandwidth_gbps)", Given: b.channelGBps > 0},
			fabric.Need{What: "WithEfficiency (dram.efficiency)", Given: b.efficiency > 0})
	}
	gbps := float64(b.channels) * b.channelGBps * b.efficiency
	cal := fabric.NewCalendar(b.engine)
	m := &Controller{ComponentBase: sim.NewComponentBase(name), engine: cal,
		bw: b.shared, latency: fabric.Ns(b.latencyNs)}
	if m.bw == nil {
		m.bw = &fabric.Server{BytesPerSec: fabric.GBps(gbps)}
	}
	m.Port, m.out = m.NewPort(cal, m, 1024, name, "Port")
	return m
}
