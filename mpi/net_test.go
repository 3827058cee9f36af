package mpi_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"
)

// nicCopies lists the RDMA copies of expanded ops.
func nicCopies(ops []ir.Command) []ir.Command {
	var l []ir.Command
	for _, o := range ops {
		if o.NIC != nil {
			l = append(l, o)
		}
	}
	return l
}

// Between nodes the size picks libfabric's protocol: the CPU copies up to
// 192 B into the command; up to 18433 B the sender's NIC puts it all;
// above, it puts 2 KiB with the header and the receiver's NIC gets the
// rest once the header is in.
func TestNetProtocols(t *testing.T) {
	for _, c := range []struct {
		bytes  int64
		copies int
		inline bool
	}{{8, 1, true}, {192, 1, true}, {193, 1, false}, {18433, 1, false}, {18434, 2, false}, {4 << 20, 2, false}} {
		_, x, n := run(t, pair(8, c.bytes), "network.nodes=2")
		l := nicCopies(x)
		if len(l) != c.copies || l[0].Inline != c.inline {
			t.Errorf("%d B: %d NIC copies (inline %v), want %d (inline %v)", c.bytes, len(l), len(l) > 0 && l[0].Inline, c.copies, c.inline)
			continue
		}
		if *l[0].NIC != 0 || *l[0].RecvNIC != 4 {
			t.Errorf("%d B: NICs %d -> %d, want node 0's NIC 0 (GCD 0's NUMA domain 3) to node 1's NIC 0 (global 4)", c.bytes, *l[0].NIC, *l[0].RecvNIC)
		}
		if c.copies == 2 {
			get := l[1]
			if *get.NIC != 4 || get.WaitFlag != l[0].LandFlag || get.Bytes != c.bytes-2048 || get.SrcOff != 2048 || l[0].Bytes != 2048 {
				t.Errorf("%d B: rendezvous put %d B, get %d B from %d on NIC %d waiting %q", c.bytes, l[0].Bytes, get.Bytes, get.SrcOff, *get.NIC, get.WaitFlag)
			}
		}
		moved := uint64(0)
		for _, x := range n.NICs {
			if x == nil {
				continue // on a node the run never touched
			}
			for _, e := range x.Engines {
				moved += e.BytesCopied
			}
		}
		if moved != uint64(c.bytes) {
			t.Errorf("%d B: the NICs copied %d B", c.bytes, moved)
		}
	}
}

// The message crosses the network: the cable of each node's NIC 0 carries
// it, and no xGMI bundle of node 0 does (the NIC reads GCD 0 through GCD 1's
// quad link only).
func TestNetMessageCrossesTheNetwork(t *testing.T) {
	res, _, n := run(t, pair(8, 1<<20), "network.nodes=2")
	if _, end := span(res, "recv"); end <= 0 {
		t.Fatal("the receive did not complete")
	}
	sent, _, _ := n.NetLinks[0].Stats(0) // node 0 NIC 0 -> its switch
	got, _, _ := n.NetLinks[4].Stats(1)  // switch -> node 1 NIC 0
	if sent == 0 || got == 0 {
		t.Errorf("cables carried %d and %d packets", sent, got)
	}
	for pair, b := range n.BundleOf {
		if p, _, _ := b.Stats(0); p > 0 && pair[0] < 8 && pair != [2]int{0, 1} && pair != [2]int{1, 0} {
			t.Errorf("node 0 bundle %v carried %d packets", pair, p)
		}
	}
}

// Collectives across nodes: staged (host) steps between ranks of
// different nodes cross the network instead of shared memory, a
// non-power-of-two count included (MPICH's fold steps).
func TestNetCollective(t *testing.T) {
	gcds := []int{0, 1, 2, 8, 9, 10}
	var ops []trace.Op
	for r, g := range gcds {
		ops = append(ops, trace.Op{Op: trace.Malloc, Buf: "s" + string(rune('a'+r)), GCD: intp(g), Bytes: 4096, Rank: r},
			trace.Op{Op: trace.Malloc, Buf: "d" + string(rune('a'+r)), GCD: intp(g), Bytes: 4096, Rank: r})
	}
	for r := range gcds {
		ops = append(ops, trace.Op{Op: trace.MPIAllreduce, Src: "s" + string(rune('a'+r)), Dst: "d" + string(rune('a'+r)), Bytes: 8, Rank: r, Label: "ar"})
	}
	res, x, _ := run(t, ops, "network.nodes=2")
	if _, end := span(res, "ar"); end <= 0 {
		t.Fatal("the allreduce did not complete")
	}
	for _, o := range nicCopies(x) {
		from, to := x[0], x[0]
		for _, b := range x {
			if b.Buf == o.Src {
				from = b
			}
			if b.Buf == o.Dst {
				to = b
			}
		}
		if from.NUMA == nil || to.NUMA == nil || *from.NUMA/4 == *to.NUMA/4 {
			t.Errorf("NIC copy %s -> %s: want host staging buffers of two nodes", o.Src, o.Dst)
		}
	}
	if len(nicCopies(x)) == 0 {
		t.Error("no message crossed the network")
	}
}

