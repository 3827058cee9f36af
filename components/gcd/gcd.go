// Package gcd models one graphics compute die: its data-fabric hub joining
// HBM, SDMA engines, host link and xGMI bundles, and its HBM controller.
// Compute units attach to the hub through their own port (next model).
package gcd

import (
	"fmt"

	"github.com/akisim/akisim/components/dram"
	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/hub"
	"github.com/akisim/akisim/components/mall"
	"github.com/akisim/akisim/components/sdma"
	"github.com/akisim/akisim/internal/lineset"
	"github.com/sarchlab/akita/v3/sim"
)

// GCD is one die's hardware.
type GCD struct {
	ID          int
	Hub         *hub.Hub
	HBM         *dram.Controller
	HostEngines []*sdma.Engine // SDMA engines for host<->GCD copies
	XGMIEngines []*sdma.Engine // SDMA engines for GCD<->GCD copies
	CUs         *ComputeUnits  // every XCD's CUs, CU i on XCD i mod XCDs
	L2          *L2            // XCD 0's L2 (the only one of an MI250X GCD)
	L2s         []*L2          // by XCD
	MALL        *mall.MALL     // memory-side cache in front of the HBM; nil: none (MI250X)
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

	cus, slots    int
	xcds          int // dies the CUs are split over, each with its own L2 (cus is per XCD)
	cuTxn, cuOut  int64
	cuIssueGBps   float64
	loadWindow    int64
	uncached      func(fabric.Memory) bool
	spray         bool
	gather        bool
	launch, endNs float64
	waveStartNs   float64
	wake, fetch   float64
	kernelRoutes  KernelRoutes
	concurrent    int
	tlbEntries    int
	walkers       int
	walkNs        float64

	l2Bytes, l2Block    int64
	l2GBps, l2LatencyNs float64
	line                int64
	mall                *mall.Builder // nil: no MALL
	share               *MemoryShare  // nil: the GCD's HBM and MALL bandwidth are its own
}

// MemoryShare is the HBM and MALL bandwidth the devices of one memory
// partition share (a partition mode's devices of one GPU: config
// Partitioning): the first GCD built with it makes them, the others book
// theirs. The zero value is ready to use.
type MemoryShare struct{ hbm, mall *fabric.Server }

// WithMemoryShare has the GCD's HBM and MALL book their bandwidth on s,
// shared with every GCD built with s; nil: its own.
func (b Builder) WithMemoryShare(s *MemoryShare) Builder { b.share = s; return b }

// MakeBuilder returns a builder of one die (XCD) and no other value: node
// gives each from the config (gcd.*, sdma.*, sim.*), and Build refuses one
// without them.
func MakeBuilder() Builder { return Builder{sdma: sdma.MakeBuilder(), xcds: 1} }

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

// WithComputeUnits sets the CU count, workgroups per CU, the bytes of a
// stream a CU moves per step (simulation granularity) and the bytes of each
// stream it keeps in flight.
func (b Builder) WithComputeUnits(n, slots int, txnBytes, outstandingBytes int64) Builder {
	b.cus, b.slots, b.cuTxn, b.cuOut = n, slots, txnBytes, outstandingBytes
	return b
}

// WithXCDs splits the device into n XCDs (accelerator complex dies), each
// of the CU count WithComputeUnits gives and its own L2 and port into the
// hub; workgroups go to the XCDs in turn (CDNA3 in SPX mode).
func (b Builder) WithXCDs(n int) Builder { b.xcds = max(1, n); return b }

// WithLoadWindow sets the bytes of each stream a worker keeps in flight
// for a command that loads from a memory uncached says it cannot cache
// (0: the same as for stores). Host cores track such loads in their miss
// buffers, lines at a time, with no prefetcher running ahead.
func (b Builder) WithLoadWindow(bytes int64, uncached func(fabric.Memory) bool) Builder {
	b.loadWindow, b.uncached = bytes, uncached
	return b
}

// WithCUIssue sets the rate (GB/s) at which one CU issues memory traffic.
func (b Builder) WithCUIssue(gbps float64) Builder { b.cuIssueGBps = gbps; return b }

// WithRouteSpray says whether CU traffic alternates over tied routes
// transaction by transaction (else each stream keeps one).
func (b Builder) WithRouteSpray(spray bool) Builder { b.spray = spray; return b }

// WithStreamGather says whether a CU step's pieces of several streams in
// one memory travel as one request with their address ranges (a gather),
// else one request each (simulation granularity: sim.stream_gather).
func (b Builder) WithStreamGather(on bool) Builder { b.gather = on; return b }

