// Package mpi models Cray MPICH's point-to-point transport between ranks
// of one node on GPU buffers (docs/references.md [cray-mpich]). It turns a trace's MPI
// calls into what the library does on the host and the GPUs: messages of
// at least MPICH_GPU_IPC_THRESHOLD bytes go over IPC-mapped peer memory
// (the receiver maps the sender's buffer once, from an IPC handle it
// caches, and copies it with the HSA async-copy API, so HSA_ENABLE_SDMA
// picks an SDMA engine or a blit kernel; the sender's request completes
// when the receiver signals it is done); smaller ones are staged through
// host shared memory (the sender copies into a bounce buffer and goes on,
// the receiver copies out). Ranks hand each other readiness through flags
// in shared memory that the other polls. Progress happens inside MPI
// calls, as in MPICH: a receive's copy starts once both the receive is
// posted and its sender is ready.
//
// Matching is static: MPI's non-overtaking rule pairs the n-th send from
// rank a to rank b with tag t with the n-th receive at b from a with tag t,
// and trace.Check has verified every message has its match.
package mpi

import (
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/internal/limit"
	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"
)

// Stream is the stream of each rank the library's copies go on; programs
// do not use it (trace.Check keeps their streams at or below MaxStream).
const Stream = trace.MaxStream + 1

// IPCStream + r is a rank's queue of IPC copies from rank r: each a copy
// with its own completion signal (hsa_amd_memory_async_copy), not a HIP
// stream, so copies from different senders do not wait for each other.
const IPCStream = Stream + 1<<20

// Params are the library's switches and host costs.
type Params struct {
	IPC          bool  // MPICH_GPU_IPC_ENABLED
	IPCThreshold int64 // MPICH_GPU_IPC_THRESHOLD: smaller messages are staged
	IPCCache     int   // MPICH_GPU_IPC_CACHE_MAX_SIZE: handles a rank keeps open
	// OwnGCD: each rank's ROCr sees only its own GCD (mpi.visible_gcds
	// "own"), so an IPC copy names that GCD's agent at both ends
	OwnGCD bool
	// VSMsgCutoff is GTL_HSA_VSMSG_CUTOFF_SIZE: a GTL copy of at most this
	// many bytes is the CPU's loads and stores, not an HSA async copy
	VSMsgCutoff int64
	Coll        Thresholds // the collectives' algorithm switches (coll.go)
	PostNs      float64    // mpi.post_ns
	// CoreToCoreNs is host.core_to_core_ns: a rank's load of host lines
	// another rank's core wrote last (a shared-memory cell) comes from that
	// core's cache
	CoreToCoreNs float64
	IPCOpenNs    float64 // mpi.ipc_open_ns
	NUMA         []int   // by global GCD id, its NUMA domain (global id): a sender's bounce buffers live on its GCD's domain
	// AllreduceKernel is MPICH_GPU_ALLREDUCE_USE_KERNEL: MPI_Allreduce
	// reduces on the GPU instead of staging through host memory (Cray's
	// default, 0, in 8.1.17; docs/references.md [cray-mpich]).
	AllreduceKernel bool
	// AllreduceKernelThreshold (MPICH_GPU_ALLREDUCE_KERNEL_THRESHOLD): with
	// the kernel on, smaller allreduces still reduce on the host.
	AllreduceKernelThreshold int64
	// AllreduceBlock (MPICH_GPU_ALLREDUCE_BLK_SIZE, at least 1): the kernel
	// path reduces this many bytes at a time.
	AllreduceBlock int64
	Shared         Shared // MPICH's shared-memory collectives (releasegather.go)
	Net            Net    // between nodes (net.go)
}

// FromConfig reads the parameters of node c.
func FromConfig(c *config.Node) Params {
	e := &c.Env
	return Params{IPC: e.IPCEnabled == 1, IPCThreshold: e.IPCThreshold, IPCCache: e.IPCCacheMax, VSMsgCutoff: e.VSMsgCutoff,
		OwnGCD: c.MPI.VisibleGCDs == config.VisibleOwn,
		Coll: Thresholds{ReduceShort: e.ReduceShort, AllreduceShort: e.AllreduceShort, AllreduceMaxSMP: e.AllreduceMaxSMP, BcastRadix: e.BcastRadix,
			ReduceScatterLong: e.ReduceScatterLong, AllgatherLong: e.AllgatherLong, AllgatherShort: e.AllgatherShort,
			AlltoallShort: e.AlltoallShort, AlltoallMedium: e.AlltoallMedium},
		PostNs: c.MPI.PostNs, CoreToCoreNs: c.Host.CoreToCoreNs, IPCOpenNs: c.MPI.IPCOpenNs, NUMA: c.GlobalGCDNUMA(), AllreduceKernel: c.GPUAllreduceKernel(),
		AllreduceKernelThreshold: e.AllreduceKernelThreshold, AllreduceBlock: e.AllreduceBlock,
		Shared: Shared{On: e.SharedMemColl == 1, Threshold: e.PosixCollsThreshold, CellBytes: e.SharedMemCellBytes,
			Cells: e.SharedMemCells, ReduceK: e.ReduceIntranodeKval, ReleaseK: e.BcastIntranodeKval},
		Net: netFromConfig(c)}
}

