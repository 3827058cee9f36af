package rccl

import (
	"fmt"
	"slices"

	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"
)

// collective expands comm rank me's call of a collective into its kernel:
// one workgroup per channel, each running the algorithm's program over
// its contiguous part of the data (RCCL's per-channel split), chunk by
// chunk, slice by slice.
func (x *expander) collective(o *trace.Op, c *comm, me int) {
	if o.Op == trace.RCCLAllToAll {
		x.allToAll(o, c, me)
		return
	}
	k := c.colls[me]
	c.colls[me]++
	n := len(c.gcds)
	ch := x.p.choose(o.Op, o.Bytes, n, c)
	pr := x.p.protocol(ch.Proto, ch.Algo, o.Op)
	kern := x.kernel(o, ch, ch.Channels)
	// the data a channel splits: AllGather and ReduceScatter split each
	// rank's part, the others the whole buffer
	unit := o.Bytes
	if o.Op == trace.RCCLAllGather || o.Op == trace.RCCLReduceScatter {
		unit /= int64(n)
	}
	per := roundUp(roundUp(divUp(unit, int64(ch.Channels)), 16), pr.align) // bytes per channel
	chunk := pr.chunk
	chain := o.Op == trace.RCCLBroadcast || o.Op == trace.RCCLReduce
	if ch.Algo == "Tree" || chain && x.p.ChainChunks {
		chunk = pr.shrink(chunk, o.Bytes, ch.Channels, x.treeDepth(c), ch.Algo)
	}
	for cc := range ch.Channels {
		lo, hi := min(int64(cc)*per, unit), min(int64(cc+1)*per, unit)
		if lo == hi { // rounding left no work for this channel and the rest:
			kern.Channels = kern.Channels[:cc] // RCCL launches a workgroup per channel with work
			break
		}
		ring := c.channels[cc].Ranks
		pos := slices.Index(ring, me)
		p := &program{x: x, c: c, o: o, pr: pr, k: k, ch: cc, me: me, n: n, order: ring, pos: pos, trees: len(c.channels)}
		p.out = x.prologue(c, me, cc)
		if ch.Algo == "Tree" {
			kern.Channels[cc] = p.tree(lo, hi, chunk)
		} else {
			kern.Channels[cc] = p.ring(lo, hi, chunk)
		}
		for _, cn := range p.nets {
			x.proxy(c, cn, cn.steps)
		}
	}
	x.launch(o, kern)
}

// program builds one channel's phases for one rank.
type program struct {
	x     *expander
	c     *comm
	o     *trace.Op
	pr    protocol
	k, ch int // the collective's index on the communicator, the channel
	me, n int
	order []int // the channel's ring, comm ranks from rank 0
	pos   int   // me's position in it
	trees int   // the communicator's channels: the first half run tree 0, the rest its mirror
	out   []ir.Phase
	nets  []*conn // the network connections it sends over (their proxies' work follows the kernel)
}

// ring is the ring program over the channel's range [lo, hi) of the unit.
func (p *program) ring(lo, hi, chunk int64) []ir.Phase {
	n, o := p.n, p.o
	prev, next := p.order[(p.pos+n-1)%n], p.order[(p.pos+1)%n]
	in := p.conn(prev, p.me, "ring")
	out := p.conn(p.me, next, "ring")
	rootPos := 0
	if o.Root != nil {
		rootPos = slices.Index(p.order, *o.Root)
	}
	steps := ringSteps(o.Op, n, p.pos, rootPos, o.Src != o.Dst)
	np := int64(pieces(o.Op, n))
	for off := lo; off < hi; {
		ck := chunk
		if o.Op == trace.RCCLAllReduce && hi-off < np*chunk {
			ck = roundUp(divUp(hi-off, np), p.pr.align) // the last loop's chunk
		}
		for _, a := range steps {
			// where piece a.piece of this loop is: AllReduce's pieces
			// follow each other in the channel's range; AllGather's and
			// ReduceScatter's are the same range of each rank's part
			var at, b int64
			switch o.Op {
			case trace.RCCLAllReduce:
				at = off + int64(a.piece)*ck
				b = max(0, min(ck, hi-at))
			default:
				at, b = off, min(ck, hi-off)
			}
			inAt, outAt := p.place(a.piece, at)
			p.step(a, in, out, inAt, outAt, b)
		}
		if o.Op == trace.RCCLAllReduce {
			off += np * ck
		} else {
			off += ck
		}
	}
	return p.out
}

