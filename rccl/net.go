package rccl

import (
	"fmt"
	"slices"

	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"
)

// Between nodes (docs/references.md [rccl], facts from ROCm/rccl
// src/transport/net.cc and src/graph/rome_models.cc): RCCL's rings cross
// the network once per node. Each node's part of a ring is a chain that
// enters the node at the NIC of its first GCD and leaves at the NIC of its
// last (model 74: N0 0 1 5 4 6 7 3 2 N1 and three more). A network
// connection's FIFO has a buffer on each side, in GPU memory (GPU Direct
// RDMA); a proxy thread on each side's host drives it step by step: the
// sender's kernel fills a slot of its own buffer and bumps a counter its
// proxy polls; the proxy sends the slot over the NIC (libfabric: eager up
// to FI_CXI_RDZV_THRESHOLD + GET_MIN, else a 2 KiB put and a get by the
// receiver's NIC once its proxy has posted the receive, i.e. the slot is
// free); when the data is in, the receiver's NIC completion raises the
// counter the receiving kernel polls, and the send's completion frees the
// sender's slot.
//
// Approximations: each end of a network connection has its own proxy
// thread, which takes its steps in order (RCCL's one proxy thread per GPU
// walks all its connections round robin; serving them one by one would
// deadlock a ring, so akisim gives each its own); the receive's flush (a 4-byte
// NIC read) is folded into the NIC's completion event (nic.event_ns); LL
// buffers stay in GPU memory (RCCL keeps them in host memory). AllReduce
// between nodes runs rings or RCCL's tree (collective.go).

// ProxyRank is the first host thread id of the proxy threads.
const ProxyRank = 1 << 20

// proxyKey names one end of a network connection of a channel.
type proxyKey struct {
	comm     string
	ch       int
	kind     string
	from, to int
	send     bool
}

// proxyThread is the host thread of an end of a connection, started (it
// waits for its communicator's buffers) at first use.
func (x *expander) proxyThread(c *comm, k proxyKey) int {
	r, ok := x.proxies[k]
	if !ok {
		r = ProxyRank + len(x.proxies)
		x.proxies[k] = r
		x.out = append(x.out, ir.Command{Call: trace.Op{Op: trace.FlagWait, Flag: c.ready, Rank: r}})
	}
	return r
}

// model74 are RCCL's chains for a node of model 73's links with its four
// NICs (rome_model_74 ringBase), each a node's part of a ring.
var model74 = [][]int{{0, 1, 5, 4, 6, 7, 3, 2}, {2, 3, 7, 6, 4, 5, 1, 0}, {7, 6, 0, 1, 3, 2, 4, 5}, {5, 4, 2, 3, 1, 0, 6, 7}}

// node is the node of a GCD.
func (x *expander) node(g int) int {
	if x.p.Net.GCDsPerNode == 0 {
		return 0
	}
	return g / x.p.Net.GCDsPerNode
}

// rings are the rings of a communicator over gcds: on one node from its
// link graph; across nodes every node's chain, as RCCL cuts each ring
// where it leaves a node and enters the next.
func (x *expander) rings(gcds []int) ([]Ring, error) {
	per := max(x.p.Net.GCDsPerNode, 1)
	var nodes []int
	byNode := map[int][]int{} // node -> comm ranks on it, in comm order
	for r, g := range gcds {
		k := x.node(g)
		if _, ok := byNode[k]; !ok {
			nodes = append(nodes, k)
		}
		byNode[k] = append(byNode[k], r)
	}
	local := func(k int) []int {
		var l []int
		for _, r := range byNode[k] {
			l = append(l, gcds[r]%per)
		}
		return l
	}
	first := local(nodes[0])
	for _, k := range nodes[1:] {
		if !slices.Equal(local(k), first) {
			return nil, fmt.Errorf("rccl: a communicator across nodes needs the same GCDs, in the same order, on every node: node %d has %v, node %d %v",
				nodes[0], first, k, local(k))
		}
	}
	rings, err := Rings(x.t, first)
	if err != nil {
		return nil, err
	}
	if len(nodes) == 1 {
		for i := range rings {
			rings[i].GCDs = ranksToGCDs(rings[i].Ranks, gcds)
		}
		return rings, nil
	}
	model := isModel73(x.t, first)
	for i := range rings {
		chain := x.cut(rings[i].Ranks, first, model)
		var ranks []int
		for _, k := range nodes {
			for _, j := range chain {
				ranks = append(ranks, byNode[k][j])
			}
		}
		// ring order from comm rank 0, as single-node rings are
		at := slices.Index(ranks, 0)
		ranks = append(ranks[at:], ranks[:at]...)
		rings[i].Ranks, rings[i].GCDs = ranks, ranksToGCDs(ranks, gcds)
	}
	return rings, nil
}

