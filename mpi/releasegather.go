package mpi

import (
	"slices"

	"github.com/akisim/akisim/trace"
)

// Shared-memory collectives inside a node: Cray MPICH's
// (MPICH_SHARED_MEM_COLL_OPT, cells of MPICH_SHARED_MEM_COLL_CELLSZ
// bytes; Cray's sources are closed), modelled as MPICH 3.4's CH4 POSIX
// "release_gather" (src/mpid/ch4/shm/posix/release_gather, pmodels/mpich
// v3.4.2), which Cray MPICH 8.1 is built on. An allreduce on a
// communicator of one node's ranks (maint/tuning/coll/ch4/generic.json:
// comm_size=node_comm_size, the SHM composition) with a commutative op
// (posix_generic.json) takes it from the communicator's
// MPICH_POSIX_NUM_COLLS_THRESHOLD-th call on, the calls before taking the
// point-to-point algorithms. No message is posted: each rank has cells in
// shared memory, and
//
//   - gather: the rank copies its data into its cell, waits for each child
//     of a k-ary tree rooted at rank 0 (MPICH_REDUCE_INTRANODE_TREE_KVAL) to
//     flag its cell ready, reduces the child's cell into its own, and flags
//     its parent;
//   - release: rank 0 flags its children of another k-ary tree
//     (MPICH_BCAST_INTRANODE_TREE_KVAL), each passes the flag on once it
//     sees its parent's, and every rank copies the result out of rank 0's
//     cell.
//
// A cell's first two 64-byte lines are its header (MPICH's layout with
// error checking: the size and the error flag), so a message of more than
// MPICH_SHARED_MEM_COLL_CELLSZ - 128 bytes takes the point-to-point
// algorithms (assumed: Cray does not pipeline it through cells). Calls
// take the cells in turn, MPICH_SHARED_MEM_COLL_NCELLS of them.

// cellHeader is the bytes of a cell that are not data.
const cellHeader = 2 * 64

// Shared holds the shared-memory collectives' settings ([env] MPICH_* keys).
type Shared struct {
	On        bool  // MPICH_SHARED_MEM_COLL_OPT
	Threshold int   // MPICH_POSIX_NUM_COLLS_THRESHOLD: the first call that takes them
	CellBytes int64 // MPICH_SHARED_MEM_COLL_CELLSZ
	Cells     int   // MPICH_SHARED_MEM_COLL_NCELLS
	ReduceK   int   // MPICH_REDUCE_INTRANODE_TREE_KVAL
	ReleaseK  int   // MPICH_BCAST_INTRANODE_TREE_KVAL
}

// fits says whether a message of bytes goes through one cell.
func (s Shared) fits(bytes int64) bool {
	return s.On && s.Cells >= 1 && bytes <= s.CellBytes-cellHeader
}

// releaseGather runs the staged allreduce through the shared cells if
// MPICH would, and says whether it did. MPICH counts the calls that reach
// its shared-memory layer (bcast, reduce, barrier and allreduce); here
// only the allreduces do, the others taking Cray's point-to-point paths.
// On one node it is the shared-memory allreduce; across nodes MPICH's
// SMP-aware composition (MPIDI_Allreduce_intra_composition_alpha,
// ch4_coll_impl.h v3.4.2): a reduce to each node's first rank through its
// cells, an allreduce between those ranks over the network, a bcast from
// each node's first rank through its cells.
func (b *builder) releaseGather() bool {
	sh, r := b.l.p.Shared, b.call.Rank
	if !sh.fits(b.bytes) {
		return false
	}
	b.l.posix[r]++
	if b.l.posix[r] < sh.Threshold {
		return false
	}
	cells := b.cells(r)
	if !b.l.made[cells] { // the first call through the cells sets them up
		b.l.made[cells] = true
		b.emit(trace.Op{Op: trace.HostMalloc, Buf: cells, NUMA: b.numa(), Bytes: sh.CellBytes * int64(sh.Cells)})
	}
	groups, g := b.nodeGroups()
	local := groups[g]
	li := slices.Index(local, b.me)
	if len(groups) == 1 { // every rank copies the sum out of rank 0's cell
		sum := b.cellGather(local, li, false)
		b.cellRelease(local, li, sum)
		return true
	}
	b.cellGather(local, li, true) // the node's first rank reduces into its result
	if li == 0 {
		b.rootsAllreduce(groups)
	}
	b.cellRelease(local, li, span{})
	return true
}

// cell is index i's current cell: its data after the header.
func (b *builder) cell(i int, seg int64) span {
	sh := b.l.p.Shared
	return span{b.cells(b.rank(i)), seg*sh.CellBytes + cellHeader, b.bytes}
}

