// Package hub models a data-fabric switch: a GCD's hub joining its HBM,
// SDMA engines, L2, host link and xGMI bundles, or the host IO die joining
// host links, cores and NUMA memory controllers.
package hub

import (
	"fmt"

	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// Hub forwards packets hop by hop along their route: to the link towards
// the next hub, or at the last hub to the memory a request targets or the
// requester a response answers.
type Hub struct {
	*sim.ComponentBase
	engine sim.Engine
	ID     int // hub index in routes

	ForwardDelay sim.VTimeInSec // passing a packet from one link to another
	ReorderDelay sim.VTimeInSec // reordering a packet that crossed a multi-link bundle
	// MemoryDelay is the extra latency of delivering a request to a memory,
	// given the hub it entered from (NUMA distance on the host).
	MemoryDelay func(p *fabric.Packet) sim.VTimeInSec
	// Bridge, if set, may take a packet that came over a link before the
	// hub routes it (a NIC answering network writes itself); it says
	// whether it did.
	Bridge func(now sim.VTimeInSec, p *fabric.Packet) bool
	// Adapt, if set, may rewrite the rest of a packet's route before the
	// hub forwards it (a switch routing adaptively by load). It may also
	// split the packet over several routes, returning the parts to forward
	// instead, or hold a part until the others arrive (held), returning
	// the rejoined packet with the last of them.
	Adapt func(now sim.VTimeInSec, p *fabric.Packet) (out []*fabric.Packet, held bool)

	// by neighbour hub: port towards its link; by memory index: port to its
	// controller. Tables: hub and memory ids are global in a cluster.
	links    table[int]
	memories table[int]
	locals   portTable // requester port -> port towards it
	fabric.Senders
	Forwarded uint64 // packets passed through to another hub
}

func (h *Hub) newPort(name string) (sim.Port, *fabric.Sender) {
	return h.NewPort(h.engine, h, 64, h.Name(), name)
}

// LinkPort makes the port towards the link that leads to hub neighbour.
func (h *Hub) LinkPort(neighbour int) sim.Port {
	p, s := h.newPort(fmt.Sprintf("Link[%d]", neighbour))
	h.links.put(neighbour, s)
	return p
}

// MemoryPort makes the port to the controller of memory index.
func (h *Hub) MemoryPort(index int) sim.Port {
	p, s := h.newPort(fmt.Sprintf("Memory[%d]", index))
	h.memories.put(index, s)
	return p
}

// LocalPort makes the port to a requester (an SDMA engine) whose own port is far.
func (h *Hub) LocalPort(name string, far sim.Port) sim.Port {
	p, s := h.newPort(name)
	h.locals.put(far, s)
	return p
}

// NotifyRecv takes every packet waiting at a port and forwards it.
func (h *Hub) NotifyRecv(now sim.VTimeInSec, port sim.Port) {
	for {
		msg := port.Retrieve(now)
		if msg == nil {
			return
		}
		h.route(now, msg.(*fabric.Packet))
	}
}

// overLink says whether p came to its hub over a link rather than from a
// requester or memory attached there: it is past the first hub of its way
// (a request's Hop 0, a response's last hub, where the memory answered).
// The packet says so itself: no per-packet search of the arrival port.
func overLink(p *fabric.Packet) bool {
	if p.Back {
		return p.Hop != len(p.Route)-1
	}
	return p.Hop != 0
}

// Route forwards p one hop, or hands it to the memory or requester at its
// last hub (for a bridge sending packets of its own).
func (h *Hub) Route(now sim.VTimeInSec, p *fabric.Packet) { h.route(now, p) }

func (h *Hub) route(now sim.VTimeInSec, p *fabric.Packet) { h.Take(now, nil, p) }

// Take forwards a packet as it arrives: the routing itself, so a packet
// handed over by a port costs no call more.
func (h *Hub) Take(now sim.VTimeInSec, _ sim.Port, msg sim.Msg) {
	p := msg.(*fabric.Packet)
	if p.Notice != nil && p.NoticeHub == h.ID {
		// the packet's last byte passes Spread after its first
		p.Notice(now + p.Lag + p.Spread)
		p.Notice = nil
	}
	if h.Bridge != nil && overLink(p) && h.Bridge(now, p) {
		return
	}
	delay := sim.VTimeInSec(0)
	if !p.AtLastHub() {
		through := overLink(p)
		if through {
			p.Lag += h.ForwardDelay // before Adapt: it weighs links from when the packet reaches them
		}
		if h.Adapt != nil {
			out, held := h.Adapt(now, p)
			if held {
				return
			}
			for _, q := range out {
				h.forward(now, q, through)
			}
			if out != nil {
				return
			}
		}
		h.forward(now, p, through)
		return
	}
	if p.Unordered {
		delay += h.ReorderDelay
		p.Unordered = false
	}
	var s *fabric.Sender
	if p.Kind.IsResponse() {
		s = h.locals.get(p.Requester)
	} else {
		s = h.memories.get(p.Target.Index)
		if h.MemoryDelay != nil {
			delay += h.MemoryDelay(p)
		}
	}
	p.Lag += delay
	s.Send(now, p)
}

// forward sends p on to its next hub.
func (h *Hub) forward(now sim.VTimeInSec, p *fabric.Packet, through bool) {
	if through {
		h.Forwarded++
	}
	next := p.NextHub()
	p.Advance()
	h.links.get(next).Send(now, p)
}

// Handle fires delayed sends.
func (h *Hub) Handle(e sim.Event) error {
	fabric.HandleSendEvent(e)
	return nil
}

// NotifyPortFree retries held packets.
func (h *Hub) NotifyPortFree(now sim.VTimeInSec, _ sim.Port) { h.RetryAll(now) }
