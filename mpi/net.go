package mpi

import (
	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"
)

// Between nodes Cray MPICH hands a message to libfabric's CXI provider,
// which picks the protocol by size (docs/references.md [libfabric-cxi]; libfabric
// prov/cxi): up to inject bytes the CPU copies the payload into the
// command (immediate data: for a GPU buffer, CPU loads through the host
// mapping of its memory; a host buffer's few lines are in the sender's
// cache, as the library's staging buffers it sends from are lines its CPU
// wrote or reduced into) and the NIC sends it; up to threshold + get_min
// bytes the NIC reads the buffer and puts it (eager); a larger message
// puts eager_size bytes with its header and the receiver's NIC, once the
// header matches a posted receive, gets the rest from the sender's memory
// with no host help (rendezvous). Matching is in the NIC: a receive posted
// ahead takes the data straight into its buffer. A rank sends and receives
// through the NIC of its GCD's NUMA domain (MPICH_OFI_NIC_POLICY=NUMA).
//
// Approximations: a receive is taken as posted before its data arrives
// (no overflow-buffer copy for unexpected messages); a rendezvous send
// completes with the receiver's get, not when the last byte left.

// Net holds what the library needs to know of the nodes and NICs.
type Net = config.CXI

func netFromConfig(c *config.Node) Net { return c.CXI() }

// NICStream is a rank's first stream of NIC commands; it has Net.Streams
// for its puts and as many more, after them, for its rendezvous gets.
const NICStream = Stream + 1

// node is the node of a buffer.
func (x *expander) node(buf string) int {
	b := x.bufs[buf]
	if x.p.Net.GCDsPerNode == 0 {
		return 0
	}
	if b.Host {
		return b.NUMA / x.p.Net.NUMAPerNode
	}
	return b.GCD / x.p.Net.GCDsPerNode
}

// nicOf is the NIC a rank with buffer buf sends and receives through: its
// GCD's (a host buffer's rank: the first GCD of its NUMA domain's node).
func (x *expander) nicOf(buf string) int {
	b := x.bufs[buf]
	g := b.GCD
	if b.Host {
		g = x.node(buf) * x.p.Net.GCDsPerNode
		for h := g; h < g+x.p.Net.GCDsPerNode; h++ {
			if x.p.NUMA[h] == b.NUMA {
				g = h
				break
			}
		}
	}
	return x.p.Net.NICOf[g]
}

// entryNIC is the NIC a write to buf enters its node through: its GCD's
// NIC; for host memory the node's first NIC (routes take remote host
// memory in there: they know the host, not its NUMA domain).
func (x *expander) entryNIC(buf string) int {
	if b := x.bufs[buf]; b.Host {
		return x.p.Net.NICOf[x.node(buf)*x.p.Net.GCDsPerNode] / x.p.Net.NICsPerNode * x.p.Net.NICsPerNode
	}
	return x.nicOf(buf)
}

// rendezvous says whether a message between nodes goes by rendezvous.
func (x *expander) rendezvous(m *message) bool { return m.bytes > x.p.Net.EagerMax }

// nicCopy is an RDMA copy on a NIC stream of call i's rank. A receive's
// rendezvous get (get) waits for its sender's header; the NIC issues it
// when the header matches (a triggered operation), so it never holds up
// the rank's puts: gets take streams of their own. Were they on the puts'
// streams, two ranks each posting receives before sends (osu_bibw, a halo
// exchange) would each queue their puts behind gets waiting for the
// other's puts, and neither header would ever leave.
func (x *expander) nicCopy(i int, m *message, nic int, srcOff, dstOff, bytes int64, get bool) ir.Command {
	streams, rank := max(x.p.Net.Streams, 1), x.ops[i].Rank
	var stream int
	if get {
		stream = NICStream + streams + x.nicGets[rank]%streams
		x.nicGets[rank]++
	} else {
		x.nicNext[rank]++
		stream = NICStream + x.nicNext[rank]%streams
	}
	recv := x.entryNIC(x.buf(m.recv))
	return ir.Command{Call: trace.Op{Op: trace.MemcpyAsync, Src: x.buf(m.send), SrcOff: x.off(m.send) + srcOff,
		Dst: x.buf(m.recv), DstOff: x.off(m.recv) + dstOff, Bytes: bytes, Stream: stream},
		NIC: &nic, RecvNIC: &recv}
}

// netSend is what a send between nodes does when it is made (after the
// request's set-up): the put of the whole message, or of its first
// eager_size bytes with the rendezvous header.
func (x *expander) netSend(i int, m *message) {
	nic := x.nicOf(x.buf(m.send))
	switch {
	case x.rendezvous(m):
		o := x.nicCopy(i, m, nic, 0, 0, min(x.p.Net.EagerSize, m.bytes), false)
		o.LandFlag = x.flag(m, rts)
		x.emitCommand(i, o)
	default:
		o := x.nicCopy(i, m, nic, 0, 0, m.bytes, false)
		if m.bytes <= x.p.Net.InjectBytes { // the CPU copies the payload into the command
			if !x.bufs[x.buf(m.send)].Host { // from GPU memory: its uncached load (a host buffer's lines are in the cache)
				numa := x.numaOfBuf(x.buf(m.send))
				x.emit(i, trace.Op{Op: trace.HostAccess, NUMA: &numa, Threads: 1, Access: []trace.Access{
					{Buf: x.buf(m.send), Mode: "read", Bytes: max(m.bytes, 1), Offset: x.off(m.send)}}})
			}
			o.Inline = true
		}
		o.LandFlag, o.SetFlag = x.flag(m, landed), x.flag(m, fin)
		x.emitCommand(i, o)
	}
}

// netRecv is what a receive between nodes does when it is posted: for a
// rendezvous, the receiver's NIC gets the rest once the header has come.
func (x *expander) netRecv(i int, m *message) {
	if !x.rendezvous(m) {
		return
	}
	e := min(x.p.Net.EagerSize, m.bytes)
	nic := x.nicOf(x.buf(m.recv))
	o := x.nicCopy(i, m, nic, e, e, m.bytes-e, true)
	o.RecvNIC = &nic // the get's writes start at its own NIC, which reports them
	o.WaitFlag, o.LandFlag, o.SetFlag = x.flag(m, rts), x.flag(m, landed), x.flag(m, fin)
	x.emitCommand(i, o)
}

// numaOfBuf is the NUMA domain (global id) of a buffer's memory or GCD.
func (x *expander) numaOfBuf(buf string) int {
	b := x.bufs[buf]
	if b.Host {
		return b.NUMA
	}
	return x.p.NUMA[b.GCD]
}
