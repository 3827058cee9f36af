package rccl

import (
	"fmt"
	"slices"

	"github.com/akisim/akisim/ir"
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
	base := x.collFifoBytes(len(p.c.channels)) + int64(p.from)*x.p.BuffBytes
	return base + int64(i%x.p.Steps)*x.p.BuffBytes/int64(x.p.Steps)
}

// flagAt is a counter's offset: after the channels' counters, two per peer.
func (p *pipe) flagAt(head bool) int64 {
	i := 2*len(p.c.channels)*len(connKinds) + 2*p.from
	if head {
		i++
	}
	return p.c.flagAt(i)
}

// sends are the sender's phases: slices of buf from off.
func (p *pipe) sends(buf string, off, bytes int64) []ir.Phase {
	var out []ir.Phase
	for i, s := range p.cut(bytes) {
		ph := ir.Phase{
			Access:  nonEmpty(trace.Access{Buf: buf, Mode: "read", Bytes: s.bytes, Offset: off + s.off}, trace.Access{Buf: p.c.fifo[p.to], Mode: "write", Bytes: s.bytes, Offset: p.slot(i)}),
			Signals: []ir.FlagStore{{Flag: p.tail, Buf: p.c.fifo[p.to], Offset: p.flagAt(false)}}}
		if c := i + 1 - p.x.p.Steps; c > 0 {
			ph.Waits = []ir.FlagCount{{Flag: p.head, Count: c}}
		}
		out = append(out, ph)
	}
	return out
}

// recvs are the receiver's phases: slices into buf from off.
func (p *pipe) recvs(buf string, off, bytes int64) []ir.Phase {
	var out []ir.Phase
	for i, s := range p.cut(bytes) {
		out = append(out, ir.Phase{
			Waits:   []ir.FlagCount{{Flag: p.tail, Count: i + 1}},
			Access:  nonEmpty(trace.Access{Buf: p.c.fifo[p.to], Mode: "read", Bytes: s.bytes, Offset: p.slot(i)}, trace.Access{Buf: buf, Mode: "write", Bytes: s.bytes, Offset: off + s.off}),
			Signals: []ir.FlagStore{{Flag: p.head, Buf: p.c.fifo[p.from], Offset: p.flagAt(true)}}})
	}
	return out
}

// cut splits a message into slot-sized slices; an empty one is one empty
// slice, whose tail still tells the receiver.
func (p *pipe) cut(bytes int64) []slice {
	slot := p.x.p.BuffBytes / int64(p.x.p.Steps)
	out := []slice{{0, min(slot, bytes)}}
	for off := slot; off < bytes; off += slot {
		out = append(out, slice{off, min(slot, bytes-off)})
	}
	return out
}

// allToAll is comm rank me's AllToAll: its own block copied locally, a
// send to and a receive from every peer, each over the peer's channels.
func (x *expander) allToAll(o *trace.Op, c *comm, me int) {
	k := c.colls[me]
	c.colls[me]++
	n := len(c.gcds)
	per := o.Bytes / int64(n)
	kern := x.p2pKernel(o, 1+2*(n-1)*p2pChannelsPerPeer)
	kern.Channels[0] = append(x.prologue(c, me, 0), ir.Phase{Access: []trace.Access{
		{Buf: o.Src, Mode: "read", Bytes: per, Offset: o.SrcOff + int64(me)*per}, {Buf: o.Dst, Mode: "write", Bytes: per, Offset: o.DstOff + int64(me)*per}}})
	id := fmt.Sprintf("a%d", k)
	next := 1
	for d := 1; d < n; d++ {
		to, from := (me+d)%n, (me+n-d)%n
		for part, r := range parts(per) {
			lo, hi := r[0], r[1]
			pid := fmt.Sprintf("%s.%d", id, part)
			kern.Channels[next] = append(x.prologue(c, me, next), x.pipe(c, me, to, pid).sends(o.Src, o.SrcOff+int64(to)*per+lo, hi-lo)...)
			kern.Channels[next+1] = append(x.prologue(c, me, next+1), x.pipe(c, from, me, pid).recvs(o.Dst, o.DstOff+int64(from)*per+lo, hi-lo)...)
			next += 2
		}
	}
	x.launch(o, kern)
}

// parts splits a message over a peer's channels, in whole 16-byte lines:
// part p is [lo, hi) = parts[p].
func parts(bytes int64) [][2]int64 {
	lines := divUp(bytes, 16)
	var out [][2]int64
	for p := range int64(p2pChannelsPerPeer) {
		out = append(out, [2]int64{min(bytes, lines*p/p2pChannelsPerPeer*16), min(bytes, lines*(p+1)/p2pChannelsPerPeer*16)})
	}
	return out
}

// p2pKernel is the kernel of a point-to-point call: Simple, with the
// send/receive primitives' unroll.
func (x *expander) p2pKernel(o *trace.Op, channels int) ir.Command {
	k := x.kernel(o, Choice{Algo: "Ring", Proto: "Simple"}, channels)
	k.InFlight = x.p.P2PInFlight
	return k
}

// p2pCall is an ncclSend or ncclRecv: a kernel with the peer's channels;
// the n-th send from a to b meets the n-th receive at b from a.
func (x *expander) p2pCall(o *trace.Op, c *comm, me int) {
	kern := x.p2pKernel(o, p2pChannelsPerPeer)
	if g := x.groups[o.Rank]; g != nil { // in a group: the GCD's kernel for the group takes its channels
		i := slices.IndexFunc(g.kernels, func(k *groupKernel) bool {
			return *k.call.GCD == *o.GCD && k.call.Stream == o.Stream && k.call.Comm == o.Comm
		})
		if i < 0 {
			gk := &groupKernel{call: o, kern: x.p2pKernel(o, 0)}
			gk.kern.Bytes = 0 // the calls' bytes add up below
			g.kernels = append(g.kernels, gk)
			i = len(g.kernels) - 1
		}
		defer func(k *groupKernel) {
			k.kern.Channels = append(k.kern.Channels, kern.Channels...)
			k.kern.Bytes += o.Bytes
		}(g.kernels[i])
	}
	from, to, count := me, *o.Peer, c.p2p
	if o.Op == trace.RCCLRecv {
		from, to, count = *o.Peer, me, c.p2pRecv
	}
	m := count[from][to]
	count[from][to]++
	for part, r := range parts(o.Bytes) {
		lo, hi := r[0], r[1]
		p := x.pipe(c, from, to, fmt.Sprintf("p%d.%d", m, part))
		kern.Channels[part] = x.prologue(c, me, part)
		if o.Op == trace.RCCLSend {
			kern.Channels[part] = append(kern.Channels[part], p.sends(o.Buf, o.BufOff()+lo, hi-lo)...)
		} else {
			kern.Channels[part] = append(kern.Channels[part], p.recvs(o.Buf, o.BufOff()+lo, hi-lo)...)
		}
	}
	if x.groups[o.Rank] == nil {
		x.launch(o, kern)
	}
}

// nonEmpty keeps the accesses that move bytes.
func nonEmpty(as ...trace.Access) []trace.Access {
	return slices.DeleteFunc(as, func(a trace.Access) bool { return a.Bytes == 0 })
}
