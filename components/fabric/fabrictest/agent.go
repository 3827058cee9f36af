// Package fabrictest has a test agent for component tests: it sends
// packets into a component and records what comes back or arrives.
package fabrictest

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// Agent sends packets from its port and records every message it gets,
// with the time it logically arrived (hand-over time plus lag).
type Agent struct {
	*sim.ComponentBase
	fabric.Senders
	Engine sim.Engine
	Port   sim.Port
	out    *fabric.Sender

	Got      []sim.Msg
	Arrivals []sim.VTimeInSec
	Bytes    int64 // data bytes received
}

// NewAgent makes an agent with a port of the given capacity.
func NewAgent(name string, engine sim.Engine, capacity int) *Agent {
	a := &Agent{ComponentBase: sim.NewComponentBase(name), Engine: engine}
	a.Port, a.out = a.NewPort(engine, a, capacity, name, "Port")
	return a
}

// Send sends a message at time t.
func (a *Agent) Send(t sim.VTimeInSec, msg sim.Msg) { a.out.SendAt(0, t, msg) }

// Last is when the last message arrived.
func (a *Agent) Last() sim.VTimeInSec {
	if len(a.Arrivals) == 0 {
		return 0
	}
	return a.Arrivals[len(a.Arrivals)-1]
}

// NotifyRecv records every waiting message.
func (a *Agent) NotifyRecv(now sim.VTimeInSec, port sim.Port) {
	for {
		msg := port.Retrieve(now)
		if msg == nil {
			return
		}
		t := now
		if p, ok := msg.(*fabric.Packet); ok {
			t = p.TakeLag(now) + p.Spread // when the last byte is in
			if p.Kind.CarriesData() {
				a.Bytes += int64(p.Size)
			}
		}
		a.Got = append(a.Got, msg)
		a.Arrivals = append(a.Arrivals, t)
	}
}

// Handle fires delayed sends.
func (a *Agent) Handle(e sim.Event) error {
	fabric.HandleSendEvent(e)
	return nil
}

// NotifyPortFree retries held messages.
func (a *Agent) NotifyPortFree(now sim.VTimeInSec, _ sim.Port) { a.RetryAll(now) }
