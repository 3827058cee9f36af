package mpi

import (
	"fmt"
	"github.com/akisim/akisim/internal/limit"
	"github.com/akisim/akisim/ir"
	"slices"
	"strings"
	"unsafe"

	"github.com/akisim/akisim/trace"
)

// Collectives on GPU buffers, as Cray MPICH 8.1 (MPICH 3.4 based, CH4)
// runs them inside a node (docs/model/mpi-collectives.md "MPI collectives"):
//
//   - Reductions (MPI_Reduce, MPI_Allreduce, MPI_Reduce_scatter) stage
//     the device buffers in host memory, run MPICH's algorithm between
//     the ranks' host buffers and reduce on the CPU, then copy the result
//     back (MPICH 3.4 MPIR_Coll_host_buffer_alloc / swap_back, commits
//     441673b6dd and 1fc65abf9a of pmodels/mpich; Cray MPICH 8.1.17's
//     settings dump shows MPICH_GPU_ALLREDUCE_USE_KERNEL=0 and
//     MPICH_ENABLE_YAKSA=0, merthidayetoglu/Bisection_Bandwidth_Tester).
//     Host messages inside the node are single copies: the receiver's CPU
//     copies from the sender's buffer (XPMEM, MPICH_SMP_SINGLE_COPY_MODE).
//   - MPI_Bcast, MPI_Allgather and MPI_Alltoall move no reduced data and
//     run on the device buffers over the point-to-point layer (IPC or
//     staged messages, mpi.go).
//
// Each collective becomes, before the point-to-point expansion, the
// rank's sends and receives (mpi_isend / mpi_irecv with offsets, waited
// together as MPIC_Sendrecv does), local copies, reductions and flags.

// waitReqs is the expansion's own wait for the requests named in Req
// (comma separated): the MPIC_Sendrecv / MPIC_Waitall of a collective,
// which must not complete the program's own pending requests as
// mpi_waitall would.
const waitReqs trace.Kind = "mpi.wait_reqs"

// Thresholds are MPICH's default algorithm selection
// (src/mpi/coll/coll_selection.json, pmodels/mpich) and Cray MPICH's
// (docs/references.md [cray-mpich]), in bytes of MPI_CHAR: [env] MPICH_* keys.
type Thresholds struct {
	ReduceShort       int64 // MPI_Reduce: binomial up to this, else reduce-scatter + gather
	AllreduceShort    int64 // MPI_Allreduce: recursive doubling up to this, else reduce-scatter + allgather
	AllreduceMaxSMP   int64 // MPICH_ALLREDUCE_MAX_SMP_SIZE: SMP-aware (node reduce + node bcast) up to this
	BcastRadix        int   // MPICH_BCAST_INTRANODE_RADIX: children per rank of the bcast tree (MPICH_BCAST_ONLY_TREE=1: every size)
	ReduceScatterLong int64 // MPICH_REDUCE_SCATTER_COMMUTATIVE_LONG_MSG_SIZE: pairwise from here
	AllgatherLong     int64 // MPI_Allgather, power-of-two ranks: recursive doubling below this total
	AllgatherShort    int64 // MPI_Allgather, other rank counts: Bruck below this total
	AlltoallShort     int64 // MPI_Alltoall, 8 ranks and more: Bruck up to this per block
	AlltoallMedium    int64 // MPI_Alltoall: scattered (all at once) up to this, pairwise above
}

// span is bytes of a buffer from off.
type span struct {
	buf        string
	off, bytes int64
}

// xfer is one message of a collective step: to or from comm index peer;
// at is the rank's own span (sent from, or received into); from is, for a
// receive on the host path, the sender's span the receiver copies.
type xfer struct {
	peer int
	at   span
	from span
}

