package mpi

import (
	"slices"

	"github.com/akisim/akisim/trace"
)

// The algorithms MPICH selects by default for a node's ranks
// (coll_selection.json; the algorithms of Thakur, Rabenseifner and Gropp,
// "Optimization of collective communication operations in MPICH", 2005),
// with Cray MPICH's overrides of docs/references.md [cray-mpich]. Written on spans of
// the buffers the builder names, so one algorithm serves the host and the
// device path.

// barrier is the dissemination barrier (MPIR_Barrier_intra_k_dissemination,
// k = 2): in round j rank i tells rank i+2^j and waits for rank i-2^j.
func (b *builder) barrier() {
	if b.cellBarrier() {
		return
	}
	b.dissemination(nil, b.me)
}

// dissemination is the dissemination barrier over the communicator's
// indexes ranks (nil: all of them), index me of them the caller.
func (b *builder) dissemination(ranks []int, me int) {
	n, peer := b.n, func(i int) int { return i }
	if ranks != nil {
		n, peer = len(ranks), func(i int) int { return ranks[i] }
	}
	for mask := 1; mask < n; mask <<= 1 {
		b.exchange([]xfer{{peer: peer((me + mask) % n)}}, []xfer{{peer: peer((me - mask + n) % n)}})
	}
}

// bcastTree sends s from root down a tree of MPICH_BCAST_INTRANODE_RADIX
// children a rank (Cray MPICH 8.1.17: MPICH_BCAST_ONLY_TREE=1, radix 4).
// Assumed: the tree is k-ary in relative rank order (MPICH's tree bcast,
// MPIR_CVAR_BCAST_TREE_TYPE kary) and the message goes whole, unsegmented;
// each child receives from its parent, then forwards to its own children
// at once.
func (b *builder) bcastTree(root int, s span) {
	rel := (b.me - root + b.n) % b.n
	index := func(rel int) int { return (rel + root) % b.n }
	k := b.l.p.Coll.BcastRadix
	if rel > 0 {
		parent := index((rel - 1) / k)
		b.exchange(nil, []xfer{{peer: parent, at: s, from: b.at(parent, 'r', s.off, s.bytes)}})
	}
	var to []xfer
	for _, c := range kids(rel, k, b.n) {
		to = append(to, xfer{peer: index(c), at: s})
	}
	if len(to) > 0 {
		b.exchange(to, nil)
	}
}

// allgatherAlgo is MPICH's choice for MPI_Allgather by rank count and
// total bytes.
func (b *builder) allgatherAlgo() string {
	total := b.call.Bytes * int64(b.n)
	pow2 := b.n&(b.n-1) == 0
	switch {
	case pow2 && total < b.l.p.Coll.AllgatherLong:
		return "recursive doubling"
	case !pow2 && total < b.l.p.Coll.AllgatherShort:
		return "bruck"
	}
	return "ring"
}

// blocks is k blocks of the call's size from block i of buffer w.
func (b *builder) blocks(w byte, i, k int) span {
	return b.at(b.me, w, int64(i)*b.call.Bytes, int64(k)*b.call.Bytes)
}

func (b *builder) allgather() {
	n, me := b.n, b.me
	own := b.at(me, 's', 0, b.call.Bytes)
	switch b.allgatherAlgo() {
	case "recursive doubling": // each step swaps all blocks gathered so far with the partner
		b.copy(b.blocks('r', me, 1), own)
		for mask := 1; mask < n; mask <<= 1 {
			p := me ^ mask
			b.exchange([]xfer{{peer: p, at: b.blocks('r', me&^(mask-1), mask)}},
				[]xfer{{peer: p, at: b.blocks('r', p&^(mask-1), mask)}})
		}
	case "bruck": // blocks gather in scratch from the rank's own, then rotate into place
		b.copy(b.blocks('t', 0, 1), own)
		for pof2 := 1; pof2 < n; pof2 *= 2 {
			k := min(pof2, n-pof2)
			b.exchange([]xfer{{peer: (me - pof2 + n) % n, at: b.blocks('t', 0, k)}},
				[]xfer{{peer: (me + pof2) % n, at: b.blocks('t', pof2, k)}})
		}
		b.copy(b.blocks('r', me, n-me), b.blocks('t', 0, n-me))
		b.copy(b.blocks('r', 0, me), b.blocks('t', n-me, me))
	default: // ring: n-1 steps, each passing on the block received last
		b.copy(b.blocks('r', me, 1), own)
		right, left := (me+1)%n, (me-1+n)%n
		for i := 0; i < n-1; i++ {
			b.exchange([]xfer{{peer: right, at: b.blocks('r', (me-i+n)%n, 1)}},
				[]xfer{{peer: left, at: b.blocks('r', (me-i-1+n)%n, 1)}})
		}
	}
}