// place is where data at offset at of piece j (a ring position) is in
// the call's input and output buffers.
func (p *program) place(j int, at int64) (in, out int64) {
	owner := int64(p.order[j]) // the rank whose part the piece is
	part := p.o.Bytes / int64(p.n)
	switch p.o.Op {
	case trace.RCCLAllGather:
		return at, owner*part + at
	case trace.RCCLReduceScatter:
		return owner*part + at, at
	}
	return at, at
}

// tree is RCCL's tree AllReduce: inside each node a chain in the
// channel's ring order (from rank 0 on one node, else from where the ring
// enters the node), whose head joins a binary tree of the nodes (the
// heads of its parent and child nodes). Every chunk is reduced up to the
// root node's head, then broadcast down.
func (p *program) tree(lo, hi, chunk int64) []ir.Phase {
	up, downs := p.treePeers()
	var toUp, fromUp *conn
	var fromDowns, toDowns []*conn
	for _, d := range downs {
		fromDowns = append(fromDowns, p.conn(d, p.me, "treeup"))
		toDowns = append(toDowns, p.conn(p.me, d, "treedown"))
	}
	var ups []*conn
	if up >= 0 {
		toUp, fromUp = p.conn(p.me, up, "treeup"), p.conn(up, p.me, "treedown")
		ups = []*conn{toUp}
	}
	for off := lo; off < hi; off += chunk {
		b := min(chunk, hi-off)
		a := action{input: true, recv: len(fromDowns) > 0, send: toUp != nil, output: toUp == nil}
		p.stepConns(a, fromDowns, ups, off, off, b)
	}
	for off := lo; off < hi; off += chunk {
		b := min(chunk, hi-off)
		if up < 0 { // the root sends what it reduced, from its output
			if len(toDowns) > 0 {
				p.stepConns(action{input: true, fromOutput: true, send: true}, nil, toDowns, off, off, b)
			}
			continue
		}
		p.stepConns(action{recv: true, output: true, send: len(toDowns) > 0}, []*conn{fromUp}, toDowns, off, off, b)
	}
	return p.out
}

// treePeers are me's parent in the channel's tree (-1 at the root) and
// its children, comm ranks (NCCL's double binary tree over the nodes,
// connect.cc; the heap order of nodes here is an approximation of its
// bit-reversed trees, the same for one and two nodes).
func (p *program) treePeers() (up int, downs []int) {
	chain := p.nodeChain(p.me)
	i := slices.Index(chain, p.me)
	up = -1
	if i > 0 {
		up = chain[i-1]
	}
	if i+1 < len(chain) {
		downs = append(downs, chain[i+1])
	}
	if i > 0 {
		return up, downs
	}
	nodes := p.x.commNodes(p.c)
	at := slices.Index(nodes, p.x.node(p.c.gcds[p.me]))
	v := at
	mirror := p.ch >= p.trees/2 && p.trees > 1
	if mirror {
		v = len(nodes) - 1 - at
	}
	head := func(v int) int {
		if mirror {
			v = len(nodes) - 1 - v
		}
		return p.headOf(nodes[v])
	}
	if v > 0 {
		up = head((v - 1) / 2)
	}
	for _, c := range []int{2*v + 1, 2*v + 2} {
		if c < len(nodes) {
			downs = append(downs, head(c))
		}
	}
	return up, downs
}

// nodeChain is the part of the channel's ring on rank r's node, in ring
// order from where the ring enters the node (from rank 0 on one node).
func (p *program) nodeChain(r int) []int {
	node := func(q int) int { return p.x.node(p.c.gcds[q]) }
	n := len(p.order)
	start := 0
	for i, q := range p.order {
		if node(q) == node(r) && node(p.order[(i+n-1)%n]) != node(r) {
			start = i
			break
		}
	}
	var chain []int
	for j := range n {
		if q := p.order[(start+j)%n]; node(q) == node(r) {
			chain = append(chain, q)
		}
	}
	return chain
}

