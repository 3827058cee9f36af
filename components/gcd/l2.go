package gcd

import (
	"fmt"
	"math/bits"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/internal/lineset"
	"github.com/sarchlab/akita/v3/sim"
)

// L2 is a GCD's L2 cache between its CUs and the data fabric. It caches
// the GCD's own HBM, coarse- and fine-grained alike, and coarse-grained
// memory elsewhere (a peer's HBM, host DRAM: MTYPE NC on gfx90a, requests
// marked NonCoherent); fine-grained non-local memory (MTYPE UC) is never
// cached, so those requests pass through. It is write-back and
// write-allocate. Residency is tracked per line, the unit data really
// arrives in; replacement is LRU over blocks of lines (the simulation's
// granularity), so a block may hold some lines and not others.
type L2 struct {
	*sim.ComponentBase
	engine sim.Engine
	fabric.Senders

	local     int            // this GCD's memory index, and its hub's
	routes    KernelRoutes   // how write-backs reach non-local memory
	home      []fabric.Route // the one route to local HBM, built once: write-backs are hot
	line      int64          // bytes per line
	block     int64          // bytes per replacement block
	lines     int64          // lines per block (block / line, divided once: evictions are hot)
	lineShift int            // log2 of line and of lines (both powers of two): a range's
	perShift  int            // walk shifts rather than divides, three divisions a range
	capacity  int            // blocks
	latency   sim.VTimeInSec
	// fillRanges: a gather's fill carries each range it asks for, as a
	// memory-side cache (the MALL) below reads them
	fillRanges bool
	bandwidth  fabric.Server

	TopPort, BottomPort sim.Port
	top, bottom         *fabric.Sender
	topIn               *fabric.Port // TopPort, compared as a pointer: an interface compare is a call

	lru      lru // resident blocks, most recent first
	nonLocal int // of them, blocks of other memories: an acquire looks for those alone
	dirty    int // of them, blocks with a dirty line: a release stops at the last one
	blocks   blockIndex
	words    int              // words of a block's valid (and of its dirty) bit set
	wide     []uint64         // the bit sets of blocks of more lines than a block's bits hold, 2 x words a block
	spare    []*block         // blocks dropped by an acquire or release, for reuse
	syncing  *fabric.Packet   // a release or acquire waiting for its write-backs
	queued   []*fabric.Packet // releases and acquires behind it (other queues' kernels), in order
	syncLeft int              // of those, not yet acknowledged
	pending  []writeBack      // dirty lines evicted and not yet sent, by memory
	packets  fabric.Packets   // acknowledged write-backs, for reuse

	// A write-back's acknowledgement only says when its last byte is in;
	// nothing waits for it but a release's. The others cost no event of
	// their own: ackEnd is the latest of them, and one tail event reaches
	// it, so the engine still runs until the last write-back is done.
	ackEnd  sim.VTimeInSec
	tail    l2Tail
	tailSet bool

	// Requests that found all their lines (hits) or not (misses), blocks
	// evicted or released with dirty lines (WriteBacks), and the bytes
	// behind them: what the cache served, what it fetched, what it took
	// from writes, what it wrote back. They count every memory cached.
	Hits, Misses, WriteBacks                        uint64
	HitBytes, FillBytes, WriteBytes, WriteBackBytes uint64
	ReadBytes                                       uint64 // bytes of the cached reads asked of it (each served by a hit or a fill)
	// Of those, the requests and write-backs of non-local memory
	// (NonCoherent requests for a peer's HBM or host DRAM).
	NonLocalHits, NonLocalMisses, NonLocalWriteBacks uint64
}

// block is one replacement unit: which of its lines are valid and dirty.
// It is one 64-byte cache line of the simulator's own: an eviction, which
// reads the LRU tail's links and dirty bits, then misses once, not twice.
type block struct {
	id         int64       // blockID of its memory and the block's address
	prev, next *block      // LRU neighbours (more, less recent)
	group      *blockGroup // the index's group holding it, while resident
	// bits holds the valid then the dirty words of a block of up to 128
	// lines (8 KiB of 64 B lines); a block of more lines keeps them in
	// the L2's wide sets, bits[0] its place there
	bits [4]uint64
}