// alltoallAlgo is MPICH's choice for MPI_Alltoall by rank count and
// block size.
func (b *builder) alltoallAlgo() string {
	switch {
	case b.n >= 8 && b.call.Bytes <= b.l.p.Coll.AlltoallShort:
		return "bruck"
	case b.call.Bytes <= b.l.p.Coll.AlltoallMedium:
		return "scattered"
	}
	return "pairwise"
}

func (b *builder) alltoall() {
	n, me := b.n, b.me
	switch b.alltoallAlgo() {
	case "bruck":
		// Scratch block i holds source block me+i; log2(n) steps each pass
		// the blocks whose index has that bit set, packed into the result
		// buffer (one pack kernel, as MPICH's derived datatypes on GPU
		// buffers) and unpacked back; then block i of the result is
		// scratch block me-i.
		b.copy(b.blocks('t', 0, n-me), b.blocks('s', me, n-me))
		b.copy(b.blocks('t', n-me, me), b.blocks('s', 0, me))
		for pof2 := 1; pof2 < n; pof2 *= 2 {
			var idx []int
			for j := 0; j < n; j++ {
				if j&pof2 != 0 {
					idx = append(idx, j)
				}
			}
			k := len(idx)
			var packed, unpacked, work []span
			for j, i := range idx {
				work = append(work, b.blocks('t', i, 1))
				packed = append(packed, b.blocks('r', j, 1))
				unpacked = append(unpacked, b.blocks('r', k+j, 1))
			}
			b.pack(packed, work)
			b.exchange([]xfer{{peer: (me + pof2) % n, at: b.blocks('r', 0, k)}},
				[]xfer{{peer: (me - pof2 + n) % n, at: b.blocks('r', k, k)}})
			b.pack(work, unpacked)
		}
		var final, work []span
		for i := 0; i < n; i++ {
			final = append(final, b.blocks('r', i, 1))
			work = append(work, b.blocks('t', (me-i+n)%n, 1))
		}
		b.pack(final, work)
	case "scattered": // every receive and send posted at once
		b.copy(b.blocks('r', me, 1), b.blocks('s', me, 1))
		var sends, recvs []xfer
		for i := 1; i < n; i++ {
			src, dst := (me+i)%n, (me-i+n)%n
			recvs = append(recvs, xfer{peer: src, at: b.blocks('r', src, 1)})
			sends = append(sends, xfer{peer: dst, at: b.blocks('s', dst, 1)})
		}
		b.exchange(sends, recvs)
	default: // pairwise: n-1 exchanges, with rank^i when n is a power of two
		b.copy(b.blocks('r', me, 1), b.blocks('s', me, 1))
		for i := 1; i < n; i++ {
			src, dst := (me-i+n)%n, (me+i)%n
			if n&(n-1) == 0 {
				src, dst = me^i, me^i
			}
			b.exchange([]xfer{{peer: dst, at: b.blocks('s', dst, 1)}}, []xfer{{peer: src, at: b.blocks('r', src, 1)}})
		}
	}
}

// fold is how MPICH's recursive algorithms run on a rank count that is
// not a power of two: of the first 2*rem ranks, one of each pair hands its
// whole buffer to the other, which reduces it and goes on as one of the
// pof2 ranks left (newrank). Allreduce and reduce-scatter keep the odd
// rank of a pair, reduce the even one.
type fold struct {
	pof2, rem int
	keepOdd   bool
}

func newFold(n int, keepOdd bool) fold {
	pof2 := 1
	for pof2*2 <= n {
		pof2 *= 2
	}
	return fold{pof2, n - pof2, keepOdd}
}

// newrank is index i's place among the pof2 ranks, -1 if it left.
func (f fold) newrank(i int) int {
	switch {
	case i >= 2*f.rem:
		return i - f.rem
	case (i%2 == 1) == f.keepOdd:
		return i / 2
	}
	return -1
}

// index is the communicator index of newrank nr.
func (f fold) index(nr int) int {
	switch {
	case nr >= f.rem:
		return nr + f.rem
	case f.keepOdd:
		return 2*nr + 1
	}
	return 2 * nr
}

