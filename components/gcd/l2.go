package gcd

import (
	"container/list"

	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// L2 is a GCD's L2 cache between its CUs and the data fabric. It caches
// the GCD's own HBM only: coherent (fine-grained) host memory and peer
// memory are not cached on MI250X, so those requests pass through. It is
// write-back and write-allocate, with LRU replacement over blocks of
// blockBytes (the simulation's granularity; real lines are 128 B).
type L2 struct {
	*sim.ComponentBase
	engine sim.Engine
	fabric.Senders

	local     int // this GCD's memory index
	block     int64
	capacity  int // blocks
	latency   sim.VTimeInSec
	bandwidth fabric.Server

	TopPort, BottomPort sim.Port
	top, bottom         *fabric.Sender

	lru      *list.List // front = most recent; values are *line
	lines    map[int64]*list.Element
	inFlight map[*fabric.Packet]origin // forwarded requests: whom to answer

	Hits, Misses, WriteBacks uint64
}

type line struct {
	block int64
	dirty int64 // bytes written since the block was filled: what a write-back writes
}

// origin remembers what a forwarded packet carried for its requester.
type origin struct {
	requester sim.Port
	fill      bool // a read miss whose data fills a line
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

func (c *L2) request(now sim.VTimeInSec, p *fabric.Packet) {
	if p.Target.Host || p.Target.Index != c.local || c.capacity == 0 {
		c.forward(now, p, false)
		return
	}
	first, last := c.blocks(p)
	switch p.Kind {
	case fabric.ReadReq:
		hit := true
		for b := first; b <= last && hit; b++ {
			_, hit = c.lines[b]
		}
		if hit {
			c.Hits++
			for b := first; b <= last; b++ {
				c.lru.MoveToFront(c.lines[b])
			}
			c.serve(now, p, fabric.ReadRsp)
			return
		}
		c.Misses++
		c.forward(now, p, true)
	case fabric.WriteReq:
		c.Hits++ // write-allocate: a write never waits for HBM
		for b := first; b <= last; b++ {
			lo, hi := max(p.Addr, b*c.block), min(p.Addr+int64(p.Size), (b+1)*c.block)
			c.insert(now, b, hi-lo)
		}
		c.serve(now, p, fabric.WriteAck)
	default:
		c.forward(now, p, false)
	}
}

// serve answers from the cache after its transfer and latency.
func (c *L2) serve(now sim.VTimeInSec, p *fabric.Packet, kind fabric.Kind) {
	done := c.bandwidth.Serve(now, p.TakeLag(now), p.Size)
	p.Respond(kind, p.Size)
	p.Lag = done + c.latency - now
	c.top.Send(now, p)
}

// forward sends a request on to the fabric, as the L2's own.
func (c *L2) forward(now sim.VTimeInSec, p *fabric.Packet, fill bool) {
	c.inFlight[p] = origin{requester: p.Requester, fill: fill}
	p.Requester = c.BottomPort
	p.Lag += c.latency
	c.bottom.Send(now, p)
}

// answer takes a memory's answer when it logically arrives: filling a line
// earlier would let later requests hit data that is not there yet.
func (c *L2) answer(now sim.VTimeInSec, p *fabric.Packet) {
	if p.Lag > 0 {
		c.engine.Schedule(p.Event(p.TakeLag(now), c, 0))
		return
	}
	o, ok := c.inFlight[p]
	if !ok { // the ack of a write-back
		return
	}
	delete(c.inFlight, p)
	if o.fill && p.Kind == fabric.ReadRsp {
		first, last := c.blocks(p)
		for b := first; b <= last; b++ {
			c.insert(now, b, 0)
		}
	}
	p.Requester = o.requester
	c.top.Send(now, p)
}

// blocks are the first and last block a transaction touches.
func (c *L2) blocks(p *fabric.Packet) (int64, int64) {
	return p.Addr / c.block, (p.Addr + int64(max(p.Size, 1)) - 1) / c.block
}

// insert makes a block resident, writing back the least recent dirty one
// it evicts.
func (c *L2) insert(now sim.VTimeInSec, b int64, dirty int64) {
	if e, ok := c.lines[b]; ok {
		c.lru.MoveToFront(e)
		l := e.Value.(*line)
		l.dirty = min(c.block, l.dirty+dirty)
		return
	}
	if c.lru.Len() >= c.capacity {
		e := c.lru.Back()
		old := e.Value.(*line)
		c.lru.Remove(e)
		delete(c.lines, old.block)
		if old.dirty > 0 {
			c.WriteBacks++
			wb := fabric.NewRequest(fabric.WriteReq, int(old.dirty), fabric.Memory{Index: c.local},
				fabric.Route{c.local}, c.BottomPort, nil)
			wb.Addr = old.block * c.block
			c.bottom.Send(now, wb)
		}
	}
	c.lines[b] = c.lru.PushFront(&line{block: b, dirty: dirty})
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

// Resident is the number of bytes the cache holds.
func (c *L2) Resident() int64 { return int64(c.lru.Len()) * c.block }