// lowering turns a trace's collectives into point-to-point calls and
// local work, rank by rank.
type lowering struct {
	p      Params
	prefix string
	comm   []int                   // the communicator: every rank of the trace
	bufs   map[string]trace.Buffer // the program's buffers
	out    []trace.Op              // the ops the collectives make, call after call
	seq    map[int]int             // rank -> collectives lowered so far
	host   map[int]int64           // rank -> bytes of each of its host staging buffers
	dev    map[int]int64           // rank -> bytes of its device scratch buffer
	made   map[string]bool         // library buffers allocated so far
	gcd    map[int]int             // rank -> its GCD (of its first collective's buffer)
	sent   map[[3]int]int          // (collective, from, to) -> host messages so far, as the sender counts
	recvd  map[[3]int]int          // the same, as the receiver counts
	reqs   map[int]int             // rank -> requests (and events) the library started
	posix  map[int]int             // rank -> calls that reached the shared-memory layer (releasegather.go)
	// barriers is, per rank, the barriers that reached the node
	// communicator's shared-memory layer (releasegather.go)
	barriers map[int]int
	// cellState is, per rank, the steps through its shared cells so far:
	// the next one takes cell cellState % Shared.Cells
	cellState map[int]int
	groups    [][]int // the communicator's indexes by node (releasegather.go), made at first use
	groupOf   []int   // index -> its group
	unplaced  bool    // some rank has no buffers, so its node is not known (made with groups)
}

// lower returns ops with every collective replaced by what it does on its
// rank; ops without collectives come back unchanged.
func lower(ops []trace.Op, p Params, prefix string) []trace.Op {
	refs, _, _ := lowerRefs(ops, nil, p, prefix) // tests' traces: far within any limit
	out := make([]trace.Op, len(refs))
	for i, o := range refs {
		out[i] = *o
	}
	return out
}

// lowerRefs is lower's sequence as pointers: into ops for the calls kept,
// into the ops made for the collectives. A trace's ops are large, and most
// are kept: pointing at them spares a copy of the trace. bufs is
// trace.Buffers of the sequence: the program's buffers and the library's,
// whose names (under prefix) are never the program's. order, if not nil,
// is the sequence to take the calls in (order[k]: the k-th call's index in
// ops), so a reordered trace is never moved.
func lowerRefs(ops []trace.Op, order []int32, p Params, prefix string) (refs []*trace.Op, bufs map[string]trace.Buffer, err error) {
	at := func(k int) *trace.Op { return &ops[k] }
	if order != nil {
		at = func(k int) *trace.Op { return &ops[order[k]] }
	}
	if !slices.ContainsFunc(ops, func(o trace.Op) bool { return o.IsCollective() }) {
		refs := make([]*trace.Op, len(ops))
		for k := range refs {
			refs[k] = at(k)
		}
		return refs, trace.Buffers(ops), nil // a checked trace allocates each name once: any order gives these
	}
	l := &lowering{p: p, prefix: prefix, comm: trace.Ranks(ops), bufs: trace.Buffers(ops), seq: map[int]int{},
		host: map[int]int64{}, dev: map[int]int64{}, made: map[string]bool{}, gcd: map[int]int{},
		sent: map[[3]int]int{}, recvd: map[[3]int]int{}, reqs: map[int]int{}, posix: map[int]int{}, barriers: map[int]int{}, cellState: map[int]int{}}
	for i := range ops { // sizes first: each rank allocates its scratch buffers once (a rank's calls keep their order in any order given)
		if o := &ops[i]; o.IsCollective() {
			b := l.builder(o, 0)
			l.host[o.Rank] = max(l.host[o.Rank], b.hostNeed())
			l.dev[o.Rank] = max(l.dev[o.Rank], b.devNeed())
			if _, ok := l.gcd[o.Rank]; !ok && b.gcdOf() >= 0 {
				l.gcd[o.Rank] = b.gcdOf()
			}
		}
	}
	refs = make([]*trace.Op, 0, len(ops)+len(ops)/4)
	var made int64 // lowered calls the chunks hold
	for k := range ops {
		o := at(k)
		if !o.IsCollective() {
			refs = append(refs, o)
			continue
		}
		if cap(l.out)-len(l.out) < lowChunk/4 { // a new chunk: the ops made so far stay where refs point
			made += lowChunk
			if err := limit.Memory(fmt.Sprintf("the MPI library's lowered calls (%d and more)", made), limit.Product(made, loweredBytes)); err != nil {
				return nil, nil, err
			}
			l.out = make([]trace.Op, 0, lowChunk)
		}
		start := len(l.out)
		l.builder(o, l.seq[o.Rank]).run()
		l.seq[o.Rank]++
		for j := start; j < len(l.out); j++ {
			refs = append(refs, &l.out[j])
			trace.AddBuffer(l.bufs, &l.out[j]) // the library's own (gcdOf looks up only the program's)
		}
	}
	return refs, l.bufs, nil
}

