package hip

import (
	"fmt"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/sdma"
	"github.com/akisim/akisim/internal/limit"
	"github.com/akisim/akisim/trace"
	"github.com/sarchlab/akita/v3/sim"
)

// Managed memory (hipMallocManaged) on gfx90a, as the KFD driver moves it
// (linux amdkfd kfd_svm.c, kfd_migrate.c; shared docs host-memory.md 3, 4):
//
//   - the pages start in host DRAM on the buffer's NUMA domain;
//   - HSA_XNACK=0: they stay where they are and kernels reach them in
//     place (zero-copy over the host link, like mapped pinned memory);
//   - HSA_XNACK=1: a kernel touching a 2 MiB block (KFD granularity 9,
//     clipped to the buffer) not resident on its GCD faults; the driver
//     handles the faults of a range one block at a time (a fault on a block
//     being restored is dropped as a duplicate, and so is one on a block
//     mapped on a GCD less than the release's fault_pending_ns ago, the
//     KFD's validate_timestamp window: the wave retries until it ends):
//     runtime.managed_fault_ns,
//     then the release's managed_page_ns per 4 KiB page (managed_host_page_ns
//     on the way back to host DRAM), then an SDMA copy of the
//     block over the host link (its 2 MiB GART piece); a block on another
//     GCD goes through host DRAM first (svm_migrate_vram_to_vram), two
//     migrations each with its per-page work. The kernel runs once its
//     blocks are resident;
//   - a prefetch (hipMemPrefetchAsync) moves every block of the buffer not
//     yet at its destination the same way, without the fault, in stream
//     order, and the host waits for it (ROCclr blocks the caller).
//
// On an APU (host.memory = "hbm") the KFD's best place for a range is
// system memory, which is the HBM (kfd_svm.c svm_range_best_restore_location
// and svm_range_best_prefetch_location return 0 on an APU): a GPU fault maps
// the block in place, paying the fault and the per-page work but no copy; a
// prefetch moves nothing; a CPU access has nothing to bring back.

// managedBlock is the KFD migration granularity: 2^9 pages of 4 KiB.
const managedBlock = 2 << 20

// hostSide is where a managed block lives when it is in host DRAM.
const hostSide = -1

// managedBuf is a managed buffer's residency.
type managedBuf struct {
	at    []int            // per 2 MiB block: the GCD holding it, or hostSide
	valid []sim.VTimeInSec // per block: when the driver last mapped it on a GCD (KFD validate_timestamp)
	dev   map[int]int64    // its address on each GCD it has been migrated to
	// a buffer of one block (most: yaksa's metadata nodes) keeps its
	// block's place and time here, at and valid one allocation with it
	one      [1]int
	oneValid [1]sim.VTimeInSec
}

// blockMove is one block's way to a new place: a hop over SDMA, or two
// through host DRAM.
type blockMove struct {
	buf   string
	block int
	to    int
	fault bool // a GPU fault started it (not a prefetch)
}

// migration is the migrations one op waits for, taken one block at a time.
type migration struct {
	op    int
	s     *stream // a prefetch's stream; nil for a kernel's faults
	moves []blockMove
	hops  [][2]int       // the current block's hops still to copy: from, to
	paid  bool           // the driver's per-page work for the next hop is done
	lead  sim.VTimeInSec // time before the first block: a prefetch's round trip through ROCr and the ioctl
}

// migrateEvent resumes a migration after the driver's work on a block.
type migrateEvent struct {
	fabric.EventAt
	m *migration
}

// ManagedStats counts what managed memory did.
type ManagedStats struct {
	Faults        uint64 // GPU faults handled (one per block)
	FaultWaits    uint64 // of them, faults first dropped as duplicates: their block was mapped within the release's fault_pending_ns
	BlocksToGPU   uint64 // blocks migrated into a GCD's HBM
	BlocksToHost  uint64 // blocks migrated back to host DRAM
	BytesToGPU    uint64 // bytes SDMA moved over the host link into HBM
	BytesToHost   uint64 // bytes SDMA moved over the host link into host DRAM
	PrefetchCalls uint64
}

// managedAlloc records a new managed buffer: every block in host DRAM.
func (r *Runtime) managedAlloc(b trace.Buffer) error {
	blocks := (b.Bytes + managedBlock - 1) / managedBlock
	// the refusal's message is made only for a refusal: a run may make
	// thousands of small managed buffers (yaksa's type metadata)
	if need := limit.Product(blocks, 16); limit.Memory("", need) != nil {
		return limit.Memory(fmt.Sprintf("malloc_managed of %d bytes (where each of its %d 2 MiB blocks is)", b.Bytes, blocks), need)
	}
	r.allocate(b)
	mb := &managedBuf{} // dev: made at its first migration
	if blocks == 1 {
		mb.at, mb.valid = mb.one[:], mb.oneValid[:]
	} else {
		mb.at, mb.valid = make([]int, blocks), make([]sim.VTimeInSec, blocks)
	}
	for i := range mb.at {
		mb.at[i] = hostSide
		mb.valid[i] = -ns(r.rel.FaultPendingNs) // a new range is not "just restored": its first fault is served
	}
	if r.managed == nil {
		r.managed = make(map[string]*managedBuf, r.managedHint)
	}
	r.managed[b.Name] = mb
	return nil
}