// inline says whether a block's bits hold its two sets.
func (c *L2) inline() bool { return 2*c.words <= len(block{}.bits) }

// newBlock makes a block with no line valid, reusing a dropped one.
func (c *L2) newBlock() *block {
	if n := len(c.spare); n > 0 {
		bl := c.spare[n-1]
		c.spare = c.spare[:n-1]
		return bl
	}
	bl := &block{}
	if !c.inline() {
		bl.bits[0] = uint64(len(c.wide) / (2 * c.words))
		c.wide = append(c.wide, make([]uint64, 2*c.words)...)
	}
	return bl
}

// sets are block bl's valid and dirty lines.
func (c *L2) sets(bl *block) (valid, dirty lineset.Set) {
	w := c.words
	if c.inline() {
		return bl.bits[0:w:w], bl.bits[w : 2*w : 2*w]
	}
	at := int(bl.bits[0]) * 2 * w
	return c.wide[at : at+w : at+w], c.wide[at+w : at+2*w : at+2*w]
}

// memOf is the memory block id is of (blockID's inverse).
func memOf(id int64) fabric.Memory {
	code := id >> addrBits
	return fabric.Memory{Host: code&1 == 1, Index: int(code >> 1)}
}

// lines counts the lines set in all of s: a block's sets hold no bits past
// its lines, so this is Count(0, lines) without its masks per word, which
// every eviction paid.
func lines(s lineset.Set) int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// clean says whether no line of s is set: cheaper than lines(s) == 0
// on every write's fill.
func clean(s lineset.Set) bool {
	for _, w := range s {
		if w != 0 {
			return false
		}
	}
	return true
}

// writeBack is the dirty lines of one memory waiting to leave together.
type writeBack struct {
	mem   fabric.Memory
	bytes int64
	addr  int64 // of the lowest block taken in
}

// addrBits bounds the addresses within one memory (16 TiB); a block id
// carries its memory above them.
const addrBits = 44

// blockID keys block b (address / block bytes) of memory m: the HBM of GCD
// i is memory 2i, NUMA domain d's DRAM 2d+1, so no two memories collide.
func blockID(m fabric.Memory, b int64) int64 {
	code := int64(2 * m.Index)
	if m.Host {
		code++
	}
	return code<<addrBits | b
}

// lru is a list of blocks threaded through them: moving a block allocates
// nothing.
type lru struct {
	head, tail *block
	n          int
}

func (l *lru) remove(b *block) {
	if b.prev != nil {
		b.prev.next = b.next
	} else {
		l.head = b.next
	}
	if b.next != nil {
		b.next.prev = b.prev
	} else {
		l.tail = b.prev
	}
	b.prev, b.next = nil, nil
	l.n--
}

func (l *lru) pushFront(b *block) {
	b.prev, b.next = nil, l.head
	if l.head != nil {
		l.head.prev = b
	} else {
		l.tail = b
	}
	l.head = b
	l.n++
}

func (l *lru) moveToFront(b *block) {
	if l.head != b {
		l.remove(b)
		l.pushFront(b)
	}
}

// NotifyRecv takes CU requests from the top and answers from the bottom.
func (c *L2) NotifyRecv(now sim.VTimeInSec, port sim.Port) {
	for {
		msg := port.Retrieve(now)
		if msg == nil {
			return
		}
		c.Take(now, port, msg)
	}
}

// Take handles a CU request or a memory answer as it arrives.
func (c *L2) Take(now sim.VTimeInSec, port sim.Port, msg sim.Msg) {
	p := msg.(*fabric.Packet)
	if c.isTop(port) {
		c.request(now, p)
	} else {
		c.answer(now, p)
	}
}

// isTop says whether port is the L2's top port.
func (c *L2) isTop(port sim.Port) bool {
	if p, ok := port.(*fabric.Port); ok {
		return p == c.topIn
	}
	return port == c.TopPort
}

// isLocal says whether m is this GCD's own HBM.
func (c *L2) isLocal(m fabric.Memory) bool { return !m.Host && m.Index == c.local }

func (c *L2) cached(p *fabric.Packet) bool {
	return c.capacity > 0 && (c.isLocal(p.Target) || p.NonCoherent)
}

