package sdma

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// Builder builds SDMA engines.
type Builder struct {
	engine        sim.Engine
	hub           int
	routes        RouteTable
	clockGHz      float64
	bytesPerCycle int
	txnBytes      int
	maxBytes      int
	queues        int
	processNs     float64
	fenceNs       float64
	signalNs      float64
	spread        bool
}

// MakeBuilder returns a builder with no values: node gives each from the
// config (sdma.*), and Build refuses one without them.
func MakeBuilder() Builder { return Builder{} }

// WithEngine sets the simulation engine.
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithHub sets the route id of the GCD hub the engine sits on.
func (b Builder) WithHub(h int) Builder { b.hub = h; return b }

// WithRouteTable sets how the engine's traffic crosses the fabric.
func (b Builder) WithRouteTable(r RouteTable) Builder { b.routes = r; return b }

// WithDatapath sets the engine clock and the bytes it moves per cycle.
func (b Builder) WithDatapath(ghz float64, bytesPerCycle int) Builder {
	b.clockGHz, b.bytesPerCycle = ghz, bytesPerCycle
	return b
}

// WithTransactions sets the transaction size (simulation granularity) and
// the bytes the engine keeps in flight (hardware).
func (b Builder) WithTransactions(bytes, outstandingBytes int) Builder {
	b.txnBytes, b.maxBytes = bytes, outstandingBytes
	return b
}

// WithQueues sets how many SDMA queues (rings) the engine serves.
func (b Builder) WithQueues(n int) Builder { b.queues = n; return b }

// WithTimings sets packet processing, fence and signal costs in ns.
func (b Builder) WithTimings(processNs, fenceNs, signalNs float64) Builder {
	b.processNs, b.fenceNs, b.signalNs = processNs, fenceNs, signalNs
	return b
}

// WithTransactionRoutes spreads each copy's transactions over its routes
// in turn, as a network that adapts per packet does, instead of keeping
// one route per copy.
func (b Builder) WithTransactionRoutes(on bool) Builder { b.spread = on; return b }

// Build makes the engine.
func (b Builder) Build(name string) *Engine {
	fabric.Require("sdma.Builder", fabric.Need{What: "WithDatapath (sdma.clock_ghz)", Given: b.clockGHz > 0},
		fabric.Need{What: "WithDatapath (sdma.bytes_per_cycle)", Given: b.bytesPerCycle > 0},
		fabric.Need{What: "WithTransactions (sim.sdma_transaction_bytes)", Given: b.txnBytes > 0},
		fabric.Need{What: "WithTransactions (sdma.outstanding_bytes)", Given: b.maxBytes > 0},
		fabric.Need{What: "WithQueues (sdma.queues_per_engine)", Given: b.queues > 0})
	cal := fabric.NewCalendar(b.engine)
	e := &Engine{ComponentBase: sim.NewComponentBase(name), engine: cal,
		hub: b.hub, routes: b.routes, txnBytes: b.txnBytes, maxBytes: int64(b.maxBytes),
		process: fabric.Ns(b.processNs), fenceNs: fabric.Ns(b.fenceNs),
		signalNs: fabric.Ns(b.signalNs), spread: b.spread,
		datapath: fabric.Server{BytesPerSec: b.clockGHz * 1e9 * float64(b.bytesPerCycle)},
		queues:   make([][]*CopyCmd, b.queues)}
	e.CtrlPort, e.ctrl = e.NewPort(cal, e, 1024, name, "Ctrl")
	e.MemPort, e.mem = e.NewPort(cal, e, 1024, name, "Mem")
	return e
}

// Queues is the number of SDMA queues the engine serves.
func (e *Engine) Queues() int { return len(e.queues) }

// DatapathBusy is the time the engine's datapath spent moving data.
func (e *Engine) DatapathBusy() sim.VTimeInSec { return e.datapath.Busy }
