package rccl

import (
	"fmt"

	"github.com/akisim/akisim/trace"
)

// Point to point (ncclSend / ncclRecv, and AllToAll as RCCL runs it: a
// send to and a receive from every peer): the sender stores slices into
// the receiver's FIFO for it and bumps its tail; the receiver copies them
// out and bumps the sender's head. Simple protocol, a slot per slice.

// pipe is one direction of a point-to-point connection for one message.
type pipe struct {
	x          *expander
	c          *comm
	from, to   int
	tail, head string
}

func (x *expander) pipe(c *comm, from, to int, id string) *pipe {
	name := func(what string) string { return fmt.Sprintf("rccl.%s.%s.%d>%d.%s", c.name, id, from, to, what) }
	return &pipe{x: x, c: c, from: from, to: to, tail: name("tail"), head: name("head")}
}

// slot is where slice i lands in the receiver's FIFO for the sender.
func (p *pipe) slot(i int) int64 {
	x := p.x
	base := int64(len(p.c.channels)*len(connKinds))*(x.p.BuffBytes+x.p.llBuffBytes()) + int64(p.from)*x.p.BuffBytes
	return base + int64(i%x.p.Steps)*x.p.BuffBytes/int64(x.p.Steps)
}

// flagAt is a counter's offset: after the channels' counters, two per peer.
func (p *pipe) flagAt(head bool) int64 {
	i := int64(2*len(p.c.channels)*len(connKinds) + 2*p.from)
	if head {
		i++
	}
	return p.c.flags + i%(flagArea/64)*64
}

// sends are the sender's phases: slices of buf from off.
func (p *pipe) sends(buf string, off, bytes int64) []trace.Phase {
	var out []trace.Phase
	for i, s := range p.cut(bytes) {
		ph := trace.Phase{
			Access:  []trace.Access{{Buf: buf, Mode: "read", Bytes: s.bytes, Offset: off + s.off}, {Buf: p.c.fifo[p.to], Mode: "write", Bytes: s.bytes, Offset: p.slot(i)}},
			Signals: []trace.FlagStore{{Flag: p.tail, Buf: p.c.fifo[p.to], Offset: p.flagAt(false)}}}
		if c := i + 1 - p.x.p.Steps; c > 0 {
			ph.Waits = []trace.FlagCount{{Flag: p.head, Count: c}}
		}
		out = append(out, ph)
	}
	return out
}

// recvs are the receiver's phases: slices into buf from off.
func (p *pipe) recvs(buf string, off, bytes int64) []trace.Phase {
	var out []trace.Phase
	for i, s := range p.cut(bytes) {
		out = append(out, trace.Phase{
			Waits:   []trace.FlagCount{{Flag: p.tail, Count: i + 1}},
			Access:  []trace.Access{{Buf: p.c.fifo[p.to], Mode: "read", Bytes: s.bytes, Offset: p.slot(i)}, {Buf: buf, Mode: "write", Bytes: s.bytes, Offset: off + s.off}},
			Signals: []trace.FlagStore{{Flag: p.head, Buf: p.c.fifo[p.from], Offset: p.flagAt(true)}}})
	}
	return out
}

// cut splits a message into slot-sized slices.
func (p *pipe) cut(bytes int64) []slice {
	slot := p.x.p.BuffBytes / int64(p.x.p.Steps)
	var out []slice
	for off := int64(0); off < bytes; off += slot {
		out = append(out, slice{off, min(slot, bytes-off)})
	}
	return out
}

// allToAll is comm rank me's AllToAll: its own block copied locally, a
// send to and a receive from every peer, each on its own channel.
func (x *expander) allToAll(o *trace.Op, c *comm, me int) {
	k := c.colls[me]
	c.colls[me]++
	n := len(c.gcds)
	per := o.Bytes / int64(n)
	kern := x.kernel(o, Choice{Algo: "Ring", Proto: "Simple"}, 2*n-1)
	kern.Channels[0] = []trace.Phase{{Access: []trace.Access{
		{Buf: o.Src, Mode: "read", Bytes: per, Offset: int64(me) * per}, {Buf: o.Dst, Mode: "write", Bytes: per, Offset: int64(me) * per}}}}
	id := fmt.Sprintf("a%d", k)
	for d := 1; d < n; d++ {
		to, from := (me+d)%n, (me+n-d)%n
		kern.Channels[2*d-1] = x.pipe(c, me, to, id).sends(o.Src, int64(to)*per, per)
		kern.Channels[2*d] = x.pipe(c, from, me, id).recvs(o.Dst, int64(from)*per, per)
	}
	x.emit(o, kern)
}

// p2pCall is an ncclSend or ncclRecv: a kernel of one channel; the n-th
// send from a to b meets the n-th receive at b from a.
func (x *expander) p2pCall(o *trace.Op, c *comm, me int) {
	kern := x.kernel(o, Choice{Algo: "Ring", Proto: "Simple"}, 1)
	if o.Op == trace.RCCLSend {
		m := c.p2p[me][*o.Peer]
		c.p2p[me][*o.Peer]++
		kern.Channels[0] = x.pipe(c, me, *o.Peer, fmt.Sprintf("p%d", m)).sends(o.Buf, 0, o.Bytes)
	} else {
		m := c.p2pRecv[*o.Peer][me]
		c.p2pRecv[*o.Peer][me]++
		kern.Channels[0] = x.pipe(c, *o.Peer, me, fmt.Sprintf("p%d", m)).recvs(o.Buf, 0, o.Bytes)
	}
	x.emit(o, kern)
}
