package sdma

import (
	"fmt"

	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// Engine is one SDMA engine.
type Engine struct {
	*sim.ComponentBase
	engine sim.Engine
	fabric.Senders

	hub      int // route id of the GCD hub the engine sits on
	routes   RouteTable
	txnBytes int   // simulation granularity: bytes per transaction
	maxBytes int64 // bytes the engine keeps in flight (hardware limit)
	process  sim.VTimeInSec
	fenceNs  sim.VTimeInSec
	signalNs sim.VTimeInSec
	datapath fabric.Server
	spread   bool // a copy's transactions take its routes in turn (WithTransactionRoutes)

	CtrlPort, MemPort sim.Port
	ctrl, mem         *fabric.Sender

	queues  [][]*CopyCmd // the engine's SDMA queues (rings), served round-robin
	next    int          // queue to look at first
	active  *copyState
	packets fabric.Packets // answered packets, reused for new requests

	issuing bool           // issue is running (responses can arrive inside it)
	issueAt sim.VTimeInSec // logical time new reads leave at

	Copies, Transactions, Fences uint64
	BytesCopied                  uint64
}

type copyState struct {
	cmd          *CopyCmd
	task         string // its Akita task ID, when a tracer is hooked
	start        sim.VTimeInSec
	read, write  fabric.Route
	reads        []fabric.Route // with spread: the routes reads take in turn
	writes       []fabric.Route // and writes
	nr, nw       int            // reads and writes sent
	fence        bool
	flushes      int // flushes not yet answered
	issued, done int64
	outstanding  int64          // bytes read or written and not yet acknowledged
	lastAck      sim.VTimeInSec // when the last acknowledged byte was
	passed       int64          // bytes known to have passed CopyCmd.PassHub
	lastPass     sim.VTimeInSec
}

type phaseEvent struct {
	fabric.EventAt
	phase int
}

const (
	phaseIssue = iota
	phaseSignal
)

// NotifyRecv takes copy packets and transaction responses.
func (e *Engine) NotifyRecv(now sim.VTimeInSec, port sim.Port) {
	for {
		msg := port.Retrieve(now)
		if msg == nil {
			return
		}
		switch m := msg.(type) {
		case *CopyCmd:
			e.queues[m.Queue] = append(e.queues[m.Queue], m)
			if e.active == nil {
				e.startNext(now)
			}
		case *fabric.Packet:
			e.response(now, m)
		}
	}
}

func (e *Engine) at(t sim.VTimeInSec, phase int) {
	e.engine.Schedule(&phaseEvent{EventAt: fabric.EventAt{T: t, H: e}, phase: phase})
}

func (e *Engine) startNext(now sim.VTimeInSec) {
	// one copy packet at a time; between packets the engine moves on to
	// the next queue that has work, so streams on one engine take turns
	var cmd *CopyCmd
	for i := range e.queues {
		q := (e.next + i) % len(e.queues)
		if len(e.queues[q]) > 0 {
			cmd = e.queues[q][0]
			e.queues[q] = e.queues[q][1:]
			e.next = (q + 1) % len(e.queues)
			break
		}
	}
	if cmd == nil {
		e.active = nil
		return
	}
	src, dst := e.routes.HubOf(cmd.Src), e.routes.HubOf(cmd.Dst)
	// Each copy's traffic keeps one route; with routing.sdma_ties = per_copy
	// the table holds all tied routes and copies alternate over them.
	reads, writes := e.routes.DataRoutes(e.hub, src), e.routes.DataRoutes(e.hub, dst)
	s := &copyState{cmd: cmd, start: now,
		read:  reads[int(e.Copies)%len(reads)],
		write: writes[int(e.Copies)%len(writes)]}
	if e.spread {
		s.reads, s.writes = reads, writes
	}
	// The completion signal travels as control traffic, which may take
	// another route (the other of a tie, or a fewest-hop route shorter than
	// the widest); it could then overtake the data, so the engine fences
	// first. A copy on the signal's own route needs no fence.
	sig := e.routes.SignalRoute(e.hub, dst)
	s.fence = !s.write.Equal(sig)
	e.active = s
	e.Copies++
	if e.NumHooks() > 0 { // Akita's tracing (Daisen): the copy is a task from its start to its signal
		s.task = fmt.Sprintf("%s.copy[%d]", e.Name(), e.Copies)
		fabric.StartTask(e, s.task, "", "copy", fmt.Sprintf("copy %d B", cmd.Bytes), e.Name(), now, int(cmd.Bytes))
	}
	e.at(now+e.process, phaseIssue)
}

// Handle runs the engine's timed phases and delayed sends.
func (e *Engine) Handle(ev sim.Event) error {
	if fabric.IsSendEvent(ev) {
		fabric.HandleSendEvent(ev)
		return nil
	}
	now := ev.Time()
	if pe, ok := ev.(*fabric.PacketEvent); ok {
		e.response(now, pe.Pkt)
		return nil
	}
	switch ev.(*phaseEvent).phase {
	case phaseIssue:
		e.issueAt = now
		e.issue(now, now, 0)
	case phaseSignal:
		s := e.active
		if s.task != "" {
			fabric.EndTask(e, s.task, now)
		}
		e.ctrl.Send(now, &CopyDone{MsgMeta: sim.MsgMeta{ID: sim.GetIDGenerator().Generate()},
			ID: s.cmd.ID, Start: s.start, End: now})
		e.startNext(now)
	}
	return nil
}

// send hands a packet to the hub now, logically at time at: latencies
// travel with the packet as lag instead of as events.
func (e *Engine) send(now, at sim.VTimeInSec, p *fabric.Packet) {
	p.Lag = at - now
	e.mem.Send(now, p)
}

// issue starts read transactions while fewer than the limit are in flight.
// Responses may come back while it runs (a local copy crosses no link);
// they only move the issue time on, the loop keeps issuing.
//
// Acknowledgements stream back like data: the bytes of one are acknowledged
// over its spread, and as each frees its part of the limit a new request
// goes out, so the new reads are requested over that spread too.
func (e *Engine) issue(now, at, spread sim.VTimeInSec) {
	s := e.active
	if s.cmd.Bytes == 0 {
		if s.cmd.Passed != nil {
			s.cmd.Passed(at)
		}
		e.finish(now, at)
		return
	}
	if at > e.issueAt {
		e.issueAt = at
	}
	if e.issuing {
		return
	}
	e.issuing = true
	// The limit is in bytes, so a transaction may be cut short to fill it
	// exactly: results do not depend on the transaction size.
	for s.outstanding < e.maxBytes && s.issued < s.cmd.Bytes {
		n := min(int64(e.txnBytes), s.cmd.Bytes-s.issued, e.maxBytes-s.outstanding)
		off := s.issued
		s.issued += n
		s.outstanding += n
		e.Transactions++
		if s.cmd.Inline { // the data is here: write it
			w := e.request(fabric.WriteReq, int(n), s.cmd.Dst, s.nextWrite())
			w.Addr = s.cmd.DstAddr + off
			w.Spread = spread
			e.watch(s, w)
			e.send(now, e.issueAt, w)
			continue
		}
		r := e.request(fabric.ReadReq, int(n), s.cmd.Src, s.nextRead())
		r.Addr = s.cmd.SrcAddr + off
		r.Spread = spread
		e.send(now, e.issueAt, r)
	}
	e.issuing = false
}

// request makes a transaction of the active copy, reusing an answered
// packet when it can.
func (e *Engine) request(kind fabric.Kind, size int, m fabric.Memory, r fabric.Route) *fabric.Packet {
	p := e.packets.Request(kind, size, m, r, e.MemPort, nil)
	if e.active.task != "" { // a new or reissued packet has none
		p.Task = &e.active.task
	}
	return p
}

// response handles a transaction's answer at the time it logically
// arrives: the engine's datapath and its issue order are shared by all its
// transactions, so it takes them in time order, as events.
func (e *Engine) response(now sim.VTimeInSec, p *fabric.Packet) {
	if p.Lag > 0 {
		e.engine.Schedule(p.Event(p.TakeLag(now), e, 0))
		return
	}
	s := e.active
	at := now
	switch p.Kind {
	case fabric.ReadRsp:
		// data streams through the engine's datapath, out as a write
		in := p.Spread
		if l := s.cmd.SrcLink; l != nil { // out of a CPU cache first
			at, in = l.Stream(now, at, p.Size, in)
		}
		first, spread := e.datapath.Stream(now, at, p.Size, in)
		w := p.Reissue(fabric.WriteReq, p.Size, s.cmd.Dst, s.nextWrite())
		if s.task != "" {
			w.Task = &s.task
		}
		w.Addr += s.cmd.DstAddr - s.cmd.SrcAddr // the same offset in the destination
		w.Spread = spread
		e.watch(s, w)
		e.send(now, first, w)
	case fabric.WriteAck:
		// the first bytes are acknowledged now, the last Spread later
		s.outstanding -= int64(p.Size)
		s.done += int64(p.Size)
		s.lastAck = max(s.lastAck, now+p.Spread)
		spread := p.Spread
		e.packets.Put(p)
		e.BytesCopied += uint64(p.Size)
		if s.done == s.cmd.Bytes {
			e.finish(now, s.lastAck)
			return
		}
		e.issue(now, at, spread)
	case fabric.FlushAck:
		e.packets.Put(p)
		if s.flushes--; s.flushes == 0 {
			e.at(at+e.fenceNs+e.signalNs, phaseSignal)
		}
	}
}

// watch has the hub the copy's command names tell it when write w passes
// (CopyCmd.Passed).
func (e *Engine) watch(s *copyState, w *fabric.Packet) {
	if s.cmd.Passed == nil {
		return
	}
	size := int64(w.Size)
	w.NoticeHub = s.cmd.PassHub
	w.Notice = func(at sim.VTimeInSec) {
		s.passed += size
		s.lastPass = max(s.lastPass, at)
		if s.passed == s.cmd.Bytes {
			s.cmd.Passed(s.lastPass)
		}
	}
}

// finish signals completion, after a fence if the signal could overtake
// the data: a flush along the data's route that returns once it landed.
func (e *Engine) finish(now, at sim.VTimeInSec) {
	s := e.active
	if !s.fence {
		e.at(at+e.signalNs, phaseSignal)
		return
	}
	e.Fences++
	routes := []fabric.Route{s.write}
	if len(s.writes) > 1 { // writes went every way: flush each
		routes = s.writes
	}
	s.flushes = len(routes)
	for _, r := range routes {
		e.send(now, at, e.request(fabric.FlushReq, 0, s.cmd.Dst, r))
	}
}

// nextRead is the route of a copy's next read: its own, or with spread
// the next of its routes.
func (s *copyState) nextRead() fabric.Route { return inTurn(s.reads, s.read, &s.nr) }

// nextWrite is the route of a copy's next write, as nextRead.
func (s *copyState) nextWrite() fabric.Route { return inTurn(s.writes, s.write, &s.nw) }

// inTurn is routes[*n] (then counts it), or one when there are no two to
// take turns.
func inTurn(routes []fabric.Route, one fabric.Route, n *int) fabric.Route {
	if len(routes) < 2 {
		return one
	}
	*n++
	return routes[(*n-1)%len(routes)]
}

// NotifyPortFree retries held messages.
func (e *Engine) NotifyPortFree(now sim.VTimeInSec, _ sim.Port) { e.RetryAll(now) }