// An inline put's payload is the CPU's copy: from GPU memory an uncached
// load over the host link before the put; from the library's host
// staging buffers (an allreduce's steps between nodes) the sender's cached
// lines, no memory access.
func TestNetInjectLoad(t *testing.T) {
	_, x, _ := run(t, pair(8, 8), "network.nodes=2")
	loads := 0
	for _, o := range x {
		if o.Call.Op == trace.HostAccess && o.Call.Rank == 0 && o.Call.Access[0].Buf == "s" {
			loads++
		}
	}
	if loads != 1 {
		t.Errorf("an 8 B put from GPU memory made %d CPU loads, want 1", loads)
	}
	gcds := []int{0, 1, 8, 9}
	var ops []trace.Op
	for r, g := range gcds {
		ops = append(ops, trace.Op{Op: trace.Malloc, Buf: fmt.Sprintf("s%d", r), GCD: intp(g), Bytes: 8, Rank: r},
			trace.Op{Op: trace.Malloc, Buf: fmt.Sprintf("d%d", r), GCD: intp(g), Bytes: 8, Rank: r})
	}
	for range 6 { // past MPICH_POSIX_NUM_COLLS_THRESHOLD: the cells and the first ranks' step
		for r := range gcds {
			ops = append(ops, trace.Op{Op: trace.MPIAllreduce, Src: fmt.Sprintf("s%d", r), Dst: fmt.Sprintf("d%d", r), Bytes: 8, Rank: r})
		}
	}
	_, x, _ = run(t, ops, "network.nodes=2")
	read := map[[3]any]bool{} // rank, buffer, offset of every lone load
	for _, o := range x {
		if o.Call.Op == trace.HostAccess && len(o.Call.Access) == 1 {
			a := o.Call.Access[0]
			read[[3]any{o.Call.Rank, a.Buf, a.Offset}] = true
		}
	}
	puts := 0
	for _, o := range nicCopies(x) {
		if o.Inline && strings.HasPrefix(o.Call.Src, "mpi.") {
			puts++
			if read[[3]any{o.Call.Rank, o.Call.Src, o.Call.SrcOff}] {
				t.Errorf("rank %d loads %s before its inline put", o.Call.Rank, o.Call.Src)
			}
		}
	}
	if puts == 0 {
		t.Error("the allreduce made no inline put from a staging buffer")
	}
}

// Host buffers between nodes (an allreduce stages through them): the get
// of a rendezvous is reported by the receiver's own NIC (its writes start
// there), whichever NIC the node's host memory is reached through.
func TestNetHostBuffers(t *testing.T) {
	gcds := []int{0, 1, 2, 8, 9, 10}
	var ops []trace.Op
	for r, g := range gcds {
		ops = append(ops, trace.Op{Op: trace.Malloc, Buf: "s" + string(rune('a'+r)), GCD: intp(g), Bytes: 1 << 16, Rank: r},
			trace.Op{Op: trace.Malloc, Buf: "d" + string(rune('a'+r)), GCD: intp(g), Bytes: 1 << 16, Rank: r})
	}
	for r := range gcds {
		ops = append(ops, trace.Op{Op: trace.MPIAllreduce, Src: "s" + string(rune('a'+r)), Dst: "d" + string(rune('a'+r)), Bytes: 1 << 16, Rank: r, Label: "ar"})
	}
	res, x, _ := run(t, ops, "network.nodes=2")
	if _, end := span(res, "ar"); end <= 0 {
		t.Fatal("the allreduce did not complete")
	}
	gets := 0
	for _, o := range nicCopies(x) {
		if o.WaitFlag != "" {
			gets++
			if *o.RecvNIC != *o.NIC {
				t.Errorf("get on NIC %d reported by NIC %d", *o.NIC, *o.RecvNIC)
			}
		}
	}
	if gets == 0 {
		t.Error("64 KiB staged messages between nodes made no rendezvous get")
	}
}