func (c *L2) request(now sim.VTimeInSec, p *fabric.Packet) {
	if (p.Kind == fabric.FlushReq && c.cached(p)) || p.Kind == fabric.InvalidateReq {
		c.sync(now, p)
		return
	}
	if !c.cached(p) || (p.Kind != fabric.ReadReq && p.Kind != fabric.WriteReq) {
		c.forward(now, p, false)
		return
	}
	nonLocal := uint64(0)
	if !c.isLocal(p.Target) {
		nonLocal = 1
	}
	switch p.Kind {
	case fabric.ReadReq:
		c.ReadBytes += uint64(p.Size)
		missing, ask := c.missingOf(p, p.Origin.Extents[:0])
		if missing == 0 {
			c.Hits++
			c.NonLocalHits += nonLocal
			c.HitBytes += uint64(p.Size)
			if len(p.Extents) == 0 {
				c.touch(p.Target, p.Addr, int64(p.Size))
			}
			for _, e := range p.Extents {
				c.touch(p.Target, e.Addr, int64(e.Size))
			}
			c.serve(now, p, fabric.ReadRsp)
			return
		}
		// fetch only the lines that are not there (over the request's own
		// route); the rest is served from the cache as the fill returns
		c.Misses++
		c.NonLocalMisses += nonLocal
		fetch := missing * c.line
		c.HitBytes += uint64(max(0, int64(p.Size)-fetch))
		c.bandwidth.Serve(now, now+p.Lag, max(0, p.Size-int(fetch)))
		p.Origin = fabric.Origin{Requester: p.Requester, Fill: true, Size: p.Size, Addr: p.Addr}
		if len(p.Extents) > 0 {
			p.Origin.Extents, p.Extents = p.Extents, ask
			p.Addr = ask[0].Addr
		}
		p.Size, p.TrafficBytes = int(fetch), int(fetch)
		p.Requester = c.BottomPort
		p.Lag += c.latency
		c.bottom.Send(now, p)
	case fabric.WriteReq:
		c.Hits++ // write-allocate: a write never waits for memory
		c.NonLocalHits += nonLocal
		c.WriteBytes += uint64(p.Size)
		if len(p.Extents) == 0 {
			c.fillLines(p.Target, p.Addr, int64(p.Size), true)
		}
		for _, e := range p.Extents {
			c.fillLines(p.Target, e.Addr, int64(e.Size), true)
		}
		c.sendWriteBacks(now, nil)
		c.serve(now, p, fabric.WriteAck)
	}
}

// syncTag marks the write-backs of a release or acquire.
type syncTag struct{}

// sync starts a system-scope release and acquire (FlushReq: an event's
// release, buffer_wbl2 then buffer_invl2 on gfx90a) or acquire alone
// (InvalidateReq, buffer_invl2). A release writes back every dirty line,
// an acquire only the non-local ones it is about to drop; each memory
// gets its lines as one write-back. Once all are acknowledged the
// non-local lines are dropped; local lines stay valid, now clean.
func (c *L2) sync(now sim.VTimeInSec, p *fabric.Packet) {
	if c.syncing != nil { // one at a time: the next starts when this one is done
		c.queued = append(c.queued, p)
		return
	}
	c.syncing = p
	all := p.Kind == fabric.FlushReq
	// a release stops at the last dirty block, an acquire at the last
	// non-local one: most runs have few of either
	for bl, left := c.lru.head, c.nonLocal; bl != nil && (all && c.dirty > 0 || !all && left > 0); bl = bl.next {
		if all {
			c.evictDirty(bl)
		} else if !c.isLocal(memOf(bl.id)) {
			c.evictDirty(bl)
			left--
		}
	}
	if c.syncLeft = c.sendWriteBacks(now, syncTag{}); c.syncLeft == 0 {
		c.finishSync(now)
	}
}

// finishSync drops the non-local lines and answers: a release after the
// L2's latency, an acquire at once (it costs only its write-backs).
func (c *L2) finishSync(now sim.VTimeInSec) {
	p := c.syncing
	c.syncing = nil
	c.invalidateNonLocal()
	if p.Kind == fabric.FlushReq {
		p.Respond(fabric.FlushAck, 0)
		p.Lag = c.latency
	} else {
		p.Respond(fabric.InvalidateAck, 0)
	}
	c.top.Send(now, p)
	if len(c.queued) > 0 {
		next := c.queued[0]
		c.queued = c.queued[1:]
		c.sync(now, next)
	}
}