// loweredBytes is what a lowered call holds until the run ends: the call,
// its place in the calls' list, and the command it becomes.
const loweredBytes = int64(unsafe.Sizeof(trace.Op{}) + unsafe.Sizeof(&trace.Op{}) + unsafe.Sizeof(ir.Command{}))

// lowChunk is how many ops lowerRefs makes room for at a time.
const lowChunk = 4096

// builder makes one collective call of one rank.
type builder struct {
	l    *lowering
	call *trace.Op
	seq  int // the collective's place in every rank's sequence
	me   int // the rank's index in the communicator
	n    int
	// off and bytes are the part of the buffers the algorithm runs on: the
	// whole call, or one block of the GPU allreduce (MPICH_GPU_ALLREDUCE_BLK_SIZE).
	off, bytes int64
	// accCached: the host reductions' accumulator is in the rank's cache
	// (the nodes' first ranks' allreduce on the result the cells left there)
	accCached bool
	// members, while set (within), are the communicator indexes of the
	// ranks an algorithm runs on; me and n are then positions in it
	members []int
}

func (l *lowering) builder(o *trace.Op, seq int) *builder {
	return &builder{l: l, call: o, seq: seq, me: l.index(o.Rank), n: len(l.comm), bytes: o.Bytes}
}

// index is rank r's index in the communicator, -1 if not in it: found by
// halves (trace.Ranks ascend), as every call of every rank asks.
func (l *lowering) index(r int) int {
	if i, ok := slices.BinarySearch(l.comm, r); ok {
		return i
	}
	return -1
}

// staged says whether the call runs between host staging buffers.
func (b *builder) staged() bool {
	switch b.call.Op {
	case trace.MPIReduce, trace.MPIReduceScatter:
		return true
	case trace.MPIAllreduce: // the GPU kernel from its threshold on (assumed inclusive)
		return !b.l.p.AllreduceKernel || b.call.Bytes < b.l.p.AllreduceKernelThreshold
	}
	return false
}

// hostNeed is the bytes of each host staging buffer the call uses.
func (b *builder) hostNeed() int64 {
	if !b.staged() {
		return 0
	}
	return b.call.Bytes // reduce_scatter stages the whole send buffer too
}

// devNeed is the bytes of device scratch the call's algorithm uses.
func (b *builder) devNeed() int64 {
	o := b.call
	switch {
	case o.Op == trace.MPIAllreduce && !b.staged():
		return o.Bytes
	case o.Op == trace.MPIAllgather && b.allgatherAlgo() == "bruck",
		o.Op == trace.MPIAlltoall && b.alltoallAlgo() == "bruck":
		return o.Bytes * int64(b.n)
	}
	return 0
}

// gcdOf is the GCD of the call's device buffers (-1 for a barrier).
func (b *builder) gcdOf() int {
	for _, name := range []string{b.call.Buf, b.call.Src} {
		if buf, ok := b.l.bufs[name]; ok {
			return buf.GCD
		}
	}
	return -1
}