// whole is the call's bytes of buffer w of index i.
func (b *builder) whole(i int, w byte) span { return b.at(i, w, 0, b.bytes) }

// member is the communicator index at place pos of members, the ranks an
// algorithm runs among (nil: the whole communicator, pos itself).
func member(members []int, pos int) int {
	if members == nil {
		return pos
	}
	return members[pos]
}

// foldIn is the pre-step among members, the rank at place pos of them:
// the leaving rank sends its buffer, the staying one reduces it into its
// own.
func (b *builder) foldIn(f fold, members []int, pos int) {
	if pos >= 2*f.rem {
		return
	}
	p := member(members, pos^1)
	if f.newrank(pos) < 0 {
		b.exchange([]xfer{{peer: p, at: b.whole(b.me, 'r')}}, nil)
		return
	}
	b.exchange(nil, []xfer{{peer: p, at: b.whole(b.me, 't'), from: b.whole(p, 'r')}})
	b.reduceLocal(b.whole(b.me, 'r'), b.whole(b.me, 't'))
}

// foldOut is the post-step: the rank that stayed gives the result back.
func (b *builder) foldOut(f fold, members []int, pos int) {
	if pos >= 2*f.rem {
		return
	}
	p := member(members, pos^1)
	if f.newrank(pos) < 0 {
		b.exchange(nil, []xfer{{peer: p, at: b.whole(b.me, 'r'), from: b.whole(p, 'r')}})
		return
	}
	b.exchange([]xfer{{peer: p, at: b.whole(b.me, 'r')}}, nil)
}

// doubling is recursive doubling among members, the rank newrank nr of
// the fold's pof2: at each step it swaps its r with the rank nr^mask and
// reduces what it got into r.
func (b *builder) doubling(f fold, members []int, nr int) {
	for mask := 1; mask < f.pof2; mask <<= 1 {
		p := member(members, f.index(nr^mask))
		b.exchange([]xfer{{peer: p, at: b.whole(b.me, 'r')}}, []xfer{{peer: p, at: b.whole(b.me, 't'), from: b.whole(p, 'r')}})
		b.reduceLocal(b.whole(b.me, 'r'), b.whole(b.me, 't'))
	}
}

// cutter gives where block k of pof2 blocks of the result buffer starts;
// cut(pof2) is its end.
type cutter func(k int) int64

// evenCut splits bytes into k blocks, the first bytes mod k one byte
// larger (MPICH's cnts in Rabenseifner's reduce-scatter phase).
func evenCut(bytes int64, k int) cutter {
	return func(i int) int64 {
		return int64(i)*(bytes/int64(k)) + min(int64(i), bytes%int64(k))
	}
}

// piece is blocks [lo, hi) of buffer w of index i.
func (b *builder) piece(i int, w byte, cut cutter, lo, hi int) span {
	return b.at(i, w, cut(lo), cut(hi)-cut(lo))
}

// step is one step of recursive halving: the partner differs in bit mask
// of newrank; the two shared blocks [lo, hi) before it.
type step struct{ lo, hi, mask int }

// halve is recursive halving among the pof2 ranks (the reduce-scatter of
// Rabenseifner's algorithm): each step a pair splits the blocks it shares,
// the lower newrank keeps the lower half, receives the partner's data of
// it and reduces it. Allreduce and reduce pair on the lowest bit first
// (newrank ends with the bit-reversed block), reduce-scatter on the
// highest (newrank ends with block newrank). It returns the steps and the
// range left.
func (b *builder) halve(f fold, cut cutter, highFirst bool) (steps []step, lo, hi int) {
	nr := f.newrank(b.me)
	lo, hi = 0, f.pof2
	masks := []int{}
	for mask := 1; mask < f.pof2; mask <<= 1 {
		masks = append(masks, mask)
	}
	if highFirst {
		slices.Reverse(masks)
	}
	for _, mask := range masks {
		p := f.index(nr ^ mask)
		mid := (lo + hi) / 2
		keep, give := [2]int{lo, mid}, [2]int{mid, hi}
		if nr&mask != 0 {
			keep, give = give, keep
		}
		b.exchange([]xfer{{peer: p, at: b.piece(b.me, 'r', cut, give[0], give[1])}},
			[]xfer{{peer: p, at: b.piece(b.me, 't', cut, keep[0], keep[1]), from: b.piece(p, 'r', cut, keep[0], keep[1])}})
		b.reduceLocal(b.piece(b.me, 'r', cut, keep[0], keep[1]), b.piece(b.me, 't', cut, keep[0], keep[1]))
		steps = append(steps, step{lo, hi, mask})
		lo, hi = keep[0], keep[1]
	}
	return steps, lo, hi
}

