package fabric_test

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// note is a plain message, numbered so tests can check order.
type note struct {
	sim.MsgMeta
	n int
}

func (m *note) Meta() *sim.MsgMeta { return &m.MsgMeta }

// owner is a component for port and sender tests: it counts what its port
// tells it, takes messages only when told to (take), and retries held
// messages on a port-free notice only when told to (retry).
type owner struct {
	*sim.ComponentBase
	fabric.Senders
	Port  sim.Port
	out   *fabric.Sender
	take  bool
	retry bool

	recvs int              // NotifyRecv calls
	frees []sim.VTimeInSec // NotifyPortFree calls
	got   []sim.Msg        // messages taken, in order
	at    []sim.VTimeInSec // when each was taken
}

func newOwner(e sim.Engine, name string, capacity int) *owner {
	o := &owner{ComponentBase: sim.NewComponentBase(name)}
	o.Port, o.out = o.NewPort(e, o, capacity, name, "Port")
	return o
}

// pair makes a sender a (port capacity 4) wired to a receiver b whose port
// holds capacity messages.
func pair(capacity int) (*sim.SerialEngine, *owner, *owner) {
	e := sim.NewSerialEngine()
	a, b := newOwner(e, "A", 4), newOwner(e, "B", capacity)
	fabric.Wire(a.Port, b.Port)
	return e, a, b
}

func (o *owner) NotifyRecv(now sim.VTimeInSec, port sim.Port) {
	o.recvs++
	if o.take {
		for o.takeOne(now) {
		}
	}
}

// sendNotes sends notes from, ..., to-1 at now.
func (o *owner) sendNotes(now sim.VTimeInSec, from, to int) {
	for i := from; i < to; i++ {
		o.out.Send(now, &note{n: i})
	}
}

// takeOne retrieves the oldest message, if any.
func (o *owner) takeOne(now sim.VTimeInSec) bool {
	msg := o.Port.Retrieve(now)
	if msg == nil {
		return false
	}
	o.got = append(o.got, msg)
	o.at = append(o.at, now)
	return true
}

func (o *owner) NotifyPortFree(now sim.VTimeInSec, _ sim.Port) {
	o.frees = append(o.frees, now)
	if o.retry {
		o.RetryAll(now)
	}
}

func (o *owner) Handle(e sim.Event) error {
	fabric.HandleSendEvent(e)
	return nil
}

// order lists the numbers of the notes an owner took.
func (o *owner) order() []int {
	var ns []int
	for _, m := range o.got {
		ns = append(ns, m.(*note).n)
	}
	return ns
}

// upTo is 0, 1, ..., n-1.
func upTo(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