// emit appends an op made for the call: on its rank, line and label.
func (b *builder) emit(o trace.Op) {
	o.Rank, o.Line, o.Label = b.call.Rank, b.call.Line, b.call.Label
	b.l.out = append(b.l.out, o)
}

// rank is the trace rank of communicator index i.
func (b *builder) rank(i int) int {
	if b.members != nil {
		i = b.members[i]
	}
	return b.l.comm[i]
}

// within runs fn on the ranks of members (communicator indexes, the
// caller's among them) as if they were the communicator: MPICH's
// node_comm and node_roots_comm, whose algorithms see only their ranks.
func (b *builder) within(members []int, fn func()) {
	me, n := b.me, b.n
	b.me, b.n, b.members = slices.Index(members, me), len(members), members
	defer func() { b.me, b.n, b.members = me, n, nil }()
	fn()
}

// buf names buffer w of communicator index i: 's' the send buffer, 'r'
// the result, 't' scratch. On the host path they are the library's
// staging buffers; on the device path the call's own buffers (of this
// rank only: the point-to-point layer finds the peer's).
func (b *builder) buf(i int, w byte) string {
	if b.staged() {
		var n [64]byte
		return newName(&n, b.l.prefix).c('h').d(b.rank(i)).c('.').c(w).String()
	}
	switch {
	case w == 't':
		return b.scratch(b.rank(i))
	case b.call.Op == trace.MPIBcast:
		return b.call.Buf
	case w == 's':
		return b.call.Src
	}
	return b.call.Dst
}

// at is the span [off, off+bytes) of buffer w of index i.
func (b *builder) at(i int, w byte, off, bytes int64) span {
	return span{b.buf(i, w), b.off + off, bytes}
}

// alloc allocates the rank's library buffers the call uses, the first
// time.
func (b *builder) alloc() {
	r := b.call.Rank
	gcd, ok := b.l.gcd[r]
	if !ok {
		return // a rank whose collectives are all barriers has no buffers
	}
	if b.staged() {
		numa := b.l.p.NUMA[gcd]
		for _, w := range []byte{'s', 'r', 't'} {
			if name := b.buf(b.me, w); !b.l.made[name] {
				b.l.made[name] = true
				b.emit(trace.Op{Op: trace.HostMalloc, Buf: name, NUMA: &numa, Bytes: b.l.host[r]})
			}
		}
	}
	if name := b.scratch(r); b.devNeed() > 0 && !b.l.made[name] {
		b.l.made[name] = true
		b.emit(trace.Op{Op: trace.Malloc, Buf: name, GCD: &gcd, Bytes: b.l.dev[r]})
	}
}

// run lowers the call.
func (b *builder) run() {
	b.alloc()
	o := b.call
	switch o.Op {
	case trace.MPIBarrier:
		b.barrier()
	case trace.MPIBcast:
		b.bcastTree(b.rootIndex(), b.whole(b.me, 'r'))
	case trace.MPIAllgather:
		b.allgather()
	case trace.MPIAlltoall:
		b.alltoall()
	default:
		b.reduction()
	}
}

// rootIndex is the communicator index of the call's root.
func (b *builder) rootIndex() int { return b.l.index(*b.call.Root) }

// reduction runs a reducing collective: staged through host memory
// unless the GPU reduces (MPICH_GPU_ALLREDUCE_USE_KERNEL for allreduce).
func (b *builder) reduction() {
	o := b.call
	if b.staged() {
		b.stage(b.whole(b.me, 's'), span{o.Src, 0, o.Bytes}) // MPIR_gpu_host_swap
	}
	var result span // where the rank's result ends, if it has one
	switch o.Op {
	case trace.MPIReduce:
		b.copy(b.whole(b.me, 'r'), b.whole(b.me, 's'))
		if b.reduce(b.rootIndex()) {
			result = b.at(b.me, 'r', 0, o.Bytes)
		}
	case trace.MPIAllreduce:
		if b.staged() {
			result = b.allreduce()
		} else {
			result = b.blockAllreduce()
		}
	case trace.MPIReduceScatter:
		result = b.reduceScatter()
	}
	if b.staged() && result.bytes > 0 {
		b.stage(span{o.Dst, 0, result.bytes}, result) // swap back
	}
}