// invalidateNonLocal drops every block of non-local memory (all clean by
// now), so the next access fetches from the memory itself.
func (c *L2) invalidateNonLocal() {
	for bl := c.lru.head; bl != nil && c.nonLocal > 0; {
		next := bl.next
		if !c.isLocal(memOf(bl.id)) {
			c.nonLocal--
			c.lru.remove(bl)
			c.blocks.remove(bl)
			valid, _ := c.sets(bl)
			clear(valid) // its dirty lines are clean already: the sync wrote them back
			c.spare = append(c.spare, bl)
		}
		bl = next
	}
}

// evictDirty takes a block's dirty lines into its memory's pending
// write-back and marks them clean.
func (c *L2) evictDirty(bl *block) {
	_, dirty := c.sets(bl)
	d := lines(dirty)
	if d == 0 {
		return
	}
	mem := memOf(bl.id)
	c.dirty--
	c.WriteBacks++
	if !c.isLocal(mem) {
		c.NonLocalWriteBacks++
	}
	addr := (bl.id & (1<<addrBits - 1)) * c.block
	clear(dirty)
	for i := range c.pending {
		if wb := &c.pending[i]; wb.mem == mem {
			wb.bytes += int64(d) * c.line
			wb.addr = min(wb.addr, addr) // the lines leave as one run from the lowest block (a MALL places them by it)
			return
		}
	}
	c.pending = append(c.pending, writeBack{mem: mem, bytes: int64(d) * c.line, addr: addr})
}

// sendWriteBacks writes the pending dirty lines back, each memory's as one
// transaction (the lines of one fill or release leave together): local
// ones to HBM, others over the GCD's kernel routes to their memory, split
// evenly over tied routes when the tie rule keeps several (the what-ifs
// spray and pin; the default table keeps one). It returns how many
// transactions it sent.
func (c *L2) sendWriteBacks(now sim.VTimeInSec, tag any) int {
	n := 0
	for _, wb := range c.pending {
		c.WriteBackBytes += uint64(wb.bytes)
		routes := c.home
		if !c.isLocal(wb.mem) {
			routes = c.routes.KernelRoutes(c.local, c.routes.HubOf(wb.mem))
		}
		lines, k := wb.bytes/c.line, int64(len(routes))
		for i, route := range routes {
			lo, hi := lines*int64(i)/k, lines*int64(i+1)/k
			if hi == lo {
				continue
			}
			p := c.packets.Request(fabric.WriteReq, int((hi-lo)*c.line), wb.mem, route, c.BottomPort, tag)
			p.Addr = wb.addr + lo*c.line
			c.bottom.Send(now, p)
			n++
		}
	}
	c.pending = c.pending[:0]
	return n
}

// serve answers from the cache after its transfer and latency.
func (c *L2) serve(now sim.VTimeInSec, p *fabric.Packet, kind fabric.Kind) {
	first, spread := c.bandwidth.Stream(now, p.TakeLag(now), p.Size, p.Spread)
	p.Land(first + spread)
	p.Respond(kind, p.Size)
	if kind == fabric.ReadRsp {
		p.Lag, p.Spread = first+c.latency-now, spread
	} else { // a write is acknowledged as its bytes come in: the last Spread after the first
		p.Lag, p.Spread = first+c.latency-now, spread
	}
	c.top.Send(now, p)
}

// forward sends a request on to the fabric, as the L2's own.
func (c *L2) forward(now sim.VTimeInSec, p *fabric.Packet, fill bool) {
	p.Origin = fabric.Origin{Requester: p.Requester, Fill: fill, Size: p.Size, Addr: p.Addr}
	p.Requester = c.BottomPort
	p.Lag += c.latency
	c.bottom.Send(now, p)
}