// headOf is the first rank of the channel's chain on node k.
func (p *program) headOf(k int) int {
	for _, q := range p.order {
		if p.x.node(p.c.gcds[q]) == k {
			return p.nodeChain(q)[0]
		}
	}
	return -1
}

// step adds the phases of action a on b bytes: input at inAt, output at
// outAt, received over in and sent over out, slice by slice.
func (p *program) step(a action, in, out *conn, inAt, outAt, b int64) {
	var ins, outs []*conn
	if a.recv {
		ins = []*conn{in}
	}
	if a.send {
		outs = []*conn{out}
	}
	p.stepConns(a, ins, outs, inAt, outAt, b)
}

// stepConns is step over several connections: it receives (and reduces)
// from every one of ins and sends to every one of outs (a tree's head
// with a child in its node and children on other nodes).
func (p *program) stepConns(a action, ins, outs []*conn, inAt, outAt, b int64) {
	src, srcOff := p.o.Src, p.o.SrcOff
	if a.fromOutput {
		src, srcOff = p.o.Dst, p.o.DstOff
	}
	for _, s := range p.pr.slices(b) {
		var ph ir.Phase
		if a.recv {
			for _, in := range ins {
				in.recv(&ph, s.bytes*p.pr.wireFactor)
			}
		}
		if a.input && s.bytes > 0 {
			read := trace.Access{Buf: src, Mode: "read", Bytes: s.bytes, Offset: srcOff + inAt + s.off}
			if a.recv && p.pr.name == "LL" {
				// LL loads its input before it spins on the FIFO
				// (LLGenericOp's loadBegin ahead of readLL, prims_ll.h)
				ph.Preload = append(ph.Preload, read)
			} else {
				ph.Access = append(ph.Access, read)
			}
		}
		if a.output && s.bytes > 0 {
			ph.Access = append(ph.Access, trace.Access{Buf: p.o.Dst, Mode: "write", Bytes: s.bytes, Offset: p.o.DstOff + outAt + s.off})
		}
		if a.send {
			for _, out := range outs {
				out.send(&ph, s.bytes*p.pr.wireFactor)
			}
		}
		p.out = append(p.out, ph)
	}
}

// kernel is the phased kernel of call o.
func (x *expander) kernel(o *trace.Op, ch Choice, channels int) ir.Command {
	return ir.Command{Call: trace.Op{Op: trace.Kernel, Name: kernelName(o.Op, ch.Algo, ch.Proto, o.RedOp), GCD: o.GCD, Stream: o.Stream,
		Bytes: o.Bytes, InFlight: x.p.InFlight}, Channels: make([][]ir.Phase, channels), StopEvent: true}
}

func divUp(a, b int64) int64   { return (a + b - 1) / b }
func roundUp(a, b int64) int64 { return divUp(a, b) * b }

// conn is one connection of a channel as one end sees it: from -> to,
// with its FIFO in to's buffer and its counters (tail in to's memory, head
// in from's), counted in slices.
type conn struct {
	pr         protocol
	buf, back  string // the receiver's FIFO buffer, the sender's
	base       int64  // the FIFO's region in buf
	tail, head string
	tailAt     int64 // in buf
	headAt     int64 // in back
	used       int   // slices sent (or received) so far
	// between nodes (net.go): each side writes its counters in its own
	// memory for its proxy, and the sender fills its own buffer
	net                 bool
	from, to            int    // comm ranks
	ch                  int    // the channel
	kind                string // of connection
	localTail, recvHead string // what the sender's and the receiver's proxies poll
	steps               []netStep
	sent                int // slices handed to the proxies so far
}

// Regions of a channel in a FIFO buffer: per kind of connection a
// Simple and an LL FIFO.
var connKinds = []string{"ring", "treeup", "treedown"}