// blockAllreduce is the GPU allreduce: the algorithm runs on one
// MPICH_GPU_ALLREDUCE_BLK_SIZE block after another (assumed: blocks do not
// overlap; Cray's sources are closed).
func (b *builder) blockAllreduce() span {
	total, blk := b.call.Bytes, b.l.p.AllreduceBlock
	if blk <= 0 { // config validation rejects 0; Params built in Go mean the whole message
		blk = total
	}
	for off := int64(0); off < total; off += blk {
		b.off, b.bytes = off, min(blk, total-off)
		b.allreduce()
	}
	b.off, b.bytes = 0, total
	return b.whole(b.me, 'r')
}

// stage copies between a device buffer and host memory: a blocking
// hipMemcpy, or, up to GTL_HSA_VSMSG_CUTOFF_SIZE bytes, the CPU's loads or stores
// through the host mapping of device memory (Cray GTL's blocking CPU copy,
// OLCF's Frontier user guide; docs/model/mpi.md "Three paths inside a node").
func (b *builder) stage(dst, src span) {
	if src.bytes <= b.l.p.VSMsgCutoff {
		b.hostCopy(dst, src)
		return
	}
	b.emit(trace.Op{Op: trace.Memcpy, Src: src.buf, SrcOff: src.off, Dst: dst.buf, DstOff: dst.off, Bytes: src.bytes})
}

// flag names a flag of a host message of this collective.
func (b *builder) flag(from, to, k int, what string) string {
	var n [64]byte
	return newName(&n, b.l.prefix).c('c').d(b.seq).c('.').d(from).c('-').d(to).c('.').d(k).c('.').s(what).String()
}

// exchange sends and receives a step's messages and waits for all
// (MPIC_Sendrecv, MPIC_Waitall).
func (b *builder) exchange(sends, recvs []xfer) {
	if b.staged() || b.call.Op == trace.MPIBarrier {
		b.hostExchange(sends, recvs)
		return
	}
	b.messages(sends, recvs)
}

// messages posts a step's messages as point-to-point calls (the
// point-to-point layer moves them) and waits for all. Messages without
// bytes go only between nodes (a barrier's), from the rank's small host
// buffer.
func (b *builder) messages(sends, recvs []xfer) {
	var reqs []string
	post := func(k trace.Kind, x xfer) {
		if x.at.bytes == 0 && !b.remote(x.peer) {
			return
		}
		if x.at.buf == "" {
			x.at.buf = b.tiny()
		}
		b.l.reqs[b.call.Rank]++
		var n [64]byte
		req := newName(&n, b.l.prefix).c('r').d(b.l.reqs[b.call.Rank]).String()
		reqs = append(reqs, req)
		op := trace.Op{Op: k, Buf: x.at.buf, Bytes: x.at.bytes, Peer: intp(b.rank(x.peer)), Tag: -1 - b.seq, Req: req}
		if k == trace.MPIIsend {
			op.SrcOff = x.at.off
		} else {
			op.DstOff = x.at.off
		}
		b.emit(op)
	}
	for _, x := range recvs {
		post(trace.MPIIrecv, x)
	}
	for _, x := range sends {
		post(trace.MPIIsend, x)
	}
	if len(reqs) == 0 {
		return
	}
	b.emit(trace.Op{Op: waitReqs, Req: strings.Join(reqs, ",")})
}

// node is the node of communicator index i's rank (its GCD's), -1 if
// the rank has no buffers.
func (b *builder) node(i int) int {
	g, ok := b.l.gcd[b.rank(i)]
	if !ok || b.l.p.Net.GCDsPerNode == 0 {
		return -1
	}
	return g / b.l.p.Net.GCDsPerNode
}

