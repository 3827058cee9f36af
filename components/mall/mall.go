// Package mall models the MALL (memory attached last level cache, AMD's
// Infinity Cache): a memory-side cache in front of a device's HBM
// channels, shared by everything that reaches that memory (the XCDs' L2s,
// SDMA engines, peers over xGMI, the host). Being memory-side it needs no
// coherence: every access to its memory passes through it. Transaction-
// level: each transaction books the cache's bandwidth and latency once,
// nothing ticks.
package mall

import (
	"fmt"

	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// MALL sits between a hub's memory port (Top) and the memory controller
// (Bottom). Reads that find all their lines are served by the cache's
// channels after its latency; the others fetch their missing lines from
// memory and fill them once the last byte is in. Writes follow Policy.
// Replacement is LRU within a set over blocks of lines (the simulation's
// granularity); residency is per line.
type MALL struct {
	*sim.ComponentBase
	engine sim.Engine
	fabric.Senders

	TopPort, BottomPort sim.Port
	top, bottom         *fabric.Sender

	memory      fabric.Memory // what write-backs target
	policy      Policy
	line, block int64
	latency     sim.VTimeInSec
	bw          *fabric.Server // every channel together: transactions spread over them by address (shared by a memory partition's MALLs)
	store       *store
	fills       map[*fabric.Packet]fill // read misses on their way to memory

	// Reads that found every line (Hits) or not (Misses), and their bytes:
	// asked (ReadBytes), served from the cache (HitBytes), fetched from
	// memory into lines (FillBytes).
	Hits, Misses                   uint64
	ReadBytes, HitBytes, FillBytes uint64
	// Writes: their bytes (WriteBytes), of those acknowledged by the cache
	// (AbsorbedBytes); the line bytes writes brought in (WriteFillBytes)
	// and made dirty (DirtyBytes); dirty blocks evicted (WriteBacks) and
	// their bytes written to memory (WriteBackBytes).
	WriteBytes, AbsorbedBytes, WriteFillBytes, DirtyBytes uint64
	WriteBacks, WriteBackBytes                            uint64
}

// fill is what a read miss asked for: the range the fill makes valid.
type fill struct {
	addr int64
	size int
}

// writeBack tags the cache's own writes to memory.
type writeBack struct{}

// NotifyRecv takes requests from the top and memory's answers from the bottom.
func (m *MALL) NotifyRecv(now sim.VTimeInSec, port sim.Port) {
	for {
		msg := port.Retrieve(now)
		if msg == nil {
			return
		}
		p := msg.(*fabric.Packet)
		if port == m.TopPort {
			m.request(now, p)
		} else {
			m.answer(now, p)
		}
	}
}

func (m *MALL) request(now sim.VTimeInSec, p *fabric.Packet) {
	switch p.Kind {
	case fabric.ReadReq:
		m.read(now, p)
	case fabric.WriteReq:
		m.write(now, p)
	default: // fences pass on to memory
		m.forward(now, p)
	}
}

func (m *MALL) read(now sim.VTimeInSec, p *fabric.Packet) {
	m.ReadBytes += uint64(p.Size)
	missing := m.missingOf(p, p.Addr, int64(p.Size))
	if missing == 0 {
		m.Hits++
		m.HitBytes += uint64(p.Size)
		m.eachOf(p, p.Addr, int64(p.Size), func(id int64, _, _ int) { m.store.touch(m.store.find(id)) })
		m.serve(now, p, fabric.ReadRsp)
		return
	}
	// fetch only the missing lines; the rest is served from the cache
	m.Misses++
	fetch := missing * m.line
	hit := max(0, int64(p.Size)-fetch)
	m.HitBytes += uint64(hit)
	m.bw.Serve(now, now+p.Lag, int(hit))
	m.fills[p] = fill{addr: p.Addr, size: p.Size}
	p.Size, p.TrafficBytes = int(fetch), int(fetch)
	m.forward(now, p)
}

func (m *MALL) write(now sim.VTimeInSec, p *fabric.Packet) {
	m.WriteBytes += uint64(p.Size)
	addr, size := p.Addr, int64(p.Size)
	if m.policy.WriteBack && (m.policy.WriteAllocate || m.missingOf(p, addr, size) == 0) {
		m.AbsorbedBytes += uint64(p.Size)
		m.eachOf(p, addr, size, func(id int64, lo, hi int) {
			f := m.take(now, id)
			f.valid.Add(lo, hi)
			f.dirty.Add(lo, hi)
			m.DirtyBytes += uint64(int64(hi-lo) * m.line)
			m.WriteFillBytes += uint64(int64(hi-lo) * m.line)
		})
		m.serve(now, p, fabric.WriteAck)
		return
	}
	// on to memory: the lines it finds are updated (memory now has them:
	// clean); with write-allocate it takes the others, clean
	m.eachOf(p, addr, size, func(id int64, lo, hi int) {
		f := m.store.find(id)
		if f == nil && m.policy.WriteAllocate {
			f = m.take(now, id)
		}
		if f == nil {
			return
		}
		if m.policy.WriteAllocate {
			m.WriteFillBytes += uint64(int64(hi-lo) * m.line)
			f.valid.Add(lo, hi)
		}
		f.dirty.Drop(lo, hi)
	})
	m.forward(now, p)
}

// take returns block id's frame, writing back the dirty lines of the
// block it replaces.
func (m *MALL) take(now sim.VTimeInSec, id int64) *frame {
	f, victim, dirty := m.store.take(id)
	if victim >= 0 && dirty > 0 {
		m.WriteBacks++
		bytes := int64(dirty) * m.line
		m.WriteBackBytes += uint64(bytes)
		wb := fabric.NewRequest(fabric.WriteReq, int(bytes), m.memory, fabric.Route{m.memory.Index}, m.BottomPort, writeBack{})
		wb.Addr = victim * m.block
		m.bottom.Send(now, wb)
	}
	return f
}

// serve answers from the cache after its transfer and latency.
func (m *MALL) serve(now sim.VTimeInSec, p *fabric.Packet, kind fabric.Kind) {
	first, spread := m.bw.Stream(now, p.TakeLag(now), p.Size, p.Spread)
	if kind == fabric.WriteAck {
		p.Land(first + spread) // a flag store is visible once it is in the cache
	}
	p.Respond(kind, p.Size)
	p.Lag, p.Spread = first+m.latency-now, spread
	m.top.Send(now, p)
}

// forward sends a request on to memory after the cache's lookup.
func (m *MALL) forward(now sim.VTimeInSec, p *fabric.Packet) {
	p.Lag += m.latency
	m.bottom.Send(now, p)
}

// answer takes memory's answer. A fill's lines become valid once its last
// byte is in: filling earlier would let later reads hit data not there yet.
func (m *MALL) answer(now sim.VTimeInSec, p *fabric.Packet) {
	if p.Requester == m.BottomPort { // the acknowledgement of a write-back
		return
	}
	f, ok := m.fills[p]
	if !ok { // write acknowledgements and fences go back as memory sent them
		m.top.Send(now, p)
		return
	}
	if p.Lag > 0 || p.Spread > 0 {
		t := p.TakeLag(now) + p.Spread
		p.Spread = 0
		m.engine.Schedule(p.Event(t, m, 0))
		return
	}
	delete(m.fills, p)
	m.FillBytes += uint64(p.Size)
	// the lines fetched are the ones still missing; if a hit line was
	// replaced meanwhile, the fill did not bring it
	budget := p.Size / int(m.line)
	m.eachOf(p, f.addr, int64(f.size), func(id int64, lo, hi int) {
		fr := m.store.find(id)
		if fr == nil {
			fr = m.take(now, id)
		} else {
			m.store.touch(fr)
		}
		if gap := hi - lo - fr.valid.Count(lo, hi); gap <= budget {
			fr.valid.Add(lo, hi)
			budget -= gap
			return
		}
		for l := lo; l < hi && budget > 0; l++ {
			if fr.valid.Count(l, l+1) == 0 {
				fr.valid.Add(l, l+1)
				budget--
			}
		}
	})
	p.Size, p.TrafficBytes = f.size, f.size
	m.top.Send(now, p)
}

// each calls f for every block the lines of [addr, addr+size) touch, with
// the block's number and the range of line indexes within it.
func (m *MALL) each(addr, size int64, f func(id int64, lo, hi int)) {
	first := addr / m.line
	last := (addr + max(size, 1) - 1) / m.line
	per := m.block / m.line
	for l := first; l <= last; {
		id := l / per
		lo := l - id*per
		hi := min(per, lo+last+1-l)
		f(id, int(lo), int(hi))
		l += hi - lo
	}
}

// eachOf is each over a gather request's ranges, or over [addr,
// addr+size) for a request of one range.
func (m *MALL) eachOf(p *fabric.Packet, addr, size int64, f func(id int64, lo, hi int)) {
	if len(p.Extents) == 0 {
		m.each(addr, size, f)
	}
	for _, e := range p.Extents {
		m.each(e.Addr, int64(e.Size), f)
	}
}

// missingOf counts the lines of a request's ranges (or of [addr,
// addr+size)) that are not valid.
func (m *MALL) missingOf(p *fabric.Packet, addr, size int64) int64 {
	var n int64
	m.eachOf(p, addr, size, func(id int64, lo, hi int) {
		n += int64(hi - lo)
		if f := m.store.find(id); f != nil {
			n -= int64(f.valid.Count(lo, hi))
		}
	})
	return n
}

// Handle takes fills whose last byte is in, and fires held sends.
func (m *MALL) Handle(e sim.Event) error {
	if pe, ok := e.(*fabric.PacketEvent); ok && !fabric.IsSendEvent(e) {
		m.answer(e.Time(), pe.Pkt)
		return nil
	}
	fabric.HandleSendEvent(e)
	return nil
}

// NotifyPortFree retries held messages.
func (m *MALL) NotifyPortFree(now sim.VTimeInSec, _ sim.Port) { m.RetryAll(now) }

// Resident is the bytes of valid lines the cache holds.
func (m *MALL) Resident() int64 { return int64(m.store.count(false)) * m.line }

// Dirty is the bytes of dirty lines it holds.
func (m *MALL) Dirty() int64 { return int64(m.store.count(true)) * m.line }

// Capacity is the bytes it can hold.
func (m *MALL) Capacity() int64 { return int64(len(m.store.frames)) * m.block }

// Busy is the time its channels spent serving hits and writes, and
// Served the bytes they moved.
func (m *MALL) Busy() sim.VTimeInSec { return m.bw.Busy }

// Served is the bytes the cache's channels moved for hits and writes.
func (m *MALL) Served() uint64 { return m.bw.Bytes }

// Audit says what is wrong with the cache's books, or "" if nothing: it
// never holds more than was filled in or written, never serves more than
// was asked, every byte asked is a hit or a fill, and its dirty lines and
// write-backs are no more than writes made dirty. -check runs it after
// every run.
func (m *MALL) Audit() string {
	switch res, dirty := uint64(m.Resident()), uint64(m.Dirty()); {
	case res > uint64(m.Capacity()):
		return fmt.Sprintf("holds %d bytes, more than its %d", res, m.Capacity())
	case res > m.FillBytes+m.WriteFillBytes:
		return fmt.Sprintf("holds %d bytes, filled with %d from memory and %d from writes", res, m.FillBytes, m.WriteFillBytes)
	case m.HitBytes > m.ReadBytes || m.ReadBytes > m.HitBytes+m.FillBytes:
		return fmt.Sprintf("asked %d bytes, served %d from the cache and filled %d", m.ReadBytes, m.HitBytes, m.FillBytes)
	case dirty+m.WriteBackBytes > m.DirtyBytes:
		return fmt.Sprintf("holds %d dirty bytes and wrote back %d, writes made %d dirty", dirty, m.WriteBackBytes, m.DirtyBytes)
	}
	return ""
}
