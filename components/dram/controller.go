package dram

import (
	"fmt"

	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// Controller serves reads and writes of one memory (a NUMA domain's DDR4
// channels or a GCD's HBM): requests queue for its bandwidth, then answer
// after its access latency. All traffic to the memory shares it.
type Controller struct {
	*sim.ComponentBase
	engine sim.Engine
	fabric.Senders

	Port    sim.Port
	out     *fabric.Sender
	bw      *fabric.Server // its own, or one shared with the other controllers of a memory partition
	latency sim.VTimeInSec

	Reads, Writes         uint64
	BytesRead, BytesWrite uint64
}

// NotifyRecv serves every waiting request.
func (m *Controller) NotifyRecv(now sim.VTimeInSec, port sim.Port) {
	for {
		msg := port.Retrieve(now)
		if msg == nil {
			return
		}
		m.Take(now, port, msg)
	}
}

// Take serves a request as it arrives.
func (m *Controller) Take(now sim.VTimeInSec, _ sim.Port, msg sim.Msg) {
	p := msg.(*fabric.Packet)
	at := p.TakeLag(now)
	var rsp *fabric.Packet
	done := at
	switch p.Kind {
	case fabric.ReadReq:
		// the data streams out as it is read
		first, spread := m.bw.Stream(now, at, p.Size, 0)
		m.Reads++
		m.BytesRead += uint64(p.Size)
		if m.NumHooks() > 0 {
			m.trace(p, "read", first, spread)
		}
		rsp = p.Respond(fabric.ReadRsp, p.Size)
		rsp.Spread = spread
		done = first
	case fabric.WriteReq:
		// written as it streams in; each byte acknowledged once written:
		// the acknowledgement streams back over the same spread
		first, spread := m.bw.Stream(now, at, p.Size, p.Spread)
		p.Land(first + spread)
		done = first
		m.Writes++
		m.BytesWrite += uint64(p.Size)
		if m.NumHooks() > 0 {
			m.trace(p, "write", first, spread)
		}
		rsp = p.Respond(fabric.WriteAck, p.Size)
		rsp.Spread = spread
	case fabric.FlushReq:
		rsp = p.Respond(fabric.FlushAck, 0)
	default:
		panic("memory controller got a " + p.Kind.String())
	}
	rsp.Lag = done + m.latency - now
	m.out.Send(now, rsp)
}

// trace reports a read or write as a task of the packet's own (a copy's,
// a kernel step's), at the memory: its data streams through from first,
// for spread. Called only while a tracer is hooked.
func (m *Controller) trace(p *fabric.Packet, what string, first, spread sim.VTimeInSec) {
	fabric.Task(m, fmt.Sprintf("%s.access[%d]", m.Name(), m.Reads+m.Writes), p.TaskID(), "access",
		fmt.Sprintf("%s %d B", what, p.Size), m.Name(), first, first+spread, p.Size)
}

// Handle fires delayed responses.
func (m *Controller) Handle(e sim.Event) error {
	fabric.HandleSendEvent(e)
	return nil
}

// NotifyPortFree retries held responses.
func (m *Controller) NotifyPortFree(now sim.VTimeInSec, _ sim.Port) { m.RetryAll(now) }

// BusyTime is the time the memory spent transferring data.
func (m *Controller) BusyTime() sim.VTimeInSec { return m.bw.Busy }
