package gcd

import (
	"math/bits"

	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// L2 is a GCD's L2 cache between its CUs and the data fabric. It caches
// the GCD's own HBM only: coherent (fine-grained) host memory and peer
// memory are not cached on MI250X, so those requests pass through. It is
// write-back and write-allocate. Residency is tracked per line, the unit
// data really arrives in; replacement is LRU over blocks of lines (the
// simulation's granularity), so a block may hold some lines and not others.
type L2 struct {
	*sim.ComponentBase
	engine sim.Engine
	fabric.Senders

	local     int   // this GCD's memory index
	line      int64 // bytes per line
	block     int64 // bytes per replacement block
	capacity  int   // blocks
	latency   sim.VTimeInSec
	bandwidth fabric.Server

	TopPort, BottomPort sim.Port
	top, bottom         *fabric.Sender

	lru         lru // resident blocks, most recent first
	blocks      blockMap
	inFlight    map[*fabric.Packet]origin // forwarded requests: whom to answer
	flush       *fabric.Packet            // a release waiting for its write-back
	pending     int64                     // dirty bytes evicted and not yet sent to HBM
	pendingAddr int64

	// Requests that found all their lines (hits) or not (misses), blocks
	// evicted or released with dirty lines (WriteBacks), and the bytes
	// behind them: what the cache served, what it fetched, what it took
	// from writes, what it wrote back.
	Hits, Misses, WriteBacks                        uint64
	HitBytes, FillBytes, WriteBytes, WriteBackBytes uint64
}

// block is one replacement unit: which of its lines are valid and dirty.
type block struct {
	id           int64
	valid, dirty []uint64 // bit sets over the block's lines
	prev, next   *block   // LRU neighbours (more, less recent)
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

// origin remembers what a forwarded packet carried for its requester.
type origin struct {
	requester sim.Port
	fill      bool  // a read miss whose data fills lines
	size      int   // bytes the requester asked for
	addr      int64 // where
}

// NotifyRecv takes CU requests from the top and answers from the bottom.
func (c *L2) NotifyRecv(now sim.VTimeInSec, port sim.Port) {
	for {
		msg := port.Retrieve(now)
		if msg == nil {
			return
		}
		p := msg.(*fabric.Packet)
		if port == c.TopPort {
			c.request(now, p)
		} else {
			c.answer(now, p)
		}
	}
}

func (c *L2) cached(p *fabric.Packet) bool {
	return !p.Target.Host && p.Target.Index == c.local && c.capacity > 0
}

func (c *L2) request(now sim.VTimeInSec, p *fabric.Packet) {
	if p.Kind == fabric.FlushReq && c.cached(p) {
		c.release(now, p)
		return
	}
	if !c.cached(p) || (p.Kind != fabric.ReadReq && p.Kind != fabric.WriteReq) {
		c.forward(now, p, false)
		return
	}
	switch p.Kind {
	case fabric.ReadReq:
		missing := c.missingLines(p.Addr, int64(p.Size))
		if missing == 0 {
			c.Hits++
			c.HitBytes += uint64(p.Size)
			c.touch(p.Addr, int64(p.Size))
			c.serve(now, p, fabric.ReadRsp)
			return
		}
		// fetch only the lines that are not there; the rest is served
		// from the cache as the fill returns
		c.Misses++
		fetch := missing * c.line
		c.HitBytes += uint64(max(0, int64(p.Size)-fetch))
		c.bandwidth.Serve(now, now+p.Lag, max(0, p.Size-int(fetch)))
		c.inFlight[p] = origin{requester: p.Requester, fill: true, size: p.Size, addr: p.Addr}
		p.Size, p.TrafficBytes = int(fetch), int(fetch)
		p.Requester = c.BottomPort
		p.Lag += c.latency
		c.bottom.Send(now, p)
	case fabric.WriteReq:
		c.Hits++ // write-allocate: a write never waits for HBM
		c.WriteBytes += uint64(p.Size)
		c.fill(now, p.Addr, int64(p.Size), true)
		c.serve(now, p, fabric.WriteAck)
	}
}

// flushTag marks the write-backs of a release.
type flushTag struct{}

// release writes back every dirty line (an event's system-scope release:
// buffer_wbl2 on gfx90a) as one write-back and answers once HBM has it.
// The lines stay valid, now clean.
func (c *L2) release(now sim.VTimeInSec, p *fabric.Packet) {
	c.flush = p
	for bl := c.lru.head; bl != nil; bl = bl.next {
		c.evictDirty(bl)
	}
	if !c.sendWriteBack(now, flushTag{}) {
		c.finishRelease(now)
	}
}

func (c *L2) finishRelease(now sim.VTimeInSec) {
	p := c.flush
	c.flush = nil
	p.Respond(fabric.FlushAck, 0)
	p.Lag = c.latency
	c.top.Send(now, p)
}

// evictDirty takes a block's dirty lines into the pending write-back and
// marks them clean.
func (c *L2) evictDirty(bl *block) {
	d := countBits(bl.dirty, 0, int(c.block/c.line))
	if d == 0 {
		return
	}
	c.WriteBacks++
	c.pending += int64(d) * c.line
	c.pendingAddr = bl.id * c.block
	clear(bl.dirty)
}

// sendWriteBack writes the pending dirty lines to HBM as one transaction
// (the lines of one fill or release leave together); it says whether
// there were any.
func (c *L2) sendWriteBack(now sim.VTimeInSec, tag any) bool {
	if c.pending == 0 {
		return false
	}
	c.WriteBackBytes += uint64(c.pending)
	wb := fabric.NewRequest(fabric.WriteReq, int(c.pending), fabric.Memory{Index: c.local},
		fabric.Route{c.local}, c.BottomPort, tag)
	wb.Addr = c.pendingAddr
	c.pending = 0
	c.bottom.Send(now, wb)
	return true
}

// serve answers from the cache after its transfer and latency.
func (c *L2) serve(now sim.VTimeInSec, p *fabric.Packet, kind fabric.Kind) {
	first, spread := c.bandwidth.Stream(now, p.TakeLag(now), p.Size, p.Spread)
	p.Respond(kind, p.Size)
	if kind == fabric.ReadRsp {
		p.Lag, p.Spread = first+c.latency-now, spread
	} else { // a write is acknowledged once its last byte is in
		p.Lag = first + spread + c.latency - now
	}
	c.top.Send(now, p)
}

// forward sends a request on to the fabric, as the L2's own.
func (c *L2) forward(now sim.VTimeInSec, p *fabric.Packet, fill bool) {
	c.inFlight[p] = origin{requester: p.Requester, fill: fill, size: p.Size, addr: p.Addr}
	p.Requester = c.BottomPort
	p.Lag += c.latency
	c.bottom.Send(now, p)
}

// answer takes a memory's answer when it logically arrives: filling a line
// earlier would let later requests hit data that is not there yet.
func (c *L2) answer(now sim.VTimeInSec, p *fabric.Packet) {
	if p.Lag > 0 || (p.Spread > 0 && c.inFlight[p].fill) {
		// a fill is usable once its last byte is in
		t := p.TakeLag(now)
		if c.inFlight[p].fill {
			t += p.Spread
			p.Spread = 0
		}
		c.engine.Schedule(p.Event(t, c, 0))
		return
	}
	o, ok := c.inFlight[p]
	if !ok { // the ack of a write-back, done when its last byte is
		if p.Spread > 0 {
			t := now + p.Spread
			p.Spread = 0
			c.engine.Schedule(p.Event(t, c, 0))
			return
		}
		if _, rel := p.Tag.(flushTag); rel {
			c.finishRelease(now)
		}
		return
	}
	delete(c.inFlight, p)
	if o.fill && p.Kind == fabric.ReadRsp {
		c.FillBytes += uint64(p.Size)
		c.fill(now, o.addr, int64(o.size), false)
		p.Size, p.TrafficBytes = o.size, o.size
	}
	p.Requester = o.requester
	c.top.Send(now, p)
}

// lines returns the first line of [addr, addr+size) and how many it spans.
func (c *L2) lines(addr, size int64) (int64, int64) {
	first := addr / c.line
	last := (addr + max(size, 1) - 1) / c.line
	return first, last - first + 1
}

// each calls f for every block the lines [first, first+n) touch, with the
// range of line indexes within the block.
func (c *L2) each(first, n int64, f func(b int64, lo, hi int)) {
	per := c.block / c.line
	for l := first; l < first+n; {
		b := l / per
		lo := l - b*per
		hi := min(per, lo+first+n-l)
		f(b, int(lo), int(hi))
		l += hi - lo
	}
}

// missingLines counts the lines of a range that are not valid.
func (c *L2) missingLines(addr, size int64) int64 {
	first, n := c.lines(addr, size)
	var missing int64
	c.each(first, n, func(b int64, lo, hi int) {
		bl := c.blocks.get(b)
		if bl == nil {
			missing += int64(hi - lo)
			return
		}
		missing += int64(hi-lo) - int64(countBits(bl.valid, lo, hi))
	})
	return missing
}

// touch makes the blocks of a range most recently used.
func (c *L2) touch(addr, size int64) {
	first, n := c.lines(addr, size)
	c.each(first, n, func(b int64, _, _ int) {
		if bl := c.blocks.get(b); bl != nil {
			c.lru.moveToFront(bl)
		}
	})
}

// fill makes the lines of a range valid (and dirty for writes), bringing
// in their blocks and evicting the least recent ones.
func (c *L2) fill(now sim.VTimeInSec, addr, size int64, dirty bool) {
	first, n := c.lines(addr, size)
	c.each(first, n, func(b int64, lo, hi int) {
		bl := c.insert(b)
		setBits(bl.valid, lo, hi)
		if dirty {
			setBits(bl.dirty, lo, hi)
		}
	})
	c.sendWriteBack(now, nil)
}

// insert returns block b, resident and most recent, evicting the least
// recent block (and writing back its dirty lines) to make room.
func (c *L2) insert(b int64) *block {
	if bl := c.blocks.get(b); bl != nil {
		c.lru.moveToFront(bl)
		return bl
	}
	var bl *block
	if c.lru.n >= c.capacity {
		bl = c.lru.tail
		c.lru.remove(bl)
		c.blocks.remove(bl.id)
		c.evictDirty(bl)
		clear(bl.valid)
	} else {
		words := int((c.block/c.line + 63) / 64)
		bl = &block{valid: make([]uint64, words), dirty: make([]uint64, words)}
	}
	bl.id = b
	c.lru.pushFront(bl)
	c.blocks.put(bl)
	return bl
}

// setBits sets bits [lo, hi) of s.
func setBits(s []uint64, lo, hi int) {
	for i := lo; i < hi; {
		w, off := i/64, i%64
		take := min(64-off, hi-i)
		s[w] |= mask(off, take)
		i += take
	}
}

// mask has bits [off, off+n) set.
func mask(off, n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return (1<<n - 1) << off
}

// countBits counts the set bits [lo, hi) of s.
func countBits(s []uint64, lo, hi int) int {
	n := 0
	for i := lo; i < hi; {
		w, off := i/64, i%64
		take := min(64-off, hi-i)
		n += bits.OnesCount64(s[w] & mask(off, take))
		i += take
	}
	return n
}

// Handle takes answers that arrived with lag, and fires held sends.
func (c *L2) Handle(e sim.Event) error {
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
		n += countBits(bl.valid, 0, int(c.block/c.line))
	}
	return int64(n) * c.line
}