// answer takes a memory's answer when it logically arrives: filling a line
// earlier would let later requests hit data that is not there yet.
func (c *L2) answer(now sim.VTimeInSec, p *fabric.Packet) {
	o := &p.Origin
	ok := o.Requester != nil // a request it passed on, not a write-back
	if _, release := p.Tag.(syncTag); !ok && !release {
		// done when its last byte is: (now + lag) + spread, as its own
		// events would have reached it
		c.written(now + p.Lag + p.Spread)
		c.packets.Put(p)
		return
	}
	if p.Lag > 0 || (p.Spread > 0 && o.Fill) {
		// a fill is usable once its last byte is in
		t := p.TakeLag(now)
		if o.Fill {
			t += p.Spread
			p.Spread = 0
		}
		c.engine.Schedule(p.Event(t, c, 0))
		return
	}
	if !ok { // the ack of a release's write-back, done when its last byte is
		if p.Spread > 0 {
			t := now + p.Spread
			p.Spread = 0
			c.engine.Schedule(p.Event(t, c, 0))
			return
		}
		c.packets.Put(p)
		if c.syncLeft--; c.syncLeft == 0 {
			c.finishSync(now)
		}
		return
	}
	if o.Fill && p.Kind == fabric.ReadRsp {
		c.FillBytes += uint64(p.Size)
		if len(o.Extents) > 0 {
			for _, e := range o.Extents {
				c.fillLines(p.Target, e.Addr, int64(e.Size), false)
			}
			p.Extents, o.Extents = o.Extents, p.Extents // the fill's array, kept for the packet's next gather
			c.sendWriteBacks(now, nil)
		} else {
			c.fill(now, p.Target, o.Addr, int64(o.Size), false)
		}
		p.Size, p.TrafficBytes = o.Size, o.Size
	}
	p.Requester = o.Requester
	p.Origin = fabric.Origin{Extents: o.Extents[:0]}
	c.top.Send(now, p)
}

// l2Tail is the event at the latest write-back acknowledgement known.
type l2Tail struct{ fabric.EventAt }

// written notes a write-back (not a release's) done at t: the tail event
// reaches the latest, booked again from where it fired while later ones
// came in.
func (c *L2) written(t sim.VTimeInSec) {
	c.ackEnd = max(c.ackEnd, t)
	if !c.tailSet {
		c.tailSet = true
		c.tail.EventAt = fabric.EventAt{T: c.ackEnd, H: c}
		c.engine.Schedule(&c.tail)
	}
}

// blockRun walks the blocks the lines of a range touch: a loop over it
// costs no closure call per block.
type blockRun struct {
	b      int64 // the block, as an index within its memory
	lo, hi int   // its lines the range holds
	from   int64 // the line of the next block the range starts at
	left   int64 // lines of the range past this block's
	per    int64 // lines per block
}

// blocksOf starts a walk of the blocks the lines of [addr, addr+size) touch.
func (c *L2) blocksOf(addr, size int64) blockRun {
	first, end := addr>>c.lineShift, (addr+max(size, 1)-1)>>c.lineShift+1 // addresses are never negative
	b := first >> c.perShift
	return blockRun{b: b - 1, from: first - b*c.lines, left: end - first, per: c.lines}
}

// shifts are log2 of line and lines for blocksOf. Both must be powers of
// two, as the config's checks make them (gcd.line_bytes, sim.l2_block_bytes).
func shifts(line, lines int64) (lineShift, perShift int) {
	if line <= 0 || lines <= 0 || line&(line-1) != 0 || lines&(lines-1) != 0 {
		panic(fmt.Sprintf("gcd: an L2 of %d-byte lines, %d to a block: both must be powers of two", line, lines))
	}
	return bits.TrailingZeros64(uint64(line)), bits.TrailingZeros64(uint64(lines))
}

// next moves to the next block, false once past the last.
func (r *blockRun) next() bool {
	if r.left <= 0 {
		return false
	}
	hi := min(r.per, r.from+r.left)
	r.b++
	r.lo, r.hi = int(r.from), int(hi)
	r.left -= hi - r.from
	r.from = 0
	return true
}

// missingLines counts the lines of a range that are not valid.
func (c *L2) missingLines(m fabric.Memory, addr, size int64) int64 {
	var missing int64
	for r := c.blocksOf(addr, size); r.next(); {
		bl := c.blocks.get(blockID(m, r.b))
		if bl == nil {
			missing += int64(r.hi - r.lo)
			continue
		}
		valid, _ := c.sets(bl)
		missing += int64(r.hi-r.lo) - int64(valid.Count(r.lo, r.hi))
	}
	return missing
}

