package cpu

import (
	"math"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/gcd"
	"github.com/akisim/akisim/components/hub"
	"github.com/sarchlab/akita/v3/sim"
)

// Cores are the host's CPU cores as memory requesters: host threads
// loading or storing memory in place (mapped GPU memory, pinned host
// memory). They work like compute units without a cache, each core a
// worker with a bounded number of bytes in flight, so the compute-unit
// engine runs them. Stores are write-combined, whole 64 KiB pieces in
// flight, and so are loads of host DRAM (cached, the hardware prefetcher
// streams ahead); loads of GPU memory are uncached lines, as many in
// flight as the core's miss buffers hold, so such a stream is
// latency-bound (Little's law). A host
// access reaches them at CtrlPort as a gcd.KernelCmd whose workgroups are
// the threads, and ends with a gcd.KernelDone.
type Cores struct {
	cus      *gcd.ComputeUnits
	allocate bool
	l3Bytes  int64
	ccdBps   float64                // bytes/s a CCD's link moves toward the IO die (0: no link modelled)
	links    map[int]*fabric.Server // each rank's CCD link, made at first use
	CtrlPort sim.Port
}

// L3Bytes is the bytes of a core's L3 (the CCD's).
func (c *Cores) L3Bytes() int64 { return c.l3Bytes }

// CCDLink is the link to the IO die of the CCD rank's host thread runs
// on, shared by all the rank's dirty lines that device reads take out of
// its L3; nil when no such link is modelled. Each rank's thread sits on a
// CCD of its own (a rank per L3 region).
func (c *Cores) CCDLink(rank int) *fabric.Server {
	if c.ccdBps <= 0 {
		return nil
	}
	if c.links == nil {
		c.links = map[int]*fabric.Server{}
	}
	l, ok := c.links[rank]
	if !ok {
		l = &fabric.Server{BytesPerSec: c.ccdBps}
		c.links[rank] = l
	}
	return l
}

// AddStoreFills adds to a host access the line fills its stores cause. A
// plain store to write-back host memory that misses the caches first reads
// its whole line (write-allocate; docs/references.md [amd-apm] vol. 1,
// 3.9.4), so memory reads what the access writes as well: DRAM moves
// twice the bytes. An access whose bytes fit in a core's L3 finds its
// lines there (a staging buffer reused per message, a buffer just filled)
// and fills nothing, nor does a store to bytes the access itself loads
// (acc += in). Without host.store_allocate it adds nothing.
func (c *Cores) AddStoreFills(k *gcd.KernelCmd) {
	if !c.allocate {
		return
	}
	touched := int64(0)
	for _, m := range k.Reads {
		touched += m.Bytes
	}
	for _, m := range k.Writes {
		touched += m.Bytes
	}
	if touched <= c.l3Bytes {
		return
	}
	loads := len(k.Reads)
	for _, w := range k.Writes {
		if w.Mem.Host && !loaded(k.Reads[:loads], w) {
			k.Reads = append(k.Reads, w)
		}
	}
}

// loaded says whether one of reads covers every byte w stores.
func loaded(reads []gcd.MemStream, w gcd.MemStream) bool {
	for _, r := range reads {
		if r.Mem == w.Mem && r.Addr <= w.Addr && w.Addr+w.Bytes <= r.Addr+r.Bytes {
			return true
		}
	}
	return false
}

// Name is the component's name.
func (c *Cores) Name() string { return c.cus.Name() }

// Count is the number of cores.
func (c *Cores) Count() int { return c.cus.Count() }

// Accesses is the number of host accesses run.
func (c *Cores) Accesses() uint64 { return c.cus.Kernels }

// Threads is the number of host threads that ran them.
func (c *Cores) Threads() uint64 { return c.cus.Workgroups }

// Transactions is the number of memory transactions the cores issued.
func (c *Cores) Transactions() uint64 { return c.cus.Transactions }

// BytesRead is the bytes the cores read, from any memory.
func (c *Cores) BytesRead() uint64 { return c.cus.BytesRead }

// BytesWritten is the bytes the cores wrote, to any memory.
func (c *Cores) BytesWritten() uint64 { return c.cus.BytesWritten }

// PipeBusy is the longest any core's memory pipe was busy.
func (c *Cores) PipeBusy() sim.VTimeInSec { return c.cus.PipeBusy() }

// CoresBuilder builds the host's cores.
type CoresBuilder struct {
	engine   sim.Engine
	hub      int
	cores    int
	txnBytes int64
	maxBytes int64
	lines    int64
	allocate bool
	l3Bytes  int64
	ccdGBps  float64
	routes   gcd.KernelRoutes
}

// uncached is the memory a core's loads miss on line by line: GPU memory
// mapped over the host link (uncached, so no prefetcher runs ahead).
func uncached(m fabric.Memory) bool { return !m.Host }

// Line is the bytes of a CPU cache line, what one load miss fetches.
const Line = 64

// MakeCoresBuilder returns a builder with no values: node gives each from
// the config (host.*), and Build refuses one without them.
func MakeCoresBuilder() CoresBuilder { return CoresBuilder{} }

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

// WithLoadLines sets the cache lines of loads a core keeps in flight.
func (b CoresBuilder) WithLoadLines(n int64) CoresBuilder { b.lines = n; return b }

// WithStoreAllocate sets whether the cores' stores to host memory fill
// their lines first, and the bytes of a core's L3, which an access fitting
// in it finds its lines in (AddStoreFills).
func (b CoresBuilder) WithStoreAllocate(on bool, l3Bytes int64) CoresBuilder {
	b.allocate, b.l3Bytes = on, l3Bytes
	return b
}

// WithCCDLink sets the GB/s a CCD's link carries from the CCD to the IO
// die: device reads of lines dirty in its L3 leave through it (0: none).
func (b CoresBuilder) WithCCDLink(gbps float64) CoresBuilder { b.ccdGBps = gbps; return b }

// WithRoutes sets how the cores' traffic crosses the fabric.
func (b CoresBuilder) WithRoutes(r gcd.KernelRoutes) CoresBuilder { b.routes = r; return b }

// Build makes the cores and wires them to the host hub.
func (b CoresBuilder) Build(name string, host *hub.Hub) *Cores {
	fabric.Require("cpu.CoresBuilder", fabric.Need{What: "WithCores (host.cores)", Given: b.cores > 0},
		fabric.Need{What: "WithCores (sim.core_transaction_bytes)", Given: b.txnBytes > 0},
		fabric.Need{What: "WithCores (host.core_outstanding_bytes)", Given: b.maxBytes > 0})
	c := gcd.MakeBuilder().WithEngine(b.engine).WithKernelRoutes(b.routes).
		WithComputeUnits(b.cores, 1, b.txnBytes, b.maxBytes).WithKernelTimings(0, 0).
		WithLine(Line).WithLoadWindow(b.lines*Line, uncached).
		WithRouteSpray(true).           // tied routes alternate per transaction: routing.kernel_ties does not reach the cores
		WithCUIssue(math.Inf(1)).       // a core's stores are limited by what it keeps in flight
		WithConcurrentKernels(b.cores). // each rank's host thread is a queue of its own: ranks' host work overlaps
		BuildComputeUnits(name, b.hub)
	fabric.Wire(host.LocalPort("Cores", c.MemPort), c.MemPort)
	return &Cores{cus: c, allocate: b.allocate, l3Bytes: b.l3Bytes, ccdBps: b.ccdGBps * 1e9, CtrlPort: c.CtrlPort}
}