// managedAt is where byte off of managed buffer buf is now.
func (r *Runtime) managedAt(buf string, off int64) place {
	mb := r.managed[buf]
	g := mb.at[off/managedBlock]
	if g == hostSide || r.unified { // on an APU a block is mapped on a GCD in place
		b := r.base[buf]
		return place{b.mem, b.addr + off}
	}
	return place{fabric.Memory{Index: g}, r.devAddr(buf, g) + off}
}

// devAddr is managed buffer buf's address in GCD g's HBM, reserved at its
// first migration there.
func (r *Runtime) devAddr(buf string, g int) int64 {
	mb := r.managed[buf]
	if a, ok := mb.dev[g]; ok {
		return a
	}
	if mb.dev == nil {
		mb.dev = map[int]int64{}
	}
	a := r.reserve(fabric.Memory{Index: g}, r.bufs[buf].Bytes)
	mb.dev[g] = a
	return a
}

// faulting reports whether kernel item it must wait for page migrations
// before it runs: with HSA_XNACK=1, the blocks it touches that are not on
// its GCD migrate first. The stream resumes when they are done.
func (r *Runtime) faulting(now sim.VTimeInSec, s *stream, it item) bool {
	if r.managed == nil { // no managed buffer: nothing migrates (the common case)
		return false
	}
	if _, busy := r.migrating[it.op]; busy {
		return true
	}
	if r.env.XNACK != 1 || r.faulted[it.op] {
		return false
	}
	moves := r.accessMoves(it.op, *r.op(it.op).GCD, true)
	r.faulted[it.op] = true
	if len(moves) == 0 {
		return false
	}
	r.migrate(now, &migration{op: it.op, s: s, moves: moves})
	return true
}

// accessMoves is the moves to place to of the managed blocks op i's
// accesses touch that are elsewhere, each block once, in access order.
func (r *Runtime) accessMoves(i, to int, fault bool) []blockMove {
	var moves []blockMove
	var seen map[blockMove]bool // blocks already taken: accesses may overlap
	for _, a := range r.op(i).Access {
		mb := r.managed[a.Buf]
		if mb == nil {
			continue
		}
		for b := a.Offset / managedBlock; b <= (a.Offset+a.Bytes-1)/managedBlock; b++ {
			mv := blockMove{buf: a.Buf, block: int(b), to: to, fault: fault}
			if mb.at[b] == to || seen[mv] {
				continue
			}
			if seen == nil {
				seen = map[blockMove]bool{}
			}
			seen[mv] = true
			moves = append(moves, mv)
		}
	}
	return moves
}

// prefetchStart begins a prefetch that reached the head of its stream:
// every block not at the destination moves there.
func (r *Runtime) prefetchStart(now sim.VTimeInSec, s *stream, i int) {
	op := r.op(i)
	to, _ := trace.PrefetchGCD(op.Dst)
	r.res(i).Start = now
	r.Managed.PrefetchCalls++
	var moves []blockMove
	for b, at := range r.managed[op.Buf].at {
		if at != to && !r.unified { // an APU's pages are where a prefetch would put them
			moves = append(moves, blockMove{buf: op.Buf, block: b, to: to})
		}
	}
	s.inflight++
	// ROCr's async-handler thread makes the KFD ioctl and signals back
	// (runtime.prefetch_ns); the KFD does not re-validate a range that
	// does not move, so a prefetch to where the pages are costs only that.
	m := &migration{op: i, s: s, moves: moves, lead: ns(r.cost.PrefetchNs)}
	if len(moves) == 0 { // ends after dispatch has taken it off the stream
		r.migrating[i] = m
		r.engine.Schedule(&migrateEvent{fabric.EventAt{T: now + m.lead, H: r}, m})
		return
	}
	r.migrate(now, m)
}

// migrate takes the next block of m at now, or ends m.
func (r *Runtime) migrate(now sim.VTimeInSec, m *migration) {
	r.migrating[m.op] = m
	if len(m.moves) == 0 {
		r.migrated(now, m)
		return
	}
	mv := m.moves[0]
	from := r.managed[mv.buf].at[mv.block]
	switch {
	case from == hostSide || mv.to == hostSide || r.unified: // an APU's hop maps, not copies
		m.hops = [][2]int{{from, mv.to}}
	default: // GCD to GCD through host DRAM
		m.hops = [][2]int{{from, hostSide}, {hostSide, mv.to}}
	}
	at := now + m.lead
	m.lead = 0
	if mv.fault {
		// The driver drops a retry fault on a block it mapped less than
		// the release's fault_pending_ns ago as a duplicate of the fault
		// that mapped it; the wave keeps retrying until the window ends.
		if open := r.managed[mv.buf].valid[mv.block] + ns(r.rel.FaultPendingNs); open > at {
			at = open
			r.Managed.FaultWaits++
		}
		at += ns(r.cost.ManagedFaultNs)
		r.Managed.Faults++
	}
	m.paid = false
	r.engine.Schedule(&migrateEvent{fabric.EventAt{T: at, H: r}, m})
}