func ranksToGCDs(ranks, gcds []int) []int {
	out := make([]int, len(ranks))
	for i, r := range ranks {
		out[i] = gcds[r]
	}
	return out
}

// cut opens a node's ring (positions into local, a cycle) into the chain
// from where it enters the node to where it leaves: model 74's chain for a
// model-73 node, else after the link of fewest lanes whose ends use
// different NICs (the first such in ring order), so that the ring enters
// and leaves through two NICs.
func (x *expander) cut(ring, local []int, model bool) []int {
	n := len(ring)
	cycle := make([]int, n)
	for i, j := range ring {
		cycle[i] = local[j]
	}
	start := -1
	if model {
		for _, ch := range model74 {
			if at := slices.Index(cycle, ch[0]); at >= 0 && slices.Equal(append(slices.Clone(cycle[at:]), cycle[:at]...), ch) {
				start = at
			}
		}
	}
	if start < 0 {
		best := -1
		for i := range n {
			u, v := cycle[i], cycle[(i+1)%n]
			if n > 1 && x.p.Net.NICOf[u] == x.p.Net.NICOf[v] {
				continue
			}
			if best < 0 || x.t.Lanes[u][v] < x.t.Lanes[cycle[best]][cycle[(best+1)%n]] {
				best = i
			}
		}
		start = (best + 1) % n // best < 0 (one NIC): the ring as it is
	}
	return append(slices.Clone(ring[start:]), ring[:start]...)
}

// netStep is one slice a network connection moves: its FIFO slot and bytes.
type netStep struct {
	slot, bytes int64
}

// proxy emits the proxy threads' work for a network connection's steps:
// the sender's proxy sends each slot once its kernel has filled it; for
// rendezvous sizes the receiver's proxy posts the receive once its
// kernel has freed the slot, and its NIC gets the data.
func (x *expander) proxy(c *comm, cn *conn, steps []netStep) {
	from, to := cn.from, cn.to
	gFrom, gTo := c.gcds[from], c.gcds[to]
	key := proxyKey{c.name, cn.ch, cn.kind, from, to, true}
	sender := x.proxyThread(c, key)
	key.send = false
	receiver := x.proxyThread(c, key)
	sendNIC, recvNIC := x.p.Net.NICOf[gFrom], x.p.Net.NICOf[gTo]
	streams := max(x.p.Net.Streams, 1)
	stream := func(rank int) int {
		x.proxyCopies[rank]++
		return trace.MaxStream + 2 + x.proxyCopies[rank]%streams
	}
	for i, s := range steps {
		x.out = append(x.out, ir.Command{Call: trace.Op{Op: trace.FlagWait, Flag: cn.localTail, Rank: sender}, GPUCount: cn.sent + i + 1})
		put := ir.Command{Call: trace.Op{Op: trace.MemcpyAsync, Src: c.fifo[from], SrcOff: s.slot, Dst: c.fifo[to], DstOff: s.slot,
			Bytes: s.bytes, Rank: sender, Stream: stream(sender)}, NIC: &sendNIC, RecvNIC: &recvNIC}
		if s.bytes <= x.p.Net.EagerMax {
			put.LandGPUFlag, put.SetGPUFlag = cn.tail, cn.head
			x.out = append(x.out, put)
			continue
		}
		e := x.p.Net.EagerSize
		rts := fmt.Sprintf("%s.rts%d", cn.tail, cn.sent+i)
		put.Bytes, put.LandFlag = e, rts
		x.out = append(x.out, put)
		if free := cn.sent + i + 1 - cn.pr.credits; free > 0 {
			x.out = append(x.out, ir.Command{Call: trace.Op{Op: trace.FlagWait, Flag: cn.recvHead, Rank: receiver}, GPUCount: free})
		}
		x.out = append(x.out, ir.Command{Call: trace.Op{Op: trace.MemcpyAsync, Src: c.fifo[from], SrcOff: s.slot + e, Dst: c.fifo[to], DstOff: s.slot + e,
			Bytes: s.bytes - e, WaitFlag: rts, Rank: receiver, Stream: stream(receiver)},
			NIC: &recvNIC, RecvNIC: &recvNIC, LandGPUFlag: cn.tail, SetGPUFlag: cn.head})
	}
	cn.sent += len(steps)
}