// conn is the connection from -> to of the program's channel for kind.
func (p *program) conn(from, to int, kind string) *conn {
	x, c := p.x, p.c
	name := func(what string) string {
		return fmt.Sprintf("rccl.%s.%d.c%d.%s.%d>%d.%s", c.name, p.k, p.ch, kind, from, to, what)
	}
	ki := slices.Index(connKinds, kind)
	region := x.p.BuffBytes + x.p.llBuffBytes()
	base := int64(p.ch*len(connKinds)+ki) * region
	if p.pr.name == "LL" {
		base += x.p.BuffBytes
	}
	flag := c.flagAt(2 * (p.ch*len(connKinds) + ki))
	cn := &conn{pr: p.pr, buf: c.fifo[to], back: c.fifo[from], base: base, tail: name("tail"), head: name("head"),
		tailAt: flag, headAt: flag + 64, from: from, to: to, ch: p.ch, kind: kind, localTail: name("ltail"), recvHead: name("rhead"),
		net: x.node(c.gcds[from]) != x.node(c.gcds[to])}
	if cn.net && from == p.me {
		p.nets = append(p.nets, cn)
	}
	return cn
}

// slot is the offset of slice i in the FIFO.
func (cn *conn) slot(i int) int64 {
	return cn.base + int64(i*cn.pr.sliceSteps%cn.pr.steps)*cn.pr.slotBytes
}

// send adds to ph the store of a slice of wire bytes into the FIFO: once
// the receiver has freed its slots, then the tail store.
func (cn *conn) send(ph *ir.Phase, wire int64) {
	if c := cn.used + 1 - cn.pr.credits; c > 0 {
		ph.Waits = append(ph.Waits, ir.FlagCount{Flag: cn.head, Count: c})
	}
	if cn.net { // into its own buffer, for its proxy to send
		if wire > 0 {
			ph.Access = append(ph.Access, trace.Access{Buf: cn.back, Mode: "write", Bytes: wire, Offset: cn.slot(cn.used)})
		}
		ph.Signals = append(ph.Signals, ir.FlagStore{Flag: cn.localTail, Buf: cn.back, Offset: cn.tailAt})
		cn.steps = append(cn.steps, netStep{slot: cn.slot(cn.used), bytes: wire})
		cn.used++
		return
	}
	if wire > 0 {
		ph.Access = append(ph.Access, trace.Access{Buf: cn.buf, Mode: "write", Bytes: wire, Offset: cn.slot(cn.used)})
	}
	ph.Signals = append(ph.Signals, ir.FlagStore{Flag: cn.tail, Buf: cn.buf, Offset: cn.tailAt, InData: cn.pr.inData})
	cn.used++
}

// recv adds to ph the wait for a slice, its read, and the head store
// that frees its slots.
func (cn *conn) recv(ph *ir.Phase, wire int64) {
	ph.Waits = append(ph.Waits, ir.FlagCount{Flag: cn.tail, Count: cn.used + 1, InData: cn.pr.inData && !cn.net, Recv: true})
	if wire > 0 {
		ph.Access = append(ph.Access, trace.Access{Buf: cn.buf, Mode: "read", Bytes: wire, Offset: cn.slot(cn.used)})
	}
	if cn.net { // the slot is free: for its proxy to post the next receive
		ph.Signals = append(ph.Signals, ir.FlagStore{Flag: cn.recvHead, Buf: cn.buf, Offset: cn.headAt})
	} else {
		ph.Signals = append(ph.Signals, ir.FlagStore{Flag: cn.head, Buf: cn.back, Offset: cn.headAt})
	}
	cn.used++
}

// commNodes are the nodes of c's GCDs, in the order of their first rank.
func (x *expander) commNodes(c *comm) []int {
	var nodes []int
	for _, g := range c.gcds {
		if k := x.node(g); !slices.Contains(nodes, k) {
			nodes = append(nodes, k)
		}
	}
	return nodes
}

// treeDepth is RCCL's tree.depth, which sizes a tree's chunks: the chain
// inside a node, then the levels of the tree of nodes.
func (x *expander) treeDepth(c *comm) int {
	nodes := len(x.commNodes(c))
	return len(c.gcds)/nodes - 1 + log2i(int64(nodes))
}
