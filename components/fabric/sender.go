package fabric

import "github.com/sarchlab/akita/v3/sim"

// Sender sends messages out of one port at given times, in order, holding
// them while the far side is full (back-pressure) and retrying when the
// port frees. Components call Retry from NotifyPortFree.
type Sender struct {
	engine  sim.Engine
	handler sim.Handler
	port    sim.Port
	peer    sim.Port
	waiting []sim.Msg
	due     []dueMsg // messages given to SendAt for later, in the order given
	// own and far are port and peer when both are Ports joined by a Conn:
	// Send then does what Port.Send and Conn.Send do without their
	// interface calls.
	own, far *Port
}

// dueMsg is a message SendAt holds until its time.
type dueMsg struct {
	t   sim.VTimeInSec
	msg sim.Msg
}

// NewSender makes a sender for a port owned by handler.
func NewSender(engine sim.Engine, handler sim.Handler, port sim.Port) *Sender {
	return &Sender{engine: engine, handler: handler, port: port}
}

// Port is the port the sender sends from.
func (s *Sender) Port() sim.Port { return s.port }

// Peer is the port at the far end of the connection.
func (s *Sender) Peer() sim.Port { return s.peer }

// sendEvent fires when a message is due to leave.
type sendEvent struct {
	EventAt
	sender *Sender
}

// IsSendEvent lets a component route the event back to its sender.
func IsSendEvent(e sim.Event) bool {
	switch ev := e.(type) {
	case *sendEvent:
		return true
	case *PacketEvent:
		return ev.sender != nil
	}
	return false
}

// HandleSendEvent handles an event made by SendAt.
func HandleSendEvent(e sim.Event) {
	switch ev := e.(type) {
	case *sendEvent:
		ev.sender.sendDue(ev.Time())
	case *PacketEvent:
		ev.sender.Send(ev.Time(), ev.Pkt)
	}
}

// SendAt sends msg at time t (now or later).
func (s *Sender) SendAt(now, t sim.VTimeInSec, msg sim.Msg) {
	if t <= now {
		s.Send(now, msg)
		return
	}
	if p, ok := msg.(*Packet); ok {
		ev := p.Event(t, s.handler, 0)
		ev.sender = s
		s.engine.Schedule(ev)
		return
	}
	s.due = append(s.due, dueMsg{t, msg})
	s.engine.Schedule(&sendEvent{EventAt: EventAt{t, s.handler}, sender: s})
}

// sendDue sends the held messages whose time has come, in the order they
// were given: the engine runs events of equal time in no set order.
func (s *Sender) sendDue(now sim.VTimeInSec) {
	kept := s.due[:0]
	for _, d := range s.due {
		if d.t <= now {
			s.Send(now, d.msg)
		} else {
			kept = append(kept, d)
		}
	}
	clear(s.due[len(kept):])
	s.due = kept
}

// Send sends msg now, or queues it behind earlier messages still waiting.
func (s *Sender) Send(now sim.VTimeInSec, msg sim.Msg) {
	var m *sim.MsgMeta
	if p, ok := msg.(*Packet); ok { // most messages: no interface call
		m = &p.MsgMeta
	} else {
		m = msg.Meta()
	}
	m.Src = s.port
	m.Dst = s.peer
	m.SendTime = now
	if len(s.waiting) == 0 {
		// send, and the far port's recv, without their calls when the
		// far port hands msg straight to its owner
		if own, far := s.own, s.far; own != nil && own.direct != nil && own.NumHooks() == 0 && far.straight() {
			m.RecvTime = now
			far.taker.Take(now, far, msg)
			return
		}
		if s.send(msg, m) == nil {
			return
		}
	}
	s.waiting = append(s.waiting, msg)
}

// send is s.port.Send(msg), m its meta data: straight into the far Port
// when a Conn joins the two.
func (s *Sender) send(msg sim.Msg, m *sim.MsgMeta) *sim.SendError {
	own := s.own
	if own == nil || own.direct == nil { // plugged into a Conn: its conn is direct
		return s.port.Send(msg)
	}
	m.RecvTime = m.SendTime
	err := s.far.recv(m.RecvTime, msg)
	if err == nil && own.NumHooks() > 0 {
		own.InvokeHook(sim.HookCtx{Domain: own, Pos: sim.HookPosPortMsgSend, Item: msg})
	}
	return err
}

// Retry sends held messages while the far side accepts them.
func (s *Sender) Retry(now sim.VTimeInSec) {
	for len(s.waiting) > 0 {
		msg := s.waiting[0]
		m := msg.Meta()
		m.SendTime = now
		if s.send(msg, m) != nil {
			return
		}
		s.waiting = s.waiting[1:]
	}
}

// Pending is the number of messages held back.
func (s *Sender) Pending() int { return len(s.waiting) }

// Senders keeps a component's senders by port, so wiring can tell each the
// far port and port-free notifications can retry them all.
type Senders struct {
	list []*Sender // a component has a few ports: a search beats a map made per component
}

// Add makes a sender for a port owned by handler.
func (ss *Senders) Add(engine sim.Engine, handler sim.Handler, port sim.Port) *Sender {
	s := NewSender(engine, handler, port)
	ss.list = append(ss.list, s)
	return s
}

// byPort is the sender last added for port, nil if none.
func (ss *Senders) byPort(port sim.Port) *Sender {
	for i := len(ss.list) - 1; i >= 0; i-- {
		if ss.list[i].port == port {
			return ss.list[i]
		}
	}
	return nil
}

// SetPeer records the far end of a local port (called by Wire).
func (ss *Senders) SetPeer(local, far sim.Port) {
	s := ss.byPort(local)
	s.peer, s.own, s.far = far, nil, nil
	own, ok1 := local.(*Port)
	f, ok2 := far.(*Port)
	if ok1 && ok2 && own.direct != nil && own.direct.ends[0] != nil && (own.direct.ends[0] == sim.Port(f) || own.direct.ends[1] == sim.Port(f)) {
		s.own, s.far = own, f
	}
}

// RetryAll retries every sender; call it from NotifyPortFree.
func (ss *Senders) RetryAll(now sim.VTimeInSec) {
	for _, s := range ss.list {
		s.Retry(now)
	}
}

// Peered is a component whose ports send through Senders.
type Peered interface {
	SetPeer(local, far sim.Port)
}

// Wire joins two ports with a Conn and tells both owners who is at the
// far end.
func Wire(a, b sim.Port) {
	c := &Conn{}
	c.PlugIn(a, 0)
	c.PlugIn(b, 0)
	a.Component().(Peered).SetPeer(a, b)
	b.Component().(Peered).SetPeer(b, a)
}

// EventAt is an event base without Akita's string ID: generating one costs
// an allocation per event and nothing in akisim reads it.
type EventAt struct {
	T sim.VTimeInSec
	H sim.Handler
}

// Time is when the event fires.
func (e EventAt) Time() sim.VTimeInSec { return e.T }

// Handler is the component that handles the event.
func (e EventAt) Handler() sim.Handler { return e.H }

// IsSecondary is false: akisim's events are all primary.
func (e EventAt) IsSecondary() bool { return false }

// Owner is a component that owns named ports.
type Owner interface {
	sim.Component
	AddPort(name string, port sim.Port)
}

// NewPort makes the port base+"."+name of comp, holding capacity messages,
// registers it and returns it with the sender comp sends through.
func (ss *Senders) NewPort(engine sim.Engine, comp Owner, capacity int, base, name string) (sim.Port, *Sender) {
	p := NewPort(comp, capacity, base+"."+name)
	comp.AddPort(name, p)
	return p, ss.Add(engine, comp, p)
}