// other is the half of step s's range that [lo, hi) (the other half) is not.
func other(s step, lo, hi int) (int, int) {
	if lo == s.lo {
		return hi, s.hi
	}
	return s.lo, lo
}

// unhalve is recursive doubling back up the halving's steps (the
// allgather of Rabenseifner's algorithm): partners swap what they hold.
func (b *builder) unhalve(f fold, cut cutter, steps []step, lo, hi int) {
	nr := f.newrank(b.me)
	for _, s := range slices.Backward(steps) {
		p := f.index(nr ^ s.mask)
		olo, ohi := other(s, lo, hi)
		b.exchange([]xfer{{peer: p, at: b.piece(b.me, 'r', cut, lo, hi)}},
			[]xfer{{peer: p, at: b.piece(b.me, 'r', cut, olo, ohi), from: b.piece(p, 'r', cut, olo, ohi)}})
		lo, hi = s.lo, s.hi
	}
}

// gatherTo is the binomial gather of the halving's pieces to newrank
// nroot, back up its steps, as newrank nr: of each pair the rank on the
// root's side receives, the other sends and is done. zero is the index
// playing newrank 0. It says whether the rank ends holding everything (it
// is nroot).
func (b *builder) gatherTo(f fold, cut cutter, steps []step, lo, hi, nr, nroot, zero int) bool {
	for _, s := range slices.Backward(steps) {
		p := f.index(nr ^ s.mask)
		if nr^s.mask == 0 {
			p = zero
		}
		if nr&s.mask != nroot&s.mask {
			b.exchange([]xfer{{peer: p, at: b.piece(b.me, 'r', cut, lo, hi)}}, nil)
			return false
		}
		olo, ohi := other(s, lo, hi)
		b.exchange(nil, []xfer{{peer: p, at: b.piece(b.me, 'r', cut, olo, ohi), from: b.piece(p, 'r', cut, olo, ohi)}})
		lo, hi = s.lo, s.hi
	}
	return true
}

// reduce reduces every rank's r into root's r (the rank's own data is in
// r already); it says whether the rank is the root.
func (b *builder) reduce(root int) bool {
	bytes := b.bytes
	f := newFold(b.n, false)
	if bytes <= b.l.p.Coll.ReduceShort || bytes < int64(f.pof2) {
		return b.binomialReduce(root)
	}
	b.foldIn(f, nil, b.me)
	cut := evenCut(bytes, f.pof2)
	nr, nroot, zero := f.newrank(b.me), f.newrank(root), f.index(0)
	var steps []step
	lo, hi := 0, 0
	if nr >= 0 {
		steps, lo, hi = b.halve(f, cut, false)
	}
	if nroot < 0 {
		// The root left in the fold: newrank 0 hands it its block and
		// the root gathers in its place.
		nroot = 0
		switch {
		case b.me == root:
			b.exchange(nil, []xfer{{peer: zero, at: b.piece(b.me, 'r', cut, 0, 1), from: b.piece(zero, 'r', cut, 0, 1)}})
			nr, lo, hi = 0, 0, 1
			for mask := 1; mask < f.pof2; mask <<= 1 { // newrank 0's halving steps, keeping the lower half
				steps = append(steps, step{0, f.pof2 / mask, mask})
			}
		case nr == 0:
			b.exchange([]xfer{{peer: root, at: b.piece(b.me, 'r', cut, 0, 1)}}, nil)
			return false
		}
		zero = root
	}
	if nr < 0 {
		return false
	}
	return b.gatherTo(f, cut, steps, lo, hi, nr, nroot, zero)
}

// binomialReduce reduces up a binomial tree rooted at root.
func (b *builder) binomialReduce(root int) bool {
	rel := (b.me - root + b.n) % b.n
	for mask := 1; mask < b.n; mask <<= 1 {
		if rel&mask != 0 {
			b.exchange([]xfer{{peer: (rel - mask + root) % b.n, at: b.whole(b.me, 'r')}}, nil)
			return false
		}
		if rel|mask < b.n {
			src := (rel | mask + root) % b.n
			b.exchange(nil, []xfer{{peer: src, at: b.whole(b.me, 't'), from: b.whole(src, 'r')}})
			b.reduceLocal(b.whole(b.me, 'r'), b.whole(b.me, 't'))
		}
	}
	return true
}