// WithLine sets the bytes memory moves per access (what a strided or
// random access wastes).
func (b Builder) WithLine(bytes int64) Builder { b.line = bytes; return b }

// WithIdleCosts sets what a kernel reaching an idle queue pays beyond
// kernel_launch_ns (ns): the command processor's wake-up and the AQL
// packet fetch it would otherwise have prefetched.
func (b Builder) WithIdleCosts(wakeNs, fetchNs float64) Builder {
	b.wake, b.fetch = wakeNs, fetchNs
	return b
}

// WithConcurrentKernels sets how many commands of different hardware
// queues the compute units run at once (1: one at a time).
func (b Builder) WithConcurrentKernels(n int) Builder {
	b.concurrent = n
	return b
}

// WithTLB sets the translation cache kernels use for memory mapped page
// by page: its entries, and how many page walks of walkNs run at once.
// Without it (entries 0) translation is not modelled.
func (b Builder) WithTLB(entries, walkers int, walkNs float64) Builder {
	b.tlbEntries, b.walkers, b.walkNs = entries, walkers, walkNs
	return b
}

// WithWaveStart sets how long a workgroup started in the slots of one
// that ended takes to its first load (ns): kernels whose waves load once
// and end (KernelCmd.OneLoad) pay it for every slot they refill.
func (b Builder) WithWaveStart(ns float64) Builder { b.waveStartNs = ns; return b }

// WithKernelTimings sets kernel launch and end latencies (ns).
func (b Builder) WithKernelTimings(launchNs, endNs float64) Builder {
	b.launch, b.endNs = launchNs, endNs
	return b
}

// WithL2 sets the L2's size (0: nothing is cached), replacement block size
// (simulation granularity; residency is per line, see WithLine), bandwidth
// (GB/s) and latency (ns).
func (b Builder) WithL2(bytes, block int64, gbps, latencyNs float64) Builder {
	b.l2Bytes, b.l2Block, b.l2GBps, b.l2LatencyNs = bytes, block, gbps, latencyNs
	return b
}

// WithMALL puts a memory-side cache built by mb in front of the HBM.
func (b Builder) WithMALL(mb mall.Builder) Builder {
	b.mall = &mb
	return b
}

// WithKernelRoutes sets how CU traffic crosses the fabric.
func (b Builder) WithKernelRoutes(r KernelRoutes) Builder { b.kernelRoutes = r; return b }

// Build makes GCD id, named name.
func (b Builder) Build(name string, id int) *GCD {
	fabric.Require("gcd.Builder", fabric.Need{What: "WithHBM (gcd.hbm_bandwidth_gbps)", Given: b.hbmGBps > 0},
		fabric.Need{What: "WithL2 (sim.l2_block_bytes)", Given: b.l2Block > 0},
		fabric.Need{What: "WithL2 (gcd.l2_slices, l2_bytes_per_clock)", Given: b.l2GBps > 0})
	g := &GCD{ID: id}
	g.Hub = hub.MakeBuilder().WithEngine(b.engine).WithID(id).WithLatencies(b.forwardNs, b.reorderNs).Build(name + ".Hub")
	hb := dram.MakeBuilder().WithEngine(b.engine).WithBandwidth(b.hbmGBps).WithLatency(b.hbmLatencyNs)
	var mb mall.Builder
	if b.mall != nil {
		mb = b.mall.WithEngine(b.engine).WithMemory(fabric.Memory{Index: id})
	}
	if s := b.share; s != nil {
		if s.hbm == nil {
			s.hbm = &fabric.Server{BytesPerSec: fabric.GBps(b.hbmGBps)}
		}
		hb = hb.WithSharedBandwidth(s.hbm)
		if b.mall != nil {
			if s.mall == nil {
				s.mall = &fabric.Server{BytesPerSec: fabric.GBps(mb.Bandwidth())}
			}
			mb = mb.WithSharedBandwidth(s.mall)
		}
	}
	g.HBM = hb.Build(name + ".HBM")
	if b.mall != nil {
		g.MALL = mb.Build(name + ".MALL")
		fabric.Wire(g.Hub.MemoryPort(id), g.MALL.TopPort)
		fabric.Wire(g.MALL.BottomPort, g.HBM.Port)
	} else {
		fabric.Wire(g.Hub.MemoryPort(id), g.HBM.Port)
	}
	eb := b.sdma.WithEngine(b.engine).WithHub(id)
	for i := 0; i < b.hostEngines; i++ {
		g.HostEngines = append(g.HostEngines, b.engine1(eb, g, fmt.Sprintf("%s.SDMAHost[%d]", name, i)))
	}
	for i := 0; i < b.xgmiEngines; i++ {
		g.XGMIEngines = append(g.XGMIEngines, b.engine1(eb, g, fmt.Sprintf("%s.SDMAXGMI[%d]", name, i)))
	}
	g.CUs = b.BuildComputeUnits(name+".CU", id)
	for x := 0; x < b.xcds; x++ {
		l2, local := name+".L2", "L2"
		if b.xcds > 1 {
			l2, local = fmt.Sprintf("%s.XCD[%d].L2", name, x), fmt.Sprintf("L2[%d]", x)
		}
		c := b.buildL2(l2, id)
		g.L2s = append(g.L2s, c)
		fabric.Wire(g.CUs.MemPorts[x], c.TopPort)
		fabric.Wire(g.Hub.LocalPort(local, c.BottomPort), c.BottomPort)
	}
	g.L2 = g.L2s[0]
	return g
}

