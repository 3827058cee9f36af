package commcheck

import (
	"fmt"
	"slices"

	"github.com/akisim/akisim/trace"
)

// mpiState is what the check knows of a trace's MPI calls so far.
type mpiState struct {
	// pending are, by rank, its requests started and not waited -> the line
	// that started each: a rank's mpi_waitall finds its own without the others'
	pending map[int]map[string]int
	queues  trace.Matcher
	ranks   []int              // the communicator of collectives: every rank of the trace
	colls   map[int][]collCall // rank -> its collectives so far
	// low is, for each place in the ranks' sequences, the lowest rank whose
	// collective there is made: the one a later call there is compared to
	low []int
	// lastLine is the line of the last collective; unordered says some
	// collective came at or before the line of the one before it, so the
	// earliest call left open (collLeft) cannot be found from the shortest
	// sequence alone
	lastLine  int
	unordered bool
}

// newMPIStateOf is the state before a trace whose ranks are known.
func newMPIStateOf(ranks []int) mpiState {
	return mpiState{pending: map[int]map[string]int{}, queues: trace.Matcher{}, ranks: ranks, colls: map[int][]collCall{}}
}

// mpi checks one MPI call: a live device buffer the message fits in, a
// peer rank other than its own, a tag, a fresh request name (nonblocking
// calls) or one of its own pending requests (mpi_wait). Messages are
// matched as they come; matchLeft reports what is left at the end.
func (c *checker) mpi(o *trace.Op) *trace.Error {
	if o.IsCollective() {
		return c.collective(o)
	}
	m := &c.msgs
	switch o.Op {
	case trace.MPIWait:
		if o.Req == "" {
			return errf("req", "required by %s", o.Op)
		}
		if _, ok := m.pending[o.Rank][o.Req]; !ok {
			return errf("req", "no request %q of rank %d is pending (started by mpi_isend or mpi_irecv and not waited yet)", o.Req, o.Rank)
		}
		delete(m.pending[o.Rank], o.Req)
		return nil
	case trace.MPIWaitall:
		delete(m.pending, o.Rank)
		return nil
	}
	switch {
	case o.Peer == nil:
		return errf("peer", "required by %s", o.Op)
	case *o.Peer < 0 || *o.Peer >= trace.MaxRanks:
		return errf("peer", "must be in 0..%d, got %d", trace.MaxRanks-1, *o.Peer)
	case *o.Peer == o.Rank:
		return errf("peer", "rank %d sends to itself: not modelled", o.Rank)
	case o.Tag < 0:
		return errf("tag", "must be >= 0, got %d", o.Tag)
	case o.Bytes <= 0:
		return errf("bytes", "must be > 0, got %d", o.Bytes)
	}
	if o.Op == trace.MPISendrecv {
		if e := c.message(o, "src", o.Src, true); e != nil {
			return e
		}
		return c.message(o, "dst", o.Dst, false)
	}
	if o.Op == trace.MPIIsend || o.Op == trace.MPIIrecv {
		if o.Req == "" {
			return errf("req", "required by %s", o.Op)
		}
		if line, ok := m.pending[o.Rank][o.Req]; ok {
			return errf("req", "request %q is still pending from line %d", o.Req, line)
		}
	}
	if e := c.message(o, "buf", o.Buf, o.IsSend()); e != nil {
		return e
	}
	if o.Op == trace.MPIIsend || o.Op == trace.MPIIrecv {
		if m.pending[o.Rank] == nil {
			m.pending[o.Rank] = map[string]int{}
		}
		m.pending[o.Rank][o.Req] = c.line
	}
	return nil
}

// message checks one side of call o (a send, or a receive) on buf, named
// by field: a live device buffer the message fits in; then matches it
// with the oldest unmatched opposite side of the same source, destination
// and tag.
func (c *checker) message(o *trace.Op, field, buf string, send bool) *trace.Error {
	m := &c.msgs
	b, e := c.at.Buffer(field, buf, o.Op)
	if e != nil {
		return e
	}
	if b.Host {
		return errf(field, "%q is host memory: MPI on host buffers is not modelled yet (GPU buffers only)", buf)
	}
	if e := trace.Fits("bytes", "bytes", "message", 0, o.Bytes, b); e != nil {
		return e
	}
	k := trace.MessageKey(o, send)
	if q, ok := m.queues.Add(k, trace.Half{Send: send, Line: c.line, Bytes: o.Bytes}); ok && q.Bytes != o.Bytes {
		return errf("bytes", "%d bytes, but its match on line %d has %d (message %d -> %d, tag %d)",
			o.Bytes, q.Line, q.Bytes, k[0], k[1], k[2])
	}
	return nil
}

// matchLeft reports, after the last op, the first request never waited
// or message never matched, at its line.
func (m *mpiState) matchLeft(name string) *trace.Error {
	line, msg := 0, ""
	for _, reqs := range m.pending {
		for req, l := range reqs {
			if line == 0 || l < line {
				line, msg = l, fmt.Sprintf("request %q is never waited (mpi_wait or mpi_waitall)", req)
			}
		}
	}
	var at [3]int // the queue reported, for a tie on one line (an mpi_sendrecv's two sides)
	for k, q := range m.queues {
		if len(q) > 0 && (line == 0 || q[0].Line < line || (q[0].Line == line && slices.Compare(k[:], at[:]) < 0)) {
			at = k
			what := "send"
			if !q[0].Send {
				what = "receive"
			}
			line, msg = q[0].Line, fmt.Sprintf("this %s (rank %d -> %d, tag %d) is never matched", what, k[0], k[1], k[2])
		}
	}
	if ce := m.collLeft(name); ce != nil && (line == 0 || ce.Line < line) {
		return ce
	}
	if line == 0 {
		return nil
	}
	e := errf("op", "%s", msg)
	e.File, e.Line = name, line
	return e
}