// Expand returns ops with every MPI call replaced by the operations the
// library performs for it, on the calling rank, each carrying the call's
// line and label. Ops without MPI calls come back unchanged.
func Expand(ops []trace.Op, p Params) []ir.Command {
	cmds, _, _ := expand(ops, p, false)
	return cmds
}

// ExpandWithin is Expand checking first that the commands fit in the
// memory the process may take: the lowering multiplies the calls (a
// barrier of n ranks is about 2 log2 n commands a rank), so a trace that
// fits may lower to one that does not (*limit.Error).
func ExpandWithin(ops []trace.Op, p Params) ([]ir.Command, error) {
	cmds, _, err := expand(ops, p, true)
	return cmds, err
}

// expand is Expand, and the number of commands count found before making
// them (-1 if it had nothing to expand); with check, an error if they
// would not fit in memory.
func expand(ops []trace.Op, p Params, check bool) ([]ir.Command, int, error) {
	if !slices.ContainsFunc(ops, func(o trace.Op) bool { return o.IsMPI() }) {
		return ir.FromTrace(ops), -1, nil
	}
	x, err := newExpander(ops, nil, p)
	if err != nil {
		return nil, 0, err
	}
	n := x.count()
	if check {
		if err := limit.Memory(fmt.Sprintf("the MPI library's %d commands for %d calls", n, len(ops)), limit.Product(int64(n), int64(unsafe.Sizeof(ir.Command{})))); err != nil {
			return nil, n, err
		}
	}
	x.out = make([]ir.Command, 0, n)
	for i := range x.ops {
		x.op(i)
	}
	return x.out, n, nil
}

// newExpander is ops' expander with the collectives lowered, the
// messages matched and the waits' requests found: ready to make commands.
// order, if not nil, is the sequence to take ops in (lowerRefs).
func newExpander(ops []trace.Op, order []int32, p Params) (*expander, error) {
	pre := prefix(ops)
	low, bufs, err := lowerRefs(ops, order, p, pre) // collectives become point-to-point calls and local work
	if err != nil {
		return nil, err
	}
	x := &expander{p: p, ops: low, prefix: pre, bufs: bufs, bySide: make([]int32, 2*len(low)),
		cache: map[int][]string{}, shm: map[[2]int]bool{}, eager: map[[2]int]int64{}, nicNext: map[int]int{}, nicGets: map[int]int{}}
	x.noteHalves()
	x.match()
	x.waits()
	return x, nil
}

type expander struct {
	p        Params
	ops      []*trace.Op // the lowered calls (lowerRefs)
	prefix   string      // of the names of the library's buffers, events and flags
	bufs     map[string]trace.Buffer
	msgs     []message // the matched messages, in the order their second half came
	bySide   []int32   // at 2*op+send: 1 + the index in msgs of that half's message, 0 for none
	waited   []int32   // the calls whose requests the waits complete, wait after wait (waits.go)
	waitFrom []int32   // by call: where its requests start in waited (the next call's: where they end)
	halves   []side    // finished's reused slice
	// halfKinds are, by call, the halves it makes (sendHalf, recvHalf)
	halfKinds []uint8
	cache     map[int][]string // rank -> the peer buffers it has mapped, least recent first
	shm       map[[2]int]bool  // (sender, receiver) -> their bounce buffer is allocated
	eager     map[[2]int]int64 // (sender, receiver) -> their largest staged message
	nicNext   map[int]int      // rank -> RDMA puts it queued (they take its NIC streams in turn)
	nicGets   map[int]int      // rank -> rendezvous gets it queued (on streams of their own, in turn)
	out       []ir.Command
}

// endOf is side s's buffer, rank and where in the buffer its message
// starts: an mpi_sendrecv sends src and receives into dst; a
// collective's messages (coll.go) carry src_offset on sends and
// dst_offset on receives.
func (x *expander) endOf(s side) end {
	o := x.ops[s.op]
	e := end{buf: o.Buf, off: o.DstOff, rank: o.Rank}
	if s.send {
		e.off = o.SrcOff
	}
	switch {
	case o.Op != trace.MPISendrecv:
	case s.send:
		e.buf = o.Src
	default:
		e.buf = o.Dst
	}
	return e
}

