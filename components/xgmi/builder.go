package xgmi

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// Builder builds bundles.
type Builder struct {
	engine   sim.Engine
	lanes    int
	laneGBps float64
	flightNs float64
	payload  int
	overhead int
	response int
	request  int
	credits  int
	early    float64
	shared   bool
}

// MakeBuilder returns a builder of one link and no other value: node
// gives each from the config (xgmi.*, or a link's own keys), and Build
// refuses one without them.
func MakeBuilder() Builder { return Builder{lanes: 1} }

// WithEngine sets the simulation engine.
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithLanes sets the number of links in the bundle.
func (b Builder) WithLanes(n int) Builder { b.lanes = n; return b }

// WithLaneBandwidth sets one link's bandwidth per direction in GB/s.
func (b Builder) WithLaneBandwidth(gbps float64) Builder { b.laneGBps = gbps; return b }

// WithFlightLatency sets the one-hop latency in ns.
func (b Builder) WithFlightLatency(ns float64) Builder { b.flightNs = ns; return b }

// WithPacket sets the wire packet payload, the per-packet overhead and the
// wire size of one read request, in bytes; read data packets carry the
// same overhead unless WithResponseOverhead says otherwise.
func (b Builder) WithPacket(payload, overhead, request int) Builder {
	b.payload, b.overhead, b.request, b.response = payload, overhead, request, overhead
	return b
}

// WithResponseOverhead sets the overhead of a read-data packet, in bytes.
func (b Builder) WithResponseOverhead(n int) Builder { b.response = n; return b }

// WithCredits sets the bytes a direction's receiver buffers, and the share
// of them packets still on their way to the link may book ahead (a
// simulation shortcut that saves events).
func (b Builder) WithCredits(bytes int, early float64) Builder {
	b.credits, b.early = bytes, early
	return b
}

// WithSharedDirections makes both directions serialise on one wire: a port
// whose data path carries one transfer at a time, either way, so reads and
// writes share its bandwidth.
func (b Builder) WithSharedDirections(on bool) Builder { b.shared = on; return b }

// Build makes the bundle.
func (b Builder) Build(name string) *Bundle {
	fabric.Require("xgmi.Builder", fabric.Need{What: "WithLaneBandwidth (xgmi.lane_bandwidth_gbps, a link's bandwidth_gbps)", Given: b.laneGBps > 0},
		fabric.Need{What: "WithPacket (packet_payload_bytes)", Given: b.payload > 0},
		fabric.Need{What: "WithPacket (request_bytes)", Given: b.request > 0},
		fabric.Need{What: "WithCredits (credit_bytes)", Given: b.credits > 0})
	cal := fabric.NewCalendar(b.engine)
	x := &Bundle{ComponentBase: sim.NewComponentBase(name), engine: cal,
		lanes: b.lanes, flight: fabric.Ns(b.flightNs), payload: b.payload,
		overhead: b.overhead, response: b.response, request: b.request, credits: b.credits,
		early: int(b.early * float64(b.credits))}
	var ports [2]sim.Port
	for i, n := range []string{"End[0]", "End[1]"} {
		ports[i] = fabric.NewPort(x, 1024, name+"."+n)
		x.AddPort(n, ports[i])
	}
	wire := &fabric.Server{BytesPerSec: fabric.GBps(b.laneGBps * float64(b.lanes))}
	for i := range x.dirs {
		if i > 0 && !b.shared {
			wire = &fabric.Server{BytesPerSec: wire.BytesPerSec}
		}
		x.dirs[i] = &direction{in: ports[i], wire: wire}
	}
	for i := range x.dirs {
		x.dirs[i].out = x.Add(cal, x, ports[1-i])
	}
	return x
}