// nextCell is the cell the rank's next step takes (cells in turn).
func (b *builder) nextCell() int64 {
	r := b.call.Rank
	seg := int64(b.l.cellState[r] % b.l.p.Shared.Cells)
	b.l.cellState[r]++
	return seg
}

// cellFlag names index i's flag of this call.
func (b *builder) cellFlag(i int, what string) string {
	var n [64]byte
	return newName(&n, b.l.prefix).c('c').d(b.seq).c('.').d(b.rank(i)).c('.').s(what).String()
}

// cellGather reduces the node's data up a k-ary tree over local (index
// li of it is the rank): each rank copies its data into its cell, reduces
// its children's cells into it as they flag them, and flags its parent.
// With intoResult the node's first rank reduces into its result buffer
// instead (MPICH's reduce to rank 0). It returns where the sum ends.
func (b *builder) cellGather(local []int, li int, intoResult bool) span {
	seg := b.nextCell()
	acc := b.cell(b.me, seg)
	if li == 0 && intoResult {
		acc = b.whole(b.me, 'r')
	}
	b.cachedCopy(acc, b.whole(b.me, 's'), false)
	for _, c := range kids(li, b.l.p.Shared.ReduceK, len(local)) {
		b.emit(trace.Op{Op: trace.FlagWait, Flag: b.cellFlag(local[c], "gathered")})
		in := b.cell(local[c], seg)
		b.cached(true, trace.Access{Buf: in.buf, Mode: "read", Bytes: in.bytes, Offset: in.off},
			trace.Access{Buf: acc.buf, Mode: "read", Bytes: acc.bytes, Offset: acc.off},
			trace.Access{Buf: acc.buf, Mode: "write", Bytes: acc.bytes, Offset: acc.off})
	}
	if li != 0 {
		b.emit(trace.Op{Op: trace.FlagSet, Flag: b.cellFlag(b.me, "gathered")})
	}
	return b.cell(local[0], seg)
}

// cellRelease sends the node's first rank's data down a k-ary tree over
// local: each rank waits for its parent's flag, flags its own children,
// and copies the data into its result. from is where the data is (the
// first rank's cell, which every rank copies out); empty, the first rank
// copies its result into its next cell first and keeps it (MPICH's bcast).
func (b *builder) cellRelease(local []int, li int, from span) {
	bcast := from.buf == ""
	if bcast {
		from = b.cell(local[0], b.nextCell())
		if li == 0 {
			b.cachedCopy(from, b.whole(b.me, 'r'), false)
		}
	}
	k := b.l.p.Shared.ReleaseK
	if li != 0 {
		b.emit(trace.Op{Op: trace.FlagWait, Flag: b.cellFlag(local[(li-1)/k], "released")})
	}
	if len(kids(li, k, len(local))) > 0 {
		b.emit(trace.Op{Op: trace.FlagSet, Flag: b.cellFlag(b.me, "released")})
	}
	if li != 0 || !bcast { // the first rank's cell: its own lines, others fetch them
		b.cachedCopy(b.whole(b.me, 'r'), from, li != 0)
	}
}

// The cells and the ranks' staging buffers are host memory the cores cache
// (write-back and coherent), and a cell holds 128 bytes at most, so the
// cell path's copies and reductions run in the cores' caches: no memory
// round trip (docs/model/mpi-collectives.md "Shared-memory allreduce"). A rank's own lines (its
// staging buffers, its cells) hit its caches. A child's cell (or the
// first rank's), which another core wrote last, comes from that core's
// cache: one transfer, host.core_to_core_ns, with the flag just polled
// (the rank's core keeps a cell's two lines and its flag's in flight
// together).

// cached is the rank's CPU working on lines in the caches: access names
// what it reads and writes (the data's way); fetch, whether it waits for
// lines another core wrote.
func (b *builder) cached(fetch bool, access ...trace.Access) {
	var ns float64
	if fetch {
		ns = b.l.p.CoreToCoreNs
	}
	b.emit(trace.Op{Op: trace.HostCompute, ComputeNs: ns, Access: access})
}

// cachedCopy is a memcpy of src to dst in the caches (fetch: src is
// another core's).
func (b *builder) cachedCopy(dst, src span, fetch bool) {
	b.cached(fetch, trace.Access{Buf: src.buf, Mode: "read", Bytes: src.bytes, Offset: src.off},
		trace.Access{Buf: dst.buf, Mode: "write", Bytes: dst.bytes, Offset: dst.off})
}

