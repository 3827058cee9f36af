package workloads

import (
	"fmt"
	"slices"
	"strings"

	"github.com/akisim/akisim/halo"
	"github.com/akisim/akisim/internal/limit"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// Bench "exchange" is acm's bm_collective_comm.cc
// (acm/detail/halo_exchange_*.h): Procs ranks, one per GCD, exchange the
// halos of F fields of doubles (a device buffer of the padded local box
// per field) with their 3^D - 1 neighbours, periodic on every axis, over
// a decomposition of the global grid Dims (package halo). Per label:
//
//   - mpi-he: per field and packet, MPI_Irecv and MPI_Isend of subarray
//     datatypes on the fields themselves; then per field the waits;
//   - mpi-he-hindexed: per packet one hindexed_block type over the F
//     fields (MPI_BOTTOM): S Irecv and S Isend;
//   - acm-packed-he (pipelined): per packet MPI_Irecv, a pack kernel of
//     all fields and a device sync, MPI_Isend; then per packet the waits
//     and an unpack kernel with a device sync;
//   - acm-batched-he (fully fused): one batched pack kernel, per packet
//     MPI_Irecv and MPI_Isend of contiguous buffers, the waits, one
//     batched unpack kernel.
//
// Packets are the halo segments largest first (halo.Packets); each has its
// own communicator in acm (MPI_Comm_dup), here its own tag. A packet to
// the rank itself (one rank on every axis it crosses) is no message: the
// acm variants copy (the packed one packs straight into its receive
// buffer, the batched one hipMemcpy's its send buffer over) and post two
// 0-byte requests to self (host time mpi.post_ns each), the MPI variants
// pack and unpack through the library's staging buffer (MPICH's local
// copy of a datatype to self).
//
// A datatype message on device memory (the MPI variants) is packed by the
// library into a device staging buffer in MPI_Isend with the same engine
// as MPI_Pack (Yaksa: yaksa kernels; else the CPU's dataloop walk), sent
// as a contiguous message, and unpacked by the same engine from the
// receiver's staging buffer when its receive completes. With yaksa, a
// message between nodes, or a hindexed one, also bounces through host
// memory on both sides (exchange.staged, yaksaStage). acm waits by
// polling MPI_Request_get_status over the packets (the MPI and pipelined
// variants) or with MPI_Wait in packet order (batched); the model waits
// every packet in order, the receive first (in the akisim MPI model a
// receive's copy happens in its wait, so a send's wait needs the partner
// to have reached its receive's).
//
// Timing as bm::benchmark: per sample sync, rank 0 starts its clock,
// sync, exchange, sync, rank 0 stops (sync = hipDeviceSynchronize and
// MPI_Barrier on every rank); acm's init() (a randomize kernel per field)
// is left out as in pack. Rank 0's median is reported.

// HaloDefaultDecomp is bm_collective_comm's decomposition: its Cartesian
// communicator's default method (bm_collective_comm.cc:151).
const HaloDefaultDecomp = halo.MPIDefault

// HaloExchangeLabels are bm_collective_comm.cc's labels in its order.
var HaloExchangeLabels = []string{"mpi-he", "mpi-he-hindexed", "acm-packed-he", "acm-batched-he"}

// haloExchangeFields are the counts acm's fused kernels are built for:
// acm::pack's NINPUTS (pack.cu) and pack_batched's (pack_batched.cu).
var haloExchangeFields = map[string][]int{
	"acm-packed-he":  haloPackFields["acm-pack-packed"],
	"acm-batched-he": haloPackFields["acm-pack-batched"],
}

// HaloExchangeCase is an exchange row's case:
// acm-batched-he/1024x1024x1024/nf:1/r:4/p:64/hierarchical.
func HaloExchangeCase(label string, dims []int, fields, radius, procs int, decomp string) string {
	return fmt.Sprintf("%s/p:%d/%s", HaloCase(label, dims, fields, radius), procs, decomp)
}

// exchangeRuns checks the exchange's arguments and lists a run per
// decomposition, label and field count.
func (h Halo) exchangeRuns() ([]job.Run, error) {
	if err := checkLabels(h.Bench, h.Strategies, h.Fields, HaloExchangeLabels, haloExchangeFields); err != nil {
		return nil, err
	}
	if h.Radius < 1 {
		return nil, fmt.Errorf("-radius: want at least 1, got %d", h.Radius)
	}
	if len(h.Decomps) == 0 {
		return nil, fmt.Errorf("-decomp: want at least one decomposition")
	}
	if need := (h.Procs + h.GCDsPerNode - 1) / h.GCDsPerNode; h.Procs >= 1 && len(h.GCDNUMA) < need*h.GCDsPerNode {
		return nil, fmt.Errorf("-procs %d: %d ranks at %d per node need %d nodes, the run has %d (-nodes)",
			h.Procs, h.Procs, h.GCDsPerNode, need, len(h.GCDNUMA)/h.GCDsPerNode)
	}
	var runs []job.Run
	for _, name := range h.Decomps {
		d, err := halo.Decompose(name, h.Dims, h.Procs, h.Levels)
		if err != nil {
			return nil, fmt.Errorf("-decomp %s -dims %s -procs %d: %v", name, haloDims(h.Dims, ","), h.Procs, err)
		}
		// pack's rule on each rank's box: a halo deeper than the box
		// would take points the neighbour does not have
		if err := halo.CheckSegmentBox(d.Local, h.Radius); err != nil {
			return nil, fmt.Errorf("-decomp %s -dims %s -procs %d -radius %d: local box %s: %v", name, haloDims(h.Dims, ","), h.Procs, h.Radius,
				haloDims(d.Local, "x"), err)
		}
		if err := checkPadded(d.Local, h.Radius); err != nil {
			return nil, err
		}
		p, err := halo.PlacementOn(name, h.GCDsPerNode)
		if err != nil {
			return nil, fmt.Errorf("-decomp %s: %v", name, err)
		}
		for _, l := range h.Strategies {
			for _, f := range h.Fields {
				runs = append(runs, h.exchangeRun(d, p, l, f))
			}
		}
	}
	return runs, nil
}

// exchange is one exchange run's geometry.
type exchange struct {
	d       *halo.Decomposition
	mm      []int
	packets []halo.Packet
	label   string
	nf      int
	waits   *[]trace.Op    // scratch for an exchange's waits, reused from one exchange to the next
	place   halo.Placement // the ranks' GCDs: which messages cross nodes
}

// staged says whether rank's datatype message to or from peer goes
// through host memory with yaksa (yaksaStage): as upstream MPICH sends
// it, between nodes (the OFI netmod packs into a host buffer) and, within
// a node, for a hindexed type (the IPC path skips HINDEXED and STRUCT,
// ipc_send.h; POSIX shared memory packs into its host cells).
func (x exchange) staged(h Halo, rank, peer int) bool {
	if !h.Yaksa || !x.datatypes() || peer == rank {
		return false
	}
	n := x.place.GCDsPerNode()
	return x.label == "mpi-he-hindexed" || x.place.GCD(rank)/n != x.place.GCD(peer)/n
}

// stage is the bounce of the message of packet k (field f, or all if
// f < 0) through host memory: its buffers and size. dir is "send" or
// "recv".
func (h Halo) stage(dir string, k, f int, bytes int64) yaksaStage {
	return yaksaStage{dev: h.buf(dir, k, f), pinned: h.prefix + "yaksa.pinned", host: h.buf("host."+dir, k, f),
		event: h.buf("ev."+dir, k, f), bytes: bytes, numa: h.NUMA}
}

// exchangeBufs appends rank's buffers of exchange x: acm's send and
// receive buffers per packet (MPICH's device staging per field and packet
// for mpi-he), and, for messages staged through the host, MPICH's host
// pack buffers and yaksa's pinned pool.
func (h Halo) exchangeBufs(ops []trace.Op, x exchange, rank int) []trace.Op {
	pooled := false
	for k, pk := range x.packets {
		bytes := int64(x.nf) * pk.Recv.Elems() * haloElem
		fs, per := []int{-1}, bytes
		if x.label == "mpi-he" { // a staging buffer per field and packet
			fs, per = make([]int, x.nf), bytes/int64(x.nf)
			for f := range fs {
				fs[f] = f
			}
		}
		from, to := x.d.Peers(rank, pk)
		for _, f := range fs {
			ops = append(ops, alloc(h.buf("send", k, f), h.GCD, per), alloc(h.buf("recv", k, f), h.GCD, per))
			for i, peer := range []int{to, from} {
				if x.staged(h, rank, peer) {
					dir := [2]string{"send", "recv"}[i]
					ops = append(ops, trace.Op{Op: trace.MallocPageable, Buf: h.buf("host."+dir, k, f), NUMA: intp(h.NUMA), Bytes: per})
					pooled = true
				}
			}
		}
	}
	if pooled {
		ops = append(ops, trace.Op{Op: trace.HostMalloc, Buf: h.prefix + "yaksa.pinned", NUMA: intp(h.NUMA), Bytes: yaksaChunkPool})
	}
	return ops
}

// datatypes says whether the exchange packs with MPI datatypes, whose
// metadata its first exchange makes: only then does the first differ from
// the later ones.
func (x exchange) datatypes() bool { return x.label == "mpi-he" || x.label == "mpi-he-hindexed" }

// exchangeRun is bm_collective_comm's benchmark of one label with nf
// fields over decomposition d placed by p.
func (h Halo) exchangeRun(d *halo.Decomposition, p halo.Placement, label string, nf int) job.Run {
	x := exchange{d: d, mm: halo.PaddedBox(d.Local, h.Radius), packets: halo.Packets(d.Local, h.Radius), label: label, nf: nf,
		waits: new([]trace.Op), place: p}
	var sent int64 // rank 0's bytes per exchange
	for _, pk := range x.packets {
		if from, _ := d.Peers(0, pk); from != 0 {
			sent += int64(nf) * pk.Send.Elems() * haloElem
		}
	}
	name := HaloExchangeCase(label, h.Dims, nf, h.Radius, d.Procs(), d.Name)
	// its cost: the bytes its exchanges send, as rank 0 sends them (each
	// byte is packed, sent and unpacked: the kernels' and links'
	// transactions grow with it)
	cost := int64(h.Warmup+h.Samples) * int64(d.Procs()) * sent
	// as many ops as rank 0's per rank (the others have no clock): known
	// from rank 0 alone, so the memory is checked before any is made
	count := limit.Product(int64(len(h.rankOps(nil, x, p, 0))), int64(d.Procs()))
	return job.Run{Name: name, Build: func() []trace.Op { return h.exchangeOps(x, p) }, BuildCount: count, Keep: clockRead, Cost: cost, Rows: func(r *job.Replay) []report.Row {
		return []report.Row{{Workload: "halo", Case: name, Src: report.GCD(p.GCD(0)), Bytes: sent,
			Metric: "time", Value: h.medianUs(r), Unit: "us"}}
	}}
}

// exchangeOps is every rank's operations of an exchange run, rank after
// rank, made straight into one slice: ops are large, and growing or
// copying them dominated building the run.
func (h Halo) exchangeOps(x exchange, p halo.Placement) []trace.Op {
	var ops []trace.Op
	for rank := range x.d.Procs() {
		ops = h.rankOps(ops, x, p, rank)
		if rank == 0 { // every other rank calls as many, rank 0's clock aside: grow once
			ops = slices.Grow(ops, len(ops)*(x.d.Procs()-1))
		}
	}
	return ops
}

// rankOps appends rank's operations of an exchange run to ops.
func (h Halo) rankOps(ops []trace.Op, x exchange, p halo.Placement, rank int) []trace.Op {
	g := p.GCD(rank)
	hr := h
	hr.GCD, hr.NUMA, hr.prefix = g, h.GCDNUMA[g], fmt.Sprintf("r%d.", rank)
	start := len(ops)
	ops = hr.exchangeRank(ops, x, rank)
	for i := start; i < len(ops); i++ {
		ops[i].Rank = rank
	}
	return ops
}

// clockRead says whether o is rank 0's clock read: the ops whose results
// medianUs reads.
func clockRead(o *trace.Op) bool { return o.Rank == 0 && strings.HasPrefix(o.Label, "halo.t_") }

// medianUs is the median of rank 0's samples, in us.
func (h Halo) medianUs(r *job.Replay) float64 {
	at := map[string]float64{}
	for _, res := range r.Ops {
		if clockRead(res.Op) {
			at[res.Op.Label] = float64(res.Issue)
		}
	}
	var us []float64
	for i := h.Warmup; i < h.Warmup+h.Samples; i++ {
		us = append(us, (at[fmt.Sprintf("%s.%d", haloStop, i)]-at[fmt.Sprintf("%s.%d", haloStart, i)])*1e6)
	}
	return Median(us)
}

// exchangeRank appends what rank (h: on its GCD, its buffers named
// after it) calls to ops: its allocations, then per sample the timed
// exchange between syncs; rank 0 reads its clock. Every sample after the
// first calls the first's exchange without its datatypes' metadata
// allocations: those ops are copied, their access lists shared.
func (h Halo) exchangeRank(ops []trace.Op, x exchange, rank int) []trace.Op {
	field := halo.Segment{Dims: x.mm}.Elems() * haloElem
	for f := range x.nf {
		ops = append(ops, alloc(h.fieldBuf(f), h.GCD, field))
	}
	ops = h.exchangeBufs(ops, x, rank)
	sync := []trace.Op{{Op: trace.DeviceSync}, {Op: trace.MPIBarrier}}
	if x.d.Procs() == 1 { // MPI_Barrier of one rank returns at once
		sync = sync[:1]
	}
	clock := func(what string, i int) {
		if rank == 0 {
			ops = append(ops, trace.Op{Op: trace.HostCompute, Label: fmt.Sprintf("%s.%d", what, i)})
		}
	}
	var first, later [2]int // where in ops the first sample's exchange is, and the second's, which the later ones repeat
	for i := range h.Warmup + h.Samples {
		ops = append(ops, sync...)
		clock(haloStart, i)
		ops = append(ops, sync...)
		switch a := len(ops); i {
		case 0:
			ops = h.exchange(ops, x, rank, true)
			first = [2]int{a, len(ops)}
		case 1: // the first without its datatypes' metadata allocations (TestHaloExchangeLater)
			for _, o := range ops[first[0]:first[1]] {
				if o.Op != trace.MallocManaged {
					ops = append(ops, o)
				}
			}
			later = [2]int{a, len(ops)}
		default:
			ops = append(ops, ops[later[0]:later[1]]...)
		}
		ops = append(ops, sync...)
		clock(haloStop, i)
	}
	return ops
}

// buf names the rank's buffer what of packet k (and field f, if f >= 0):
// acm's send and receive buffers, or the library's staging buffers.
func (h Halo) buf(what string, k, f int) string { return segName(h.prefix, what, k, f) }

// exchange appends one timed exchange of rank to launch; first is the
// first sample's (the datatypes' metadata is made in it).
func (h Halo) exchange(launch []trace.Op, x exchange, rank int, first bool) []trace.Op {
	var wait []trace.Op
	if x.waits != nil {
		wait = (*x.waits)[:0]
	}
	sync := trace.Op{Op: trace.DeviceSync}
	post := trace.Op{Op: trace.HostCompute, ComputeNs: h.PostNs}
	nf := x.nf
	// each packet's peers, found once (a packet's messages are one per
	// field, and each asks again)
	from, to := make([]int, len(x.packets)), make([]int, len(x.packets))
	for k, pk := range x.packets {
		from[k], to[k] = x.d.Peers(rank, pk)
	}
	// msg posts packet k's receive and send (tag: its communicator) and
	// queues their waits; self: no message, two 0-byte posts
	msg := func(k, f int, bytes int64, self bool) (irecv, isend trace.Op) {
		if self {
			return post, post
		}
		tag := k
		if f >= 0 {
			tag = f*len(x.packets) + k
		}
		rr, rs := h.buf("rq.recv", k, f), h.buf("rq.send", k, f)
		irecv = trace.Op{Op: trace.MPIIrecv, Buf: h.buf("recv", k, f), Bytes: bytes, Peer: intp(from[k]), Tag: tag, Req: rr}
		isend = trace.Op{Op: trace.MPIIsend, Buf: h.buf("send", k, f), Bytes: bytes, Peer: intp(to[k]), Tag: tag, Req: rs}
		return irecv, isend
	}
	waits := func(k, f int) (recv, send trace.Op) {
		return trace.Op{Op: trace.MPIWait, Req: h.buf("rq.recv", k, f)}, trace.Op{Op: trace.MPIWait, Req: h.buf("rq.send", k, f)}
	}
	self := func(k int) bool { return from[k] == rank }
	switch x.label {
	case "mpi-he", "mpi-he-hindexed":
		type unit struct{ k, f int } // a message: a packet of one field, or of all (f < 0)
		var units []unit
		if x.label == "mpi-he" {
			for f := range nf {
				for k := range x.packets {
					units = append(units, unit{k, f})
				}
			}
		} else {
			for k := range x.packets {
				units = append(units, unit{k, -1})
			}
		}
		for _, u := range units {
			pk := x.packets[u.k]
			fields, per := []int{u.f}, int64(1)
			if u.f < 0 {
				fields, per = make([]int, nf), int64(nf)
				for f := range fields {
					fields[f] = f
				}
			}
			bytes := per * pk.Recv.Elems() * haloElem
			irecv, isend := msg(u.k, u.f, bytes, self(u.k))
			var in, out *yaksaStage
			if x.staged(h, rank, from[u.k]) {
				s := h.stage("recv", u.k, u.f, bytes)
				in = &s
			}
			if x.staged(h, rank, to[u.k]) {
				s := h.stage("send", u.k, u.f, bytes)
				out = &s
			}
			unpack := func(ops []trace.Op) []trace.Op {
				return h.typePup(ops, pk.Recv, x.mm, fields, h.buf("recv", u.k, u.f), h.buf("md.recv", u.k, u.f), first, u.f < 0, true, in)
			}
			launch = append(launch, irecv)
			launch = h.typePup(launch, pk.Send, x.mm, fields, h.buf("send", u.k, u.f), h.buf("md.send", u.k, u.f), first, u.f < 0, false, out)
			if self(u.k) { // MPICH's local copy: out of the staging buffer at once
				launch = append(launch, post)
				launch = unpack(launch)
				continue
			}
			launch = append(launch, isend)
			wr, ws := waits(u.k, u.f)
			wait = append(wait, wr)
			wait = unpack(wait)
			wait = append(wait, ws)
		}
	case "acm-packed-he":
		for k, pk := range x.packets {
			bytes := int64(nf) * pk.Recv.Elems() * haloElem
			to := h.buf("send", k, -1)
			if self(k) {
				to = h.buf("recv", k, -1)
			}
			irecv, isend := msg(k, -1, bytes, self(k))
			launch = append(launch, irecv, h.packKernel("pack", x, []int{k}, to), sync, isend)
			if !self(k) {
				wr, ws := waits(k, -1)
				wait = append(wait, wr, ws)
			}
			wait = append(wait, h.unpackKernel("unpack", x, []int{k}), sync)
		}
	case "acm-batched-he":
		all := make([]int, len(x.packets))
		for k := range all {
			all[k] = k
		}
		launch = append(launch, h.packKernel("pack_batched", x, all, ""), sync)
		for k, pk := range x.packets {
			bytes := int64(nf) * pk.Recv.Elems() * haloElem
			if self(k) { // ac::copy: a blocking hipMemcpy
				launch = append(launch, trace.Op{Op: trace.Memcpy, Src: h.buf("send", k, -1), Dst: h.buf("recv", k, -1), Bytes: bytes})
			}
			irecv, isend := msg(k, -1, bytes, self(k))
			launch = append(launch, irecv, isend)
			if !self(k) {
				wr, ws := waits(k, -1)
				wait = append(wait, wr, ws)
			}
		}
		wait = append(wait, h.unpackKernel("unpack_batched", x, all), sync)
	}
	launch = append(launch, wait...)
	if x.waits != nil {
		*x.waits = wait
	}
	return launch
}

// packKernel is acm's pack of packets ks (one: pack, a 1-D grid; all:
// pack_batched, a 2-D grid sized by the largest): every field's send
// segment read, written contiguously to the packet's send buffer (or to
// out, for a single packet packed straight into its receive buffer).
func (h Halo) packKernel(name string, x exchange, ks []int, out string) trace.Op {
	groups, elems := make([][]trace.Access, len(ks)), make([]int64, len(ks))
	for y, k := range ks {
		pk := x.packets[k]
		elems[y] = pk.Send.Elems()
		for f := range x.nf {
			groups[y] = append(groups[y], h.segAccess(f, pk.Send, x.mm, "read"))
		}
		buf := out
		if buf == "" {
			buf = h.buf("send", k, -1)
		}
		groups[y] = append(groups[y], trace.Access{Buf: buf, Mode: "write", Bytes: int64(x.nf) * pk.Send.Elems() * haloElem})
	}
	return h.batchedKernel(name, elems, groups)
}

// unpackKernel is packKernel's mirror: each packet's receive buffer read,
// every field's halo segment written.
func (h Halo) unpackKernel(name string, x exchange, ks []int) trace.Op {
	groups, elems := make([][]trace.Access, len(ks)), make([]int64, len(ks))
	for y, k := range ks {
		pk := x.packets[k]
		elems[y] = pk.Recv.Elems()
		groups[y] = append(groups[y], trace.Access{Buf: h.buf("recv", k, -1), Mode: "read", Bytes: int64(x.nf) * pk.Recv.Elems() * haloElem})
		for f := range x.nf {
			groups[y] = append(groups[y], h.segAccess(f, pk.Recv, x.mm, "write"))
		}
	}
	return h.batchedKernel(name, elems, groups)
}

// typePup is the library's pack (or unpack) of a datatype message on
// device memory between the fields' segment seg and the staging buffer
// buf, with MPI_Pack's engine: a subarray of one field (one entry in
// fields), or a hindexed_block over all of them at MPI_BOTTOM (bottom),
// field after field in the buffer. With yaksa, a message staged through
// host memory (stage) leaves by stage.out after the pack kernels, or
// comes in by stage.in before the unpack's.
func (h Halo) typePup(ops []trace.Op, seg halo.Segment, mm []int, fields []int, buf, md string, first, bottom, unpack bool, stage *yaksaStage) []trace.Op {
	per := seg.Elems() * haloElem
	if !h.Yaksa {
		var blocks [][]trace.Access
		for i, f := range fields {
			staged := trace.Access{Buf: buf, Mode: "write", Offset: int64(i) * per, Bytes: per}
			b := []trace.Access{h.segAccess(f, seg, mm, "read"), staged}
			if unpack {
				staged.Mode = "read"
				b = []trace.Access{staged, h.segAccess(f, seg, mm, "write")}
			}
			blocks = append(blocks, b)
		}
		return h.mpiPack(ops, blocks...)
	}
	if !bottom { // MPICH asks for both pointers' attributes
		ops = append(ops, trace.Op{Op: trace.HostCompute, ComputeNs: 2 * h.QueryNs})
	}
	if stage != nil && unpack {
		ops = stage.in(ops)
	}
	for i, f := range fields {
		ops = h.yaksa(ops, yaksaCall{f: f, seg: seg, buf: buf, at: int64(i) * per, md: md,
			first: first && i == 0, bottom: bottom, unpack: unpack, staged: stage != nil}, mm)
	}
	if stage != nil && !unpack {
		ops = stage.out(ops, h.QueryNs)
	}
	return ops
}