// Slingshot adapts per packet: eight 32 MiB messages at once, each from
// NIC 0 of node i to NIC 1 of node i+1 (all from switch 0 to switch 1 of
// one chassis), share the direct link and the three two-hop paths when a
// transfer's transactions take the paths in turn, about 12 GB/s each, and
// as much when the first switch picks paths by load; with one path per
// transfer every first transfer takes the direct link, 25/8 GB/s each.
func TestNetAdaptivePerPacket(t *testing.T) {
	const bytes = 32 << 20
	var ops []trace.Op
	for i := range 8 {
		ops = append(ops, trace.Op{Op: trace.Malloc, Buf: fmt.Sprintf("s%d", i), GCD: intp(8*i + 1), Bytes: bytes, Rank: 2 * i},
			trace.Op{Op: trace.Malloc, Buf: fmt.Sprintf("r%d", i), GCD: intp(8*((i+1)%8) + 3), Bytes: bytes, Rank: 2*i + 1})
	}
	for i := range 8 {
		ops = append(ops, trace.Op{Op: trace.MPIIrecv, Buf: fmt.Sprintf("r%d", i), Bytes: bytes, Peer: intp(2 * i), Req: "r", Rank: 2*i + 1, Label: "recv"},
			trace.Op{Op: trace.MPIIsend, Buf: fmt.Sprintf("s%d", i), Bytes: bytes, Peer: intp(2*i + 1), Req: "s", Rank: 2 * i})
	}
	for i := range 8 {
		ops = append(ops, trace.Op{Op: trace.MPIWait, Req: "r", Rank: 2*i + 1, Label: "recv"}, trace.Op{Op: trace.MPIWait, Req: "s", Rank: 2 * i})
	}
	for mode, want := range map[string][2]float64{"per_packet": {10e9, 14e9}, "per_transfer": {2.9e9, 3.2e9}, "load_aware": {10e9, 14e9}} {
		res, _, _ := run(t, ops, "network.nodes=8", "network.adaptive_routing="+mode)
		first, last := span(res, "recv")
		if bw := bytes / (last - first); bw < want[0] || bw > want[1] {
			t.Errorf("%s: each message at %.2f GB/s, want %.1f-%.1f", mode, bw/1e9, want[0]/1e9, want[1]/1e9)
		}
	}
}

// Routing by load sends a lone flow on an idle network the short way:
// all of a 32 MiB message crosses the direct link between the two
// switches, where paths taken in turn send three quarters over two-hop
// paths; both at the NIC's rate. By load, the acks coming back take the
// short way too: they wait behind no bulk work, so no other link between
// switches carries a packet.
func TestNetLoadAwareLoneFlow(t *testing.T) {
	const bytes = 32 << 20
	ops := []trace.Op{
		{Op: trace.Malloc, Buf: "s", GCD: intp(1), Bytes: bytes, Rank: 0},
		{Op: trace.Malloc, Buf: "r", GCD: intp(8 + 3), Bytes: bytes, Rank: 1},
		{Op: trace.MPIIrecv, Buf: "r", Bytes: bytes, Peer: intp(0), Req: "r", Rank: 1, Label: "recv"},
		{Op: trace.MPIIsend, Buf: "s", Bytes: bytes, Peer: intp(1), Req: "s", Rank: 0},
		{Op: trace.MPIWait, Req: "r", Rank: 1, Label: "recv"}, {Op: trace.MPIWait, Req: "s", Rank: 0},
	}
	for mode, direct := range map[string]float64{"load_aware": 1, "per_packet": 0.25} {
		res, _, n := run(t, ops, "network.nodes=8", "network.adaptive_routing="+mode)
		first, last := span(res, "recv")
		if bw := bytes / (last - first); bw < 23e9 || bw > 25e9 {
			t.Errorf("%s: %.2f GB/s, want the NIC's 24", mode, bw/1e9)
		}
		var onDirect, between, astray uint64
		for _, l := range n.NetLinks {
			if l == nil || !strings.HasPrefix(l.Name(), "Network.Link[") {
				continue
			}
			for d := range 2 {
				packets, pay, _ := l.Stats(d)
				between += pay
				if l.Name() == "Network.Link[0][1]" && d == 0 {
					onDirect += pay
				}
				if l.Name() != "Network.Link[0][1]" {
					astray += packets
				}
			}
		}
		if mode == "load_aware" && astray != 0 {
			t.Errorf("%s: %d packets on two-hop paths, want none", mode, astray)
		}
		if got := float64(onDirect) / bytes; math.Abs(got-direct) > 0.01 {
			t.Errorf("%s: %.2f of the message on the direct link, want %.2f", mode, got, direct)
		}
		if want := uint64(bytes * (2 - direct)); math.Abs(float64(between)-float64(want)) > 0.01*bytes {
			t.Errorf("%s: %d bytes on links between switches, want %d", mode, between, want)
		}
	}
}
