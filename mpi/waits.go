package mpi

import (
	"slices"
	"strings"

	"github.com/akisim/akisim/trace"
)

// waits finds, before the expansion, the requests each wait completes
// (mpi_wait, mpi_waitall, a collective's wait_reqs), by the calls that
// started them, so that counting the commands (count.go) and making them
// read the same answer.
func (x *expander) waits() {
	reqs := map[trace.RequestKey]int{} // request -> the call that started it
	pending := map[int][]int{}         // rank -> its started requests not waited, as op indices, in order
	drop := func(rank, j int) {
		p := pending[rank]
		if k := slices.Index(p, j); k >= 0 {
			pending[rank] = slices.Delete(p, k, k+1)
		}
	}
	take := func(k trace.RequestKey) {
		j := reqs[k]
		delete(reqs, k)
		drop(k.Rank, j)
		x.waited = append(x.waited, int32(j))
	}
	x.waitFrom = make([]int32, len(x.ops)+1)
	for i, o := range x.ops {
		x.waitFrom[i] = int32(len(x.waited))
		switch o.Op {
		case trace.MPIIsend, trace.MPIIrecv:
			reqs[o.RequestOf()] = i
			pending[o.Rank] = append(pending[o.Rank], i)
		case trace.MPIWait:
			take(o.RequestOf())
		case trace.MPIWaitall:
			for _, j := range pending[o.Rank] {
				x.waited = append(x.waited, int32(j))
			}
			pending[o.Rank] = nil
		case waitReqs:
			for req := range strings.SplitSeq(o.Req, ",") {
				take(trace.RequestKey{Rank: o.Rank, Req: req})
			}
		}
	}
	x.waitFrom[len(x.ops)] = int32(len(x.waited))
}

// finished are the halves of messages wait call i completes, in the
// order of its requests; the slice is reused by the next call.
func (x *expander) finished(i int) []side {
	x.halves = x.halves[:0]
	for _, j := range x.waited[x.waitFrom[i]:x.waitFrom[i+1]] {
		s, n := x.sides(int(j))
		x.halves = append(x.halves, s[:n]...)
	}
	return x.halves
}