// off is where in its buffer a side's message starts.
func (x *expander) off(s side) int64 { return x.message(s).end(s).off }

// buf is the buffer of a side.
func (x *expander) buf(s side) string { return x.message(s).end(s).buf }

// rank is the rank of a side.
func (x *expander) rank(s side) int { return x.message(s).end(s).rank }

// emit appends an op made for call i: on its rank, line and label.
func (x *expander) emit(i int, o trace.Op) {
	c := x.next()
	c.Call = o
	x.stamp(i, c)
}

// emitCommand appends a lowered command made for call i, as emit does.
func (x *expander) emitCommand(i int, o ir.Command) {
	c := x.next()
	*c = o
	x.stamp(i, c)
}

// stamp puts command c on call i's rank, line and label.
func (x *expander) stamp(i int, c *ir.Command) {
	o := x.ops[i]
	c.Rank, c.Line, c.Label = o.Rank, o.Line, o.Label
}

// next is a new zero command at the end of out, written in place:
// commands are large, and building each aside and copying it in was a
// good part of expanding.
func (x *expander) next() *ir.Command {
	if len(x.out) == cap(x.out) {
		x.out = append(x.out, ir.Command{})
	} else {
		x.out = x.out[:len(x.out)+1] // out only grows: the slot past its end is still zero
	}
	return &x.out[len(x.out)-1]
}

func (x *expander) op(i int) {
	o := x.ops[i]
	switch o.Op {
	case trace.MPIIsend, trace.MPIIrecv:
		sds, _ := x.sides(i)
		x.start(i, sds[0])
	case trace.MPISend, trace.MPIRecv, trace.MPISendrecv:
		sds, n := x.sides(i)
		for _, sd := range sds[:n] {
			x.start(i, sd)
		}
		x.finish(i, sds[:n])
	case trace.MPIWait, trace.MPIWaitall, waitReqs:
		x.finish(i, x.finished(i))
	default:
		x.next().Call = *o
	}
}

// start is what call i does for side sd when it is made: the host sets up
// the request; a send over IPC tells the receiver its buffer is ready, a
// staged one copies into the bounce buffer first and is then done. An IPC
// receive's copy is queued at once (recvIPC).
func (x *expander) start(i int, sd side) {
	m := x.message(sd)
	x.emit(i, trace.Op{Op: trace.HostCompute, ComputeNs: x.p.PostNs})
	switch {
	case m.net && sd.send:
		x.netSend(i, m)
		return
	case m.net:
		x.netRecv(i, m)
		return
	case !sd.send && m.ipc:
		x.recvIPC(i, sd, m)
		return
	case !sd.send:
		return
	}
	if !m.ipc {
		x.stageCopy(i, x.buf(sd), x.buf(sd), x.off(sd), x.bounce(i, x.buf(sd)), 0, m.bytes)
	}
	x.emit(i, trace.Op{Op: trace.FlagSet, Flag: x.flag(m, rts)})
}

// recvIPC is an IPC receive's copy, which MPICH starts in whichever MPI
// call's progress first finds both the receive posted and the sender's
// handle arrived: it is queued when the receive is posted, on a queue of
// its sender, starts when the sender's handle arrives (wait_flag), and its
// completion tells the sender (set_flag). The receiver is taken to be in
// MPI calls meanwhile (its waits, as halo exchanges and collectives are);
// the handle is opened when the receive is posted.
func (x *expander) recvIPC(i int, sd side, m *message) {
	from := x.buf(m.send)
	x.open(i, x.rank(sd), from)
	if m.cpuCopy { // the receiver's own loads and stores, in its wait (finish)
		return
	}
	c := ir.Command{Call: trace.Op{Op: trace.MemcpyPeerAsy, Src: from, SrcOff: x.off(m.send), Dst: x.buf(sd), DstOff: x.off(sd), Bytes: m.bytes,
		Stream: IPCStream + x.rank(m.send), WaitFlag: x.flag(m, rts), SetFlag: x.flag(m, fin)}, HSA: true}
	if x.p.OwnGCD { // the receiver's ROCr knows only its own GCD's agent
		g := x.bufs[x.buf(sd)].GCD
		c.CopyGCD = &g
	}
	x.emitCommand(i, c)
}

// stageCopy is a staged message's copy between device buffer dev (src or
// dst) and the bounce buffer, made by call i's rank: up to
// GTL_HSA_VSMSG_CUTOFF_SIZE bytes its CPU loads or stores through the host
// mapping of the device memory, else a blocking hipMemcpy (the rule and
// its source: builder.stage, coll.go).
func (x *expander) stageCopy(i int, dev, src string, srcOff int64, dst string, dstOff, bytes int64) {
	if bytes > x.p.VSMsgCutoff {
		x.emit(i, trace.Op{Op: trace.Memcpy, Src: src, SrcOff: srcOff, Dst: dst, DstOff: dstOff, Bytes: bytes})
		return
	}
	numa := x.p.NUMA[x.bufs[dev].GCD]
	x.emit(i, trace.Op{Op: trace.HostAccess, NUMA: &numa, Threads: 1, Access: []trace.Access{
		{Buf: src, Mode: "read", Bytes: bytes, Offset: srcOff}, {Buf: dst, Mode: "write", Bytes: bytes, Offset: dstOff}}})
}

