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
	w := newWaiting()
	x.waitFrom = make([]int32, len(x.ops)+1)
	took := func(j int) { x.waited = append(x.waited, int32(j)) }
	for i, o := range x.ops {
		x.waitFrom[i] = int32(len(x.waited))
		w.call(i, o, took)
	}
	x.waitFrom[len(x.ops)] = int32(len(x.waited))
}

// waiting is the requests started and not yet waited, as waits goes.
type waiting struct {
	reqs    map[trace.RequestKey]int // request -> the call that started it
	pending map[int][]int            // rank -> its started requests not waited, as op indices, in order
}

func newWaiting() *waiting {
	return &waiting{reqs: map[trace.RequestKey]int{}, pending: map[int][]int{}}
}

// call notes the request call i (o) starts, or hands took the calls
// whose requests it waits for, in order.
func (w *waiting) call(i int, o *trace.Op, took func(j int)) {
	take := func(k trace.RequestKey) {
		j := w.reqs[k]
		delete(w.reqs, k)
		p := w.pending[k.Rank]
		if at := slices.Index(p, j); at >= 0 {
			w.pending[k.Rank] = slices.Delete(p, at, at+1)
		}
		took(j)
	}
	switch o.Op {
	case trace.MPIIsend, trace.MPIIrecv:
		w.reqs[o.RequestOf()] = i
		w.pending[o.Rank] = append(w.pending[o.Rank], i)
	case trace.MPIWait:
		take(o.RequestOf())
	case trace.MPIWaitall:
		for _, j := range w.pending[o.Rank] {
			took(j)
		}
		w.pending[o.Rank] = nil
	case waitReqs:
		for req := range strings.SplitSeq(o.Req, ",") {
			take(trace.RequestKey{Rank: o.Rank, Req: req})
		}
	}
}

// finished are the halves of messages wait call i completes, in the
// order of its requests; the slice is reused by the next call.
func (x *expander) finished(i int) []side {
	if x.ops == nil {
		return x.rec.waits
	}
	x.halves = x.halves[:0]
	for _, j := range x.waited[x.waitFrom[i]:x.waitFrom[i+1]] {
		s, n := x.sides(int(j))
		x.halves = append(x.halves, s[:n]...)
	}
	return x.halves
}