// missingOf counts the lines of a request's ranges that are not valid.
// For a gather it also appends to ask each range with missing lines, cut
// to their count from its start, as a request of that range alone would
// fetch them: what its fill asks memory for. Only a memory-side cache
// reads those ranges (fillRanges); HBM takes the fill's bytes, so without
// one ask holds the first range alone, the fill's address.
func (c *L2) missingOf(p *fabric.Packet, ask []fabric.Extent) (int64, []fabric.Extent) {
	if len(p.Extents) == 0 {
		return c.missingLines(p.Target, p.Addr, int64(p.Size)), ask
	}
	var n int64
	for _, e := range p.Extents {
		if m := c.missingLines(p.Target, e.Addr, int64(e.Size)); m > 0 {
			n += m
			if c.fillRanges || len(ask) == 0 {
				ask = append(ask, fabric.Extent{Addr: e.Addr, Size: int(m * c.line)})
			}
		}
	}
	return n, ask
}

// touch makes the blocks of a range most recently used.
func (c *L2) touch(m fabric.Memory, addr, size int64) {
	for r := c.blocksOf(addr, size); r.next(); {
		if bl := c.blocks.get(blockID(m, r.b)); bl != nil {
			c.lru.moveToFront(bl)
		}
	}
}

// fill makes the lines of a range valid (and dirty for writes), bringing
// in their blocks and evicting the least recent ones.
func (c *L2) fill(now sim.VTimeInSec, m fabric.Memory, addr, size int64, dirty bool) {
	c.fillLines(m, addr, size, dirty)
	c.sendWriteBacks(now, nil)
}

// fillLines is fill without sending the write-backs it leaves pending: a
// gather's ranges send theirs together.
func (c *L2) fillLines(m fabric.Memory, addr, size int64, dirty bool) {
	for r := c.blocksOf(addr, size); r.next(); {
		valid, dirtyLines := c.sets(c.insert(blockID(m, r.b)))
		valid.Add(r.lo, r.hi)
		if dirty {
			if clean(dirtyLines) {
				c.dirty++
			}
			dirtyLines.Add(r.lo, r.hi)
		}
	}
}

// insert returns block b (a blockID), resident and most recent, evicting
// the least recent block (and writing back its dirty lines) to make room.
func (c *L2) insert(b int64) *block {
	if bl := c.blocks.get(b); bl != nil {
		c.lru.moveToFront(bl)
		return bl
	}
	var bl *block
	if c.lru.n >= c.capacity {
		bl = c.lru.tail
		c.lru.remove(bl)
		c.blocks.remove(bl)
		if !c.isLocal(memOf(bl.id)) {
			c.nonLocal--
		}
		c.evictDirty(bl)
		valid, _ := c.sets(bl)
		clear(valid)
	} else {
		bl = c.newBlock()
	}
	bl.id = b
	if !c.isLocal(memOf(b)) {
		c.nonLocal++
	}
	c.lru.pushFront(bl)
	c.blocks.put(bl)
	return bl
}

// Handle takes answers that arrived with lag, and fires held sends.
func (c *L2) Handle(e sim.Event) error {
	if e == sim.Event(&c.tail) {
		if c.tailSet = false; c.ackEnd > e.Time() {
			c.written(c.ackEnd)
		}
		return nil
	}
	if pe, ok := e.(*fabric.PacketEvent); ok && !fabric.IsSendEvent(e) {
		c.answer(e.Time(), pe.Pkt)
		return nil
	}
	fabric.HandleSendEvent(e)
	return nil
}

// NotifyPortFree retries held messages.
func (c *L2) NotifyPortFree(now sim.VTimeInSec, _ sim.Port) { c.RetryAll(now) }

// Resident is the number of valid bytes the cache holds.
func (c *L2) Resident() int64 {
	n := 0
	for bl := c.lru.head; bl != nil; bl = bl.next {
		valid, _ := c.sets(bl)
		n += valid.Count(0, int(c.lines))
	}
	return int64(n) * c.line
}

// Busy is the time the cache's bandwidth spent serving hits and writes.
func (c *L2) Busy() sim.VTimeInSec { return c.bandwidth.Busy }
