package fabric

import (
	"sync"

	"github.com/sarchlab/akita/v3/sim"
)

// Port is an Akita port for akisim's serial, event-driven components: a
// bounded FIFO without locks, calling hooks only when some are attached.
// Akita's LimitNumMsgPort locks and reallocates on every message, which
// dominated akisim's profile; behaviour is the same.
type Port struct {
	sim.HookableBase
	name     string
	comp     sim.Component
	conn     sim.Connection
	direct   *Conn // conn, when it is a Conn
	buf      []sim.Msg
	head     int
	capacity int
	full     bool  // a sender was refused: tell it when room frees
	taker    Taker // comp, when it takes messages straight from the port and the port has no hooks
}

// Taker is a component that handles a message as it arrives at an empty
// port, as its NotifyRecv would at once on retrieving it: the message
// then skips the port's queue (a component's ports sat on every hop).
// Its NotifyRecv still drains whatever the port queues.
type Taker interface {
	Take(now sim.VTimeInSec, port sim.Port, msg sim.Msg)
}

// NewPort makes a port of comp that holds up to capacity messages.
func NewPort(comp sim.Component, capacity int, name string) *Port {
	var buf [128]byte
	shape := nameShape(buf[:0], name)
	validNames.RLock()
	_, ok := validNames.m[string(shape)]
	validNames.RUnlock()
	if !ok {
		sim.NameMustBeValid(name)
		validNames.Lock()
		validNames.m[string(shape)] = struct{}{}
		validNames.Unlock()
	}
	p := &Port{name: name, comp: comp, capacity: capacity}
	if capacity > 0 {
		p.taker, _ = comp.(Taker)
	}
	return p
}

// validNames are the shapes (nameShape) of the port names Akita's check
// has passed, process-wide: every run builds a node with the same names,
// and parsing them was a tenth of building it. A cluster's nodes differ
// only in their indices, so a shape serves every node.
var validNames = struct {
	sync.RWMutex
	m map[string]struct{}
}{m: map[string]struct{}{}}

// nameShape appends name to b with each run of up to 18 digits as one 0:
// Akita's check reads digits only as indices, which any such run holds
// (a longer one may overflow an int, so it stays as it is).
func nameShape(b []byte, name string) []byte {
	for i := 0; i < len(name); {
		j := i
		for j < len(name) && name[j] >= '0' && name[j] <= '9' {
			j++
		}
		switch {
		case j == i:
			b = append(b, name[i])
			i++
		case j-i <= 18:
			b = append(b, '0')
			i = j
		default:
			b = append(b, name[i:j]...)
			i = j
		}
	}
	return b
}

// AcceptHook attaches a hook: from then on every message is queued, where
// the hooks see it.
func (p *Port) AcceptHook(hook sim.Hook) {
	p.HookableBase.AcceptHook(hook)
	p.taker = nil
}

// straight says whether a message arriving now goes straight to the
// port's owner: it takes them, nothing is queued and no sender waits.
func (p *Port) straight() bool { return p.taker != nil && p.head == len(p.buf) && !p.full }

// Name is the port's name.
func (p *Port) Name() string { return p.name }

// SetConnection plugs the port into a connection.
func (p *Port) SetConnection(c sim.Connection) {
	p.conn = c
	p.direct, _ = c.(*Conn)
}

// Component is the port's owner.
func (p *Port) Component() sim.Component { return p.comp }

// CanSend says whether the connection takes a message now.
func (p *Port) CanSend() bool { return p.conn.CanSend(p) }

// Send sends a message out through the connection.
func (p *Port) Send(msg sim.Msg) *sim.SendError {
	err := p.conn.Send(msg)
	if err == nil && p.NumHooks() > 0 {
		p.InvokeHook(sim.HookCtx{Domain: p, Pos: sim.HookPosPortMsgSend, Item: msg})
	}
	return err
}

// Recv takes a message from the connection, or refuses it when full.
func (p *Port) Recv(msg sim.Msg) *sim.SendError { return p.recv(msg.Meta().RecvTime, msg) }

// recv is Recv of msg, received at now.
func (p *Port) recv(now sim.VTimeInSec, msg sim.Msg) *sim.SendError {
	if p.straight() {
		// what queueing it and notifying would do: the owner retrieves
		// it first, and nothing else is there
		p.taker.Take(now, p, msg)
		return nil
	}
	if len(p.buf)-p.head >= p.capacity {
		p.full = true
		return sim.NewSendError()
	}
	if p.NumHooks() > 0 {
		p.InvokeHook(sim.HookCtx{Domain: p, Pos: sim.HookPosPortMsgRecvd, Item: msg})
	}
	p.buf = append(p.buf, msg)
	p.comp.NotifyRecv(now, p)
	return nil
}

// Retrieve takes the oldest message, nil if none.
func (p *Port) Retrieve(now sim.VTimeInSec) sim.Msg {
	if p.head == len(p.buf) {
		return nil
	}
	msg := p.buf[p.head]
	p.buf[p.head] = nil
	p.head++
	if p.head == len(p.buf) {
		p.buf, p.head = p.buf[:0], 0
	} else if p.head >= 64 && 2*p.head >= len(p.buf) {
		n := copy(p.buf, p.buf[p.head:])
		p.buf, p.head = p.buf[:n], 0
	}
	if p.NumHooks() > 0 {
		p.InvokeHook(sim.HookCtx{Domain: p, Pos: sim.HookPosPortMsgRetrieve, Item: msg})
	}
	if p.full {
		p.full = false
		p.conn.NotifyAvailable(now, p)
	}
	return msg
}

// Peek returns the oldest message without taking it.
func (p *Port) Peek() sim.Msg {
	if p.head == len(p.buf) {
		return nil
	}
	return p.buf[p.head]
}

// NotifyAvailable tells the owner the far side has room again.
func (p *Port) NotifyAvailable(now sim.VTimeInSec) { p.comp.NotifyPortFree(now, p) }