// allreduce leaves the sum in every rank's r and returns it.
func (b *builder) allreduce() span {
	bytes := b.bytes
	smp := b.staged() && bytes <= b.l.p.Coll.AllreduceMaxSMP
	if smp && b.releaseGather() { // MPICH's shared-memory cells
		return b.whole(b.me, 'r')
	}
	b.copy(b.whole(b.me, 'r'), b.whole(b.me, 's'))
	if smp {
		b.smpAllreduce()
		return b.whole(b.me, 'r')
	}
	b.flatAllreduce()
	return b.whole(b.me, 'r')
}

// smpAllreduce is MPICH's SMP-aware allreduce (MPIR_Allreduce_intra_smp):
// a reduce to each node's first rank on the node's ranks, an allreduce
// between the nodes' first ranks in place, then a bcast on each node.
// On one node that is a reduce and a bcast on the communicator.
func (b *builder) smpAllreduce() {
	groups, g := b.nodeGroups()
	if len(groups) == 1 || b.l.unplaced {
		b.reduce(0)
		b.bcastTree(0, b.whole(b.me, 'r'))
		return
	}
	local := groups[g]
	b.within(local, func() { b.reduce(0) })
	if b.me == local[0] {
		roots := make([]int, len(groups))
		for k, grp := range groups {
			roots[k] = grp[0]
		}
		b.within(roots, b.flatAllreduce)
	}
	b.within(local, func() { b.bcastTree(0, b.whole(b.me, 'r')) })
}

// flatAllreduce is MPICH's allreduce without a node level, in place on
// the ranks' r: recursive doubling for short vectors, else Rabenseifner
// (reduce-scatter by halving, allgather by doubling).
func (b *builder) flatAllreduce() {
	bytes := b.bytes
	f := newFold(b.n, true)
	b.foldIn(f, nil, b.me)
	if nr := f.newrank(b.me); nr >= 0 {
		if bytes <= b.l.p.Coll.AllreduceShort || bytes < int64(f.pof2) {
			b.doubling(f, nil, nr)
		} else { // Rabenseifner: reduce-scatter by halving, allgather by doubling
			cut := evenCut(bytes, f.pof2)
			steps, lo, hi := b.halve(f, cut, false)
			b.unhalve(f, cut, steps, lo, hi)
		}
	}
	b.foldOut(f, nil, b.me)
}

// reduceScatter leaves each rank's block of the sum in its r and returns
// it: pairwise exchange from MPICH_REDUCE_SCATTER_COMMUTATIVE_LONG_MSG_SIZE,
// recursive halving below.
func (b *builder) reduceScatter() span {
	total, n, me := b.call.Bytes, b.n, b.me
	cnt := func(i int) int64 { return trace.ReduceScatterBlock(total, n, i) }
	disp := func(i int) int64 {
		var d int64
		for j := 0; j < i; j++ {
			d += cnt(j)
		}
		return d
	}
	my := cnt(me)
	if total >= b.l.p.Coll.ReduceScatterLong {
		b.copy(b.at(me, 'r', 0, my), b.at(me, 's', disp(me), my))
		for i := 1; i < n; i++ {
			src, dst := (me-i+n)%n, (me+i)%n
			b.exchange([]xfer{{peer: dst, at: b.at(me, 's', disp(dst), cnt(dst))}},
				[]xfer{{peer: src, at: b.at(me, 't', 0, my), from: b.at(src, 's', disp(me), my)}})
			b.reduceLocal(b.at(me, 'r', 0, my), b.at(me, 't', 0, my))
		}
		return b.at(me, 'r', 0, my)
	}
	b.copy(b.whole(me, 'r'), b.whole(me, 's'))
	f := newFold(n, true)
	b.foldIn(f, nil, b.me)
	if f.newrank(me) >= 0 {
		b.halve(f, func(k int) int64 { // newrank k holds the blocks of the ranks it stands for
			if k == f.pof2 {
				return total
			}
			if k < f.rem {
				return disp(2 * k)
			}
			return disp(k + f.rem)
		}, true)
	}
	if me < 2*f.rem { // the rank that stayed hands its partner its block
		p := me ^ 1
		if f.newrank(me) >= 0 {
			b.exchange([]xfer{{peer: p, at: b.at(me, 'r', disp(p), cnt(p))}}, nil)
		} else {
			b.exchange(nil, []xfer{{peer: p, at: b.at(me, 'r', disp(me), my), from: b.at(p, 'r', disp(me), my)}})
		}
	}
	return b.at(me, 'r', disp(me), my)
}
