package mpi

import (
	"fmt"

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

// oneNode says whether the communicator's ranks share one node's memory.
func (b *builder) oneNode() bool {
	for i := range b.n {
		if b.node(i) != b.node(0) {
			return false
		}
	}
	return true
}

// releaseGather runs the staged allreduce through the shared cells if
// MPICH would, and says whether it did. MPICH counts the calls that reach
// its shared-memory layer (bcast, reduce, barrier and allreduce); here
// only the allreduces do, the others taking Cray's point-to-point paths.
func (b *builder) releaseGather() bool {
	sh, r := b.l.p.Shared, b.call.Rank
	if !sh.fits(b.bytes) || !b.oneNode() {
		return false
	}
	b.l.posix[r]++
	if b.l.posix[r] < sh.Threshold {
		return false
	}
	cells := b.l.prefix + fmt.Sprintf("h%d.c", r)
	if !b.l.made[cells] { // the first call through the cells sets them up
		b.l.made[cells] = true
		b.emit(trace.Op{Op: trace.HostMalloc, Buf: cells, NUMA: b.numa(), Bytes: sh.CellBytes * int64(sh.Cells)})
	}
	seg := int64(b.l.cellState[r] % sh.Cells)
	b.l.cellState[r]++
	cell := func(i int) span {
		return span{b.l.prefix + fmt.Sprintf("h%d.c", b.rank(i)), seg*sh.CellBytes + cellHeader, b.bytes}
	}
	flag := func(i int, what string) string {
		return b.l.prefix + fmt.Sprintf("c%d.%d.%s", b.seq, b.rank(i), what)
	}
	// gather, up the reduce tree
	b.hostCopy(cell(b.me), b.whole(b.me, 's'))
	for _, c := range kids(b.me, sh.ReduceK, b.n) {
		b.emit(trace.Op{Op: trace.FlagWait, Flag: flag(c, "gathered")})
		b.reduceLocal(cell(b.me), cell(c))
	}
	if b.me != 0 {
		b.emit(trace.Op{Op: trace.FlagSet, Flag: flag(b.me, "gathered")})
	}
	// release, down the bcast tree
	if b.me != 0 {
		b.emit(trace.Op{Op: trace.FlagWait, Flag: flag((b.me-1)/sh.ReleaseK, "released")})
	}
	if len(kids(b.me, sh.ReleaseK, b.n)) > 0 {
		b.emit(trace.Op{Op: trace.FlagSet, Flag: flag(b.me, "released")})
	}
	b.hostCopy(b.whole(b.me, 'r'), cell(0))
	return true
}

// kids are the children of index i in a k-ary tree of n rooted at 0.
func kids(i, k, n int) []int {
	var c []int
	for j := i*k + 1; j <= i*k+k && j < n; j++ {
		c = append(c, j)
	}
	return c
}