func (b Builder) buildL2(name string, id int) *L2 {
	e := fabric.NewCalendar(b.engine)
	c := &L2{ComponentBase: sim.NewComponentBase(name), engine: e, local: id, routes: b.kernelRoutes, home: []fabric.Route{{id}},
		line: b.line, block: b.l2Block, lines: b.l2Block / b.line, words: lineset.Words(int(b.l2Block / b.line)), capacity: int(b.l2Bytes / b.l2Block), latency: fabric.Ns(b.l2LatencyNs),
		bandwidth: fabric.Server{BytesPerSec: fabric.GBps(b.l2GBps)}, fillRanges: b.mall != nil}
	c.blocks = newBlockIndex(c.capacity)
	c.lineShift, c.perShift = shifts(c.line, c.lines)
	c.TopPort, c.top = c.NewPort(e, c, 4096, name, "Top")
	c.topIn, _ = c.TopPort.(*fabric.Port)
	c.BottomPort, c.bottom = c.NewPort(e, c, 4096, name, "Bottom")
	return c
}

// BuildComputeUnits makes compute units alone, behind hub id (the host's
// cores are built this way too).
func (b Builder) BuildComputeUnits(name string, id int) *ComputeUnits {
	fabric.Require("gcd.Builder's compute units", fabric.Need{What: "WithComputeUnits (gcd.compute_units)", Given: b.cus > 0},
		fabric.Need{What: "WithComputeUnits (gcd.workgroup_slots)", Given: b.slots > 0},
		fabric.Need{What: "WithComputeUnits (sim.cu_transaction_bytes)", Given: b.cuTxn > 0},
		fabric.Need{What: "WithComputeUnits (gcd.cu_outstanding_bytes)", Given: b.cuOut > 0},
		fabric.Need{What: "WithCUIssue (gcd.cu_bytes_per_clock)", Given: b.cuIssueGBps > 0},
		fabric.Need{What: "WithLine (gcd.line_bytes)", Given: b.line > 0})
	e := fabric.NewCalendar(b.engine)
	c := &ComputeUnits{ComponentBase: sim.NewComponentBase(name), engine: e, hub: id,
		routes: b.kernelRoutes, spray: b.spray, gatherOn: b.gather, n: b.cus * b.xcds, xcds: b.xcds, slots: b.slots, txnBytes: b.cuTxn, maxBytes: b.cuOut, loadMax: b.loadWindow, uncached: b.uncached,
		issueBPS: fabric.GBps(b.cuIssueGBps), line: b.line,
		launch: fabric.Ns(b.launch), end: fabric.Ns(b.endNs), waveStart: fabric.Ns(b.waveStartNs), idle: fabric.Ns(b.wake + b.fetch), poll: fabric.Ns(b.hbmLatencyNs)}
	if b.tlbEntries > 0 {
		c.tlb = NewTLB(b.tlbEntries, b.walkers, b.walkNs)
	}
	c.maxRun = max(1, b.concurrent)
	c.queues, c.busy = map[int][]*KernelCmd{}, map[int]bool{}
	c.pipes = make([]fabric.Server, c.n)
	for i := range c.pipes {
		c.pipes[i].BytesPerSec = c.issueBPS
	}
	c.CtrlPort, c.ctrl = c.NewPort(e, c, 1024, name, "Ctrl")
	c.MemPort, c.mem = c.NewPort(e, c, 1024, name, "Mem")
	c.MemPorts, c.mems = []sim.Port{c.MemPort}, []*fabric.Sender{c.mem}
	for x := 1; x < c.xcds; x++ {
		p, s := c.NewPort(e, c, 1024, name, fmt.Sprintf("Mem[%d]", x))
		c.MemPorts, c.mems = append(c.MemPorts, p), append(c.mems, s)
	}
	return c
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