// blockBytes is the size of a block: 2 MiB, the last one clipped to the buffer.
func (r *Runtime) blockBytes(mv blockMove) int64 {
	off := int64(mv.block) * managedBlock
	return min(managedBlock, r.bufs[mv.buf].Bytes-off)
}

// migrateHop copies the current block over its next hop on SDMA, on the
// first host engine of the GCD at the far end (the driver's TTM ring), or
// marks the block moved when no hop is left.
func (r *Runtime) migrateHop(now sim.VTimeInSec, m *migration) {
	if len(m.moves) == 0 {
		r.migrated(now, m)
		return
	}
	mv := m.moves[0]
	if len(m.hops) == 0 {
		r.managed[mv.buf].at[mv.block] = mv.to
		if mv.to != hostSide { // svm_range_validate_and_map maps it on the GCD
			r.managed[mv.buf].valid[mv.block] = now
		}
		m.moves = m.moves[1:]
		r.migrate(now, m)
		return
	}
	n := r.blockBytes(mv)
	if !m.paid { // each hop is a migration of its own: collect, unmap, DMA map, remap
		m.paid = true
		perPage := r.rel.ManagedPageNs
		if m.hops[0][1] == hostSide {
			perPage = r.rel.ManagedHostPageNs
		}
		cost := float64(pages(n)) * perPage
		r.engine.Schedule(&migrateEvent{fabric.EventAt{T: now + ns(cost), H: r}, m})
		return
	}
	m.paid = false
	h := m.hops[0]
	m.hops = m.hops[1:]
	if r.unified { // mapped in place: nothing to copy
		r.migrateHop(now, m)
		return
	}
	side := func(g int) fabric.Memory {
		if g == hostSide {
			return memOf(r.bufs[mv.buf])
		}
		r.devAddr(mv.buf, g)
		return fabric.Memory{Index: g}
	}
	src, dst := side(h[0]), side(h[1])
	g := h[1]
	if g == hostSide {
		g = h[0]
		r.Managed.BlocksToHost++
		r.Managed.BytesToHost += uint64(n)
	} else {
		r.Managed.BlocksToGPU++
		r.Managed.BytesToGPU += uint64(n)
	}
	engines := r.device(g).HostEngines
	if len(engines) == 0 {
		r.Err = fmt.Errorf("op %d (line %d): GCD %d has no SDMA engine to migrate managed memory", m.op, r.op(m.op).Line, g)
		return
	}
	r.ctrl[engines[0]].SendAt(now, now, &sdma.CopyCmd{ID: m.op, Src: src, Dst: dst, Bytes: n})
}

// migrated ends a migration: a kernel goes on to run, a prefetch ends, a
// host access proceeds.
func (r *Runtime) migrated(now sim.VTimeInSec, m *migration) {
	delete(r.migrating, m.op)
	switch r.op(m.op).Op {
	case trace.HostAccess:
		r.hostAccess(now, m.op)
		return
	case trace.Prefetch:
		r.res(m.op).End, r.res(m.op).Done = now, true
		r.finished(m.op)
		m.s.inflight--
		r.streamWent(m.s)
	}
	r.dispatch(now, m.s)
}

// cpuFaulting reports whether host access op i must wait for managed
// blocks it touches to come back from a GCD: the CPU's page fault migrates
// each back to host DRAM (svm_migrate_to_ram), whatever HSA_XNACK says.
// The CPU fault is the kernel's own page-fault path, not the GPU's retry
// fault, so only the per-page work and the SDMA copy are paid.
func (r *Runtime) cpuFaulting(now sim.VTimeInSec, i int) bool {
	if r.unified { // an APU's pages never left the CPU's memory
		return false
	}
	moves := r.accessMoves(i, hostSide, false)
	if len(moves) == 0 {
		return false
	}
	r.migrate(now, &migration{op: i, moves: moves})
	return true
}

// hostAccess sends host access op i to the host's cores.
func (r *Runtime) hostAccess(now sim.VTimeInSec, i int) {
	k := r.accessCmd(i)
	k.Workgroups = int64(max(1, r.op(i).Threads))
	k.Queue = r.op(i).Rank // the calling rank's host thread(s)
	node := r.accessNode(i)
	to := r.thread(node) // builds the node
	r.cores[node].AddStoreFills(k)
	for _, w := range k.Writes {
		r.cpuWrote(node, k.Queue, int(k.Workgroups), place{w.Mem, w.Addr}, w.Bytes)
	}
	to.Send(now, k)
}