// remote says whether index i's rank is on another node than the caller:
// they share no host memory, so their messages cross the network.
func (b *builder) remote(i int) bool {
	me, other := b.node(b.me), b.node(i)
	return me >= 0 && other >= 0 && me != other
}

// tiny is the rank's small host buffer that messages without bytes name.
func (b *builder) tiny() string {
	var n [64]byte
	name := newName(&n, b.l.prefix).c('h').d(b.call.Rank).s(".0").String()
	if !b.l.made[name] {
		b.l.made[name] = true
		b.emit(trace.Op{Op: trace.HostMalloc, Buf: name, NUMA: b.numa(), Bytes: 64})
	}
	return name
}

// hostExchange is a step between host buffers: with a rank of the node the
// sender says its buffer is ready, the receiver's CPU copies from it and
// says it is done, which the sender waits for before it reuses the
// buffer; messages without bytes (a barrier's) are the ready flags alone.
// With a rank of another node the step's messages cross the network.
func (b *builder) hostExchange(sends, recvs []xfer) {
	var netSends, netRecvs []xfer
	sends = slices.DeleteFunc(slices.Clone(sends), func(x xfer) bool {
		if b.remote(x.peer) {
			netSends = append(netSends, x)
		}
		return b.remote(x.peer)
	})
	recvs = slices.DeleteFunc(slices.Clone(recvs), func(x xfer) bool {
		if b.remote(x.peer) {
			netRecvs = append(netRecvs, x)
		}
		return b.remote(x.peer)
	})
	b.messages(netSends, netRecvs)
	me, l := b.call.Rank, b.l
	for _, x := range sends {
		to := b.rank(x.peer)
		b.emit(trace.Op{Op: trace.HostCompute, ComputeNs: l.p.PostNs})
		b.emit(trace.Op{Op: trace.FlagSet, Flag: b.flag(me, to, l.sent[[3]int{b.seq, me, to}], "rts")})
	}
	for _, x := range recvs {
		from := b.rank(x.peer)
		k := l.recvd[[3]int{b.seq, from, me}]
		l.recvd[[3]int{b.seq, from, me}]++
		b.emit(trace.Op{Op: trace.HostCompute, ComputeNs: l.p.PostNs})
		b.emit(trace.Op{Op: trace.FlagWait, Flag: b.flag(from, me, k, "rts")})
		if x.at.bytes > 0 {
			b.hostCopy(x.at, x.from)
			b.emit(trace.Op{Op: trace.FlagSet, Flag: b.flag(from, me, k, "fin")})
		}
	}
	for _, x := range sends {
		to := b.rank(x.peer)
		k := l.sent[[3]int{b.seq, me, to}]
		l.sent[[3]int{b.seq, me, to}]++
		if x.at.bytes > 0 {
			b.emit(trace.Op{Op: trace.FlagWait, Flag: b.flag(me, to, k, "fin")})
		}
	}
}

// numa is the rank's NUMA domain: its CPU does the host path's work.
func (b *builder) numa() *int {
	d := b.l.p.NUMA[b.l.gcd[b.call.Rank]]
	return &d
}

// hostCopy is one CPU thread copying src to dst (memcpy).
func (b *builder) hostCopy(dst, src span) {
	if src.bytes == 0 {
		return
	}
	b.emit(trace.Op{Op: trace.HostAccess, NUMA: b.numa(), Threads: 1, Access: []trace.Access{
		{Buf: src.buf, Mode: "read", Bytes: src.bytes, Offset: src.off},
		{Buf: dst.buf, Mode: "write", Bytes: dst.bytes, Offset: dst.off}}})
}

// copy is MPIR_Localcopy: a CPU memcpy on the host path, a blocking
// hipMemcpy between device buffers on the device path.
func (b *builder) copy(dst, src span) {
	if src.bytes == 0 {
		return
	}
	if b.staged() {
		b.hostCopy(dst, src)
		return
	}
	b.emit(trace.Op{Op: trace.Memcpy, Src: src.buf, SrcOff: src.off, Dst: dst.buf, DstOff: dst.off, Bytes: src.bytes})
}