// bounce is the shared-memory buffer of call i's sender and receiver,
// allocated by the sender the first time, on its GCD's NUMA domain (the
// receiver reads it only after the sender's ready flag).
func (x *expander) bounce(i int, buf string) string {
	o := x.ops[i]
	pair := [2]int{o.Rank, *o.Peer}
	b := x.bounceName(pair)
	if !x.shm[pair] {
		x.shm[pair] = true
		numa := x.p.NUMA[x.bufs[buf].GCD]
		x.emit(i, trace.Op{Op: trace.HostMalloc, Buf: b, NUMA: &numa, Bytes: x.eager[pair]})
	}
	return b
}

// bounceName names the bounce buffer of messages from pair[0] to pair[1].
func (x *expander) bounceName(pair [2]int) string {
	var n [64]byte
	return newName(&n, x.prefix).s("shm.").d(pair[0]).c('.').d(pair[1]).String()
}

// prefix is "mpi." or, if the program names something so (a buffer,
// event, flag or request), the shortest "_..._mpi." it does not: the
// library's names never take a program's.
func prefix(ops []trace.Op) string {
	p := "mpi."
	for i := 0; i < len(ops); i++ {
		if o := &ops[i]; strings.HasPrefix(o.Buf, p) || strings.HasPrefix(o.Event, p) ||
			strings.HasPrefix(o.Flag, p) || strings.HasPrefix(o.WaitFlag, p) || strings.HasPrefix(o.Req, p) {
			p, i = "_"+p, -1 // taken: try a longer one from the start
		}
	}
	return p
}

// finish is what call i (a wait) does for the sides sds of requests:
// staged, network and CPU-copied IPC receives complete in order on the
// host (a CPU-copied one reads the sender's mapped buffer once its handle
// has come, then tells the sender), then the wait returns once its IPC
// receives' async copies are done (recvIPC) and its IPC and network sends
// are acknowledged.
func (x *expander) finish(i int, sds []side) {
	n := len(x.out)
	for _, sd := range sds {
		m := x.message(sd)
		switch {
		case !sd.send && m.cpuCopy:
			x.emit(i, trace.Op{Op: trace.FlagWait, Flag: x.flag(m, rts)})
			x.stageCopy(i, x.buf(sd), x.buf(m.send), x.off(m.send), x.buf(sd), x.off(sd), m.bytes)
			x.emit(i, trace.Op{Op: trace.FlagSet, Flag: x.flag(m, fin)})
		case sd.send || m.ipc:
		case m.net: // the NIC's completion event
			x.emit(i, trace.Op{Op: trace.FlagWait, Flag: x.flag(m, landed)})
		default:
			x.emit(i, trace.Op{Op: trace.FlagWait, Flag: x.flag(m, rts)})
			x.stageCopy(i, x.buf(sd), x.bounceName([2]int{x.rank(m.send), x.rank(sd)}), 0, x.buf(sd), x.off(sd), m.bytes)
		}
	}
	for _, sd := range sds {
		if m := x.message(sd); m.ipc || (sd.send && m.net) { // the receiver's copy done, or the far NIC's word
			x.emit(i, trace.Op{Op: trace.FlagWait, Flag: x.flag(m, fin)})
		}
	}
	if len(x.out) == n {
		x.emit(i, trace.Op{Op: trace.HostCompute}) // a wait with nothing left to do still returns
	}
}

// open maps buf on rank from its IPC handle unless the rank has it mapped
// (MPICH's handle cache, least recently used out).
func (x *expander) open(i, rank int, buf string) {
	if !x.mapped(x.cache, rank, buf) {
		x.emit(i, trace.Op{Op: trace.HostCompute, ComputeNs: x.p.IPCOpenNs})
	}
}

// mapped says whether rank has buf in its handle cache (cache, by rank,
// least recent first) and makes it the most recent; a miss maps it, the
// least recent going if the cache is full.
func (x *expander) mapped(cache map[int][]string, rank int, buf string) bool {
	c := cache[rank]
	if k := slices.Index(c, buf); k >= 0 {
		cache[rank] = append(slices.Delete(c, k, k+1), buf)
		return true
	}
	if len(c) >= x.p.IPCCache {
		c = c[1:]
	}
	cache[rank] = append(c, buf)
	return false
}