// nodeGroups are the communicator's indexes by node, nodes in the order
// of their first index, and the group of the rank. The ranks' nodes are
// known once the lowering has sized the calls, so the groups are made
// once, at the first call that needs them.
func (b *builder) nodeGroups() (groups [][]int, mine int) {
	l := b.l
	if l.groups == nil {
		at := map[int]int{}
		l.groupOf = make([]int, b.n)
		for i := range b.n {
			nd := b.node(i)
			if _, ok := b.l.gcd[b.rank(i)]; !ok {
				l.unplaced = true
			}
			k, ok := at[nd]
			if !ok {
				k = len(l.groups)
				at[nd] = k
				l.groups = append(l.groups, nil)
			}
			l.groups[k] = append(l.groups[k], i)
			l.groupOf[i] = k
		}
	}
	return l.groups, l.groupOf[b.me]
}

// rootsAllreduce is the allreduce between the nodes' first ranks, in
// place on their results: recursive doubling over the network (assumed
// for every size a cell holds; MPICH picks it up to
// MPICH_ALLREDUCE_SHORT_MSG_SIZE), a rank count that is not a power of two
// folding in and out first as MPICH does. The result stays in the rank's
// cache: a step's reduction loads only the data the NIC wrote.
func (b *builder) rootsAllreduce(groups [][]int) {
	roots := make([]int, len(groups))
	for k, g := range groups {
		roots[k] = g[0]
	}
	pos := slices.Index(roots, b.me)
	b.accCached = true // its result, which the cells' gather left in its cache
	defer func() { b.accCached = false }()
	f := newFold(len(roots), true)
	b.foldIn(f, roots, pos)
	if nr := f.newrank(pos); nr >= 0 {
		b.doubling(f, roots, nr)
	}
	b.foldOut(f, roots, pos)
}

// kids are the children of index i in a k-ary tree of n rooted at 0.
func kids(i, k, n int) []int {
	var c []int
	for j := i*k + 1; j <= i*k+k && j < n; j++ {
		c = append(c, j)
	}
	return c
}

// cells names rank r's shared-memory cells.
func (b *builder) cells(r int) string {
	var n [64]byte
	return newName(&n, b.l.prefix).c('h').d(r).s(".c").String()
}

// cellBarrier runs MPI_Barrier as MPICH's SMP-aware composition
// (MPIDI_Barrier_intra_composition_alpha, ch4_coll_impl.h v3.4.2;
// generic.json picks it for a communicator with a node level, which a
// communicator of several ranks on a node has, one node or many): the
// node's barrier through the shared-memory layer (release_gather: flags
// up the reduce tree, then down the release tree), a dissemination
// barrier between the nodes' first ranks over the network, and a 1-byte
// bcast from each node's first rank through the cells (its release).
// Every flag another core set is a fetch. The node's layer takes the
// calls from the MPICH_POSIX_NUM_COLLS_THRESHOLD-th on (the node
// communicator's own count); the calls before, ranks whose nodes are not
// known (no buffers) and the cells off keep the flat dissemination barrier
// (assumed: MPICH's fallback there runs the composition over messages).
// It says whether it ran.
func (b *builder) cellBarrier() bool {
	sh, r := b.l.p.Shared, b.call.Rank
	if !sh.On || sh.Cells < 1 {
		return false
	}
	groups, g := b.nodeGroups()
	if b.l.unplaced {
		return false
	}
	b.l.barriers[r]++
	if b.l.barriers[r] < sh.Threshold {
		return false
	}
	local := groups[g]
	li := slices.Index(local, b.me)
	for _, c := range kids(li, sh.ReduceK, len(local)) {
		b.emit(trace.Op{Op: trace.FlagWait, Flag: b.cellFlag(local[c], "barrier")})
		b.fetch()
	}
	if li != 0 {
		b.emit(trace.Op{Op: trace.FlagSet, Flag: b.cellFlag(b.me, "barrier")})
	}
	b.releaseFlags(local, li, "barrier.released")
	if li == 0 && len(groups) > 1 {
		roots := make([]int, len(groups))
		for k, grp := range groups {
			roots[k] = grp[0]
		}
		b.dissemination(roots, g)
	}
	b.releaseFlags(local, li, "barrier.bcast")
	return true
}

// releaseFlags passes the node's first rank's flag what down the release
// tree over local: a rank waits for its parent's (a fetch), then flags
// its own children.
func (b *builder) releaseFlags(local []int, li int, what string) {
	k := b.l.p.Shared.ReleaseK
	if li != 0 {
		b.emit(trace.Op{Op: trace.FlagWait, Flag: b.cellFlag(local[(li-1)/k], what)})
		b.fetch()
	}
	if len(kids(li, k, len(local))) > 0 {
		b.emit(trace.Op{Op: trace.FlagSet, Flag: b.cellFlag(b.me, what)})
	}
}

// fetch is the rank's load of a flag another core set: the line comes
// from that core's cache.
func (b *builder) fetch() {
	b.emit(trace.Op{Op: trace.HostCompute, ComputeNs: b.l.p.CoreToCoreNs})
}