// reduceLocal is MPIR_Reduce_local, acc += in: a CPU loop over both on the
// host path (MPI_SUM of MPI_CHAR); on the device path a kernel on the
// rank's GCD reading both and writing acc, which the host waits for.
func (b *builder) reduceLocal(acc, in span) {
	if in.bytes == 0 {
		return
	}
	if b.staged() {
		access := []trace.Access{
			{Buf: in.buf, Mode: "read", Bytes: in.bytes, Offset: in.off},
			{Buf: acc.buf, Mode: "read", Bytes: acc.bytes, Offset: acc.off},
			{Buf: acc.buf, Mode: "write", Bytes: acc.bytes, Offset: acc.off}}
		if !b.accCached {
			b.emit(trace.Op{Op: trace.HostAccess, NUMA: b.numa(), Threads: 1, Access: access})
			return
		}
		// acc is in the rank's cache: only in, which the NIC wrote, is a
		// memory round trip; the sum is the CPU's work in its cache
		b.emit(trace.Op{Op: trace.HostAccess, NUMA: b.numa(), Threads: 1, Access: access[:1]})
		b.emit(trace.Op{Op: trace.HostCompute, Access: access})
		return
	}
	b.kernel("mpi_reduce_sum", acc.bytes, []trace.Access{
		{Buf: in.buf, Mode: "read", Bytes: in.bytes, Offset: in.off},
		{Buf: acc.buf, Mode: "read", Bytes: acc.bytes, Offset: acc.off},
		{Buf: acc.buf, Mode: "write", Bytes: acc.bytes, Offset: acc.off}})
}

// pack copies spans src[i] to dst[i] in one kernel on the rank's GCD (the
// pack and unpack of a derived datatype on GPU buffers) and waits for it.
func (b *builder) pack(dst, src []span) {
	var acc []trace.Access
	var bytes int64
	for i := range src {
		acc = append(acc, trace.Access{Buf: src[i].buf, Mode: "read", Bytes: src[i].bytes, Offset: src[i].off},
			trace.Access{Buf: dst[i].buf, Mode: "write", Bytes: dst[i].bytes, Offset: dst[i].off})
		bytes += src[i].bytes
	}
	b.kernel("mpi_pack", bytes, acc)
}

// kernel runs a library kernel over bytes on the rank's GCD, on the
// library's stream, and waits for it (the host needs its result next).
func (b *builder) kernel(name string, bytes int64, acc []trace.Access) {
	gcd := b.l.gcd[b.call.Rank]
	wg := int64(kernelWorkgroup)
	grid := (bytes + kernelBytesPerItem - 1) / kernelBytesPerItem
	grid = (grid + wg - 1) / wg * wg
	b.emit(trace.Op{Op: trace.Kernel, Name: name, GCD: &gcd, Stream: Stream, Grid: grid, Workgroup: kernelWorkgroup, Access: acc})
	var n [64]byte
	ev := newName(&n, b.l.prefix).c('c').d(b.seq).c('.').d(b.call.Rank).s(".k").d(b.l.reqs[b.call.Rank]).String()
	b.l.reqs[b.call.Rank]++
	b.emit(trace.Op{Op: trace.EventRecord, Event: ev, Stream: Stream})
	b.emit(trace.Op{Op: trace.EventSync, Event: ev})
}

// The library kernels' shape (assumed: yaksa's HIP kernels, 256
// work-items a workgroup, here 16 bytes each).
const (
	kernelWorkgroup    = 256
	kernelBytesPerItem = 16
)

func intp(v int) *int { return &v }

// scratch names rank r's device scratch buffer.
func (b *builder) scratch(r int) string {
	var n [64]byte
	return newName(&n, b.l.prefix).c('d').d(r).s(".t").String()
}
