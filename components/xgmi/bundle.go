// Package xgmi models an Infinity Fabric bundle: N links (lanes) between two
// hubs, each direction serialising packets at N x the lane bandwidth, with
// per-packet header overhead, flight latency and credit flow control.
package xgmi

import (
	"fmt"

	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// direction is one way through the bundle.
type direction struct {
	wire     *fabric.Server // serialisation at lanes x lane bandwidth (one Server for both directions when they share it)
	in       sim.Port       // where packets enter
	out      *fabric.Sender
	inFlight int              // bytes accepted and not yet handed on (credits used)
	early    int              // bytes in flight and booked before they reached the link
	ready    []*fabric.Packet // packets at the link waiting for a credit
	head     int
	Packets  uint64
	Payload  uint64 // data bytes carried
}

// Bundle is an xGMI bundle (or any point-to-point IF link) between two hubs.
type Bundle struct {
	*sim.ComponentBase
	engine sim.Engine
	fabric.Senders

	lanes    int
	flight   sim.VTimeInSec
	payload  int
	overhead int
	response int // overhead of a read-data packet
	request  int
	credits  int // receive buffering per direction, bytes
	early    int // bytes of credits packets still on their way may book
	dirs     [2]*direction
}

// Port returns the bundle end at side 0 or 1.
func (b *Bundle) Port(side int) sim.Port { return b.dirs[side].in }

// Lanes is the number of links in the bundle.
func (b *Bundle) Lanes() int { return b.lanes }

// NotifyRecv accepts packets while the far side has credits.
func (b *Bundle) NotifyRecv(now sim.VTimeInSec, port sim.Port) {
	for i, d := range b.dirs {
		if d.in == port {
			b.accept(now, d, i)
		}
	}
}

// accept takes packets from the port. A packet still logically on its way
// (it carries lag) waits for its time before it competes for credits, so
// credits are held only by packets actually on the wire.
func (b *Bundle) accept(now sim.VTimeInSec, d *direction, dir int) {
	for {
		msg := d.in.Retrieve(now)
		if msg == nil {
			break
		}
		b.arrive(now, d, dir, msg.(*fabric.Packet))
	}
	b.send(now, d, dir)
}

// Take accepts a packet as it arrives at a bundle end.
func (b *Bundle) Take(now sim.VTimeInSec, port sim.Port, msg sim.Msg) {
	dir := 0
	if b.dirs[1].in == port {
		dir = 1
	}
	d := b.dirs[dir]
	b.arrive(now, d, dir, msg.(*fabric.Packet))
	b.send(now, d, dir)
}

// arrive books a lagging packet early, while credits for that allow, or
// has it wait for its time; one without lag joins those at the link.
func (b *Bundle) arrive(now sim.VTimeInSec, d *direction, dir int, p *fabric.Packet) {
	if p.Lag > 0 {
		if wb := b.wire(p); d.early+wb <= b.early && b.fits(d, wb) {
			// part of the credits may go to packets still on their
			// way: their serialisation is booked at their arrival time
			d.early += wb
			b.transmit(now, d, dir, p, wb, true)
			return
		}
		b.engine.Schedule(p.Event(p.TakeLag(now), b, dir+2))
		return
	}
	d.ready = append(d.ready, p)
}

// send puts packets at the link on the wire while the receiver has credits.
func (b *Bundle) send(now sim.VTimeInSec, d *direction, dir int) {
	for d.head < len(d.ready) {
		p := d.ready[d.head]
		wb := b.wire(p)
		if !b.fits(d, wb) {
			break
		}
		d.ready[d.head] = nil
		d.head++
		b.transmit(now, d, dir, p, wb, false)
	}
	if d.head == len(d.ready) {
		d.ready, d.head = d.ready[:0], 0
	}
}

// fits says whether the receiver has buffer room for wb wire bytes (a
// packet larger than the whole buffer passes alone).
func (b *Bundle) fits(d *direction, wb int) bool {
	return d.inFlight == 0 || d.inFlight+wb <= b.credits
}

// wire is what p occupies on the wire and in the receiver's buffer.
func (b *Bundle) wire(p *fabric.Packet) int {
	return p.WireBytes(b.payload, b.overhead, b.response, b.request)
}

// Interleaves says whether p travels between the wire packets of bulk
// transfers (its own virtual channel, or a single wire packet) rather than
// queueing behind them.
func (b *Bundle) Interleaves(p *fabric.Packet) bool { return b.interleaves(p, b.wire(p)) }

// interleaves is Interleaves for p of wb wire bytes.
func (b *Bundle) interleaves(p *fabric.Packet, wb int) bool {
	return !p.Kind.CarriesData() || wb <= b.payload+max(b.overhead, b.response)
}

// transmit puts p, of wb wire bytes, on the wire.
func (b *Bundle) transmit(now sim.VTimeInSec, d *direction, dir int, p *fabric.Packet, wb int, early bool) {
	var done sim.VTimeInSec
	at := p.TakeLag(now)
	if p.Kind.CarriesData() {
		d.Payload += uint64(p.Size)
	}
	start, end := at, at // on the wire: its first byte, its last
	if !b.interleaves(p, wb) {
		// cut-through: the packet is handed on as its first wire packet
		// arrives, the rest following at the wire's pace
		first, spread := d.wire.Stream(now, at, wb, p.Spread)
		head := min(wb, b.payload+b.overhead)
		done = first + sim.VTimeInSec(float64(head)/d.wire.BytesPerSec)
		p.Spread = max(0, first+spread-done)
		start, end = first, first+spread
	} else {
		// requests and acks without data use their own virtual channel,
		// and a write of one wire packet (a flag) is arbitrated in
		// between the wire packets of bulk transfers booked before it:
		// neither waits behind a whole transaction. A read request asks
		// line by line, so it too is handed on after its first line's
		// request, the rest streaming behind
		wireEnd := d.wire.Interleave(now, at, wb)
		head := wb
		if p.Kind == fabric.ReadReq {
			head = min(wb, b.request)
		}
		done = at + sim.VTimeInSec(float64(head)/d.wire.BytesPerSec)
		p.Spread = max(p.Spread, wireEnd-done)
		end = wireEnd
	}
	p.Early = early
	d.inFlight += wb
	d.Packets++
	if b.NumHooks() > 0 {
		b.traceTransfer(dir, p, start, end)
	}
	if b.lanes > 1 {
		// packets are spread over the links: order is lost
		p.Unordered = true
	}
	b.engine.Schedule(p.Event(done+b.flight, b, dir))
}

// traceTransfer reports p's passage through direction dir as a task of
// the packet's own (a copy's, a kernel step's): its time on the wire,
// from its first byte to its last. The direction is the task's location.
func (b *Bundle) traceTransfer(dir int, p *fabric.Packet, start, end sim.VTimeInSec) {
	where := fmt.Sprintf("%s.dir[%d]", b.Name(), dir)
	bytes := 0
	if p.Kind.CarriesData() {
		bytes = p.Size
	}
	fabric.Task(b, fmt.Sprintf("%s.transfer[%d]", where, b.dirs[dir].Packets), p.TaskID(), "transfer",
		fmt.Sprintf("%s %d B", p.Kind, p.Size), where, start, end, bytes)
}

// Handle delivers arrived packets and frees their credit, and queues
// packets whose lag has passed.
func (b *Bundle) Handle(e sim.Event) error {
	if fabric.IsSendEvent(e) {
		fabric.HandleSendEvent(e)
		return nil
	}
	a := e.(*fabric.PacketEvent)
	now, dir := a.Time(), a.Aux
	if dir >= 2 { // a lagging packet is now at the link
		d := b.dirs[dir-2]
		d.ready = append(d.ready, a.Pkt)
		b.accept(now, d, dir-2)
		return nil
	}
	d := b.dirs[dir]
	size := b.wire(a.Pkt)
	if a.Pkt.Early {
		d.early -= size
		a.Pkt.Early = false
	}
	d.out.Send(now, a.Pkt) // may reuse the packet's event: read it first
	d.inFlight -= size
	b.accept(now, d, dir)
	return nil
}

// NotifyPortFree retries packets the far hub could not take.
func (b *Bundle) NotifyPortFree(now sim.VTimeInSec, _ sim.Port) { b.RetryAll(now) }

// Drain is how long after now a direction's wire would be done with what
// it holds and bytes more: a queue's depth in time, this packet included.
func (b *Bundle) Drain(now sim.VTimeInSec, dir, bytes int) sim.VTimeInSec {
	w := b.dirs[dir].wire
	return w.Backlog(now) + sim.VTimeInSec(float64(bytes)/w.BytesPerSec)
}

// InFlight is the bytes a direction has taken in and not yet delivered.
func (b *Bundle) InFlight(dir int) int { return b.dirs[dir].inFlight }

// Stats of one direction (0: side 0 to side 1).
func (b *Bundle) Stats(dir int) (packets, payload uint64, busy sim.VTimeInSec) {
	d := b.dirs[dir]
	return d.Packets, d.Payload, d.wire.Busy
}
