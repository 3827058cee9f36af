package nic

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/hub"
	"github.com/sarchlab/akita/v3/sim"
)

// A write that comes in from the network is acknowledged by the NIC, not
// by the memory it is for: the NIC takes the data, answers the sender and
// writes it into its node's memory itself (posted PCIe writes, kept in
// order), so the sender's completion does not wait on the far node's
// fabric. A fence (flush) from the network is answered the same way.

// bridge takes a write or flush that came from the network and is bound
// past the NIC.
func (n *NIC) bridge(now sim.VTimeInSec, p *fabric.Packet) bool {
	if p.Back || p.AtLastHub() || !n.network[p.PrevHub()] {
		return false
	}
	lag := p.Lag // the packet is logically here that much later
	switch p.Kind {
	case fabric.WriteReq:
		n.bridged++
		w := fabric.NewRequest(fabric.WriteReq, p.Size, p.Target, p.Route[p.Hop:], n.writer.port, nil)
		w.Addr, w.Spread, w.Unordered, w.Task = p.Addr, p.Spread, p.Unordered, p.Task
		w.Lag = lag + n.Hub.ForwardDelay // through the NIC onto its PCIe link
		n.Hub.Route(now, w)
		spread := p.Spread
		p.Respond(fabric.WriteAck, p.Size)
		p.Lag, p.Spread = lag, spread // acknowledged as the data streams in
		n.Hub.Route(now, p)
		return true
	case fabric.FlushReq:
		p.Respond(fabric.FlushAck, 0)
		p.Lag = lag
		n.Hub.Route(now, p)
		return true
	}
	return false
}

// writer is the requester of the NIC's own writes: it drops their
// acknowledgements.
type writer struct {
	*sim.ComponentBase
	fabric.Senders // none sends; Wire needs the far port's record
	port           sim.Port
	acks           uint64
}

func newWriter(name string, e sim.Engine, h *hub.Hub) *writer {
	w := &writer{ComponentBase: sim.NewComponentBase(name)}
	w.port = fabric.NewPort(w, 1024, name+".Port")
	w.AddPort("Port", w.port)
	w.Add(e, w, w.port)
	fabric.Wire(h.LocalPort("Writer", w.port), w.port)
	return w
}

// NotifyRecv drops the acknowledgements of the NIC's writes.
func (w *writer) NotifyRecv(now sim.VTimeInSec, port sim.Port) {
	for port.Retrieve(now) != nil {
		w.acks++
	}
}

// NotifyPortFree has nothing to retry.
func (w *writer) NotifyPortFree(sim.VTimeInSec, sim.Port) {}

// Handle has no events.
func (w *writer) Handle(sim.Event) error { return nil }

// Writes is the number of writes the NIC made into its node's memory for
// data that came in from the network (acknowledged so far).
func (n *NIC) Writes() uint64 { return n.writer.acks }

// Bridged is the number of writes from the network the NIC took in and
// passed on into its node; once a run is over every one is acknowledged.
func (n *NIC) Bridged() uint64 { return n.bridged }
