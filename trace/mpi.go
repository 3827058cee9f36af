package trace

import (
	"fmt"
	"slices"
)

// MPI point to point on GPU buffers, as a program calls it. Each rank is a
// host process (an op's rank); the mpi package turns these calls into the
// copies, flags and host time of Cray MPICH's GPU transport. Check makes
// sure every message is matched: MPI's non-overtaking rule matches the
// n-th send from rank a to rank b with tag t to the n-th receive at b from
// a with tag t, so a trace (without wildcards) matches statically.

// MPI point-to-point kinds.
const (
	MPIIsend   Kind = "mpi_isend"   // MPI_Isend(buf, bytes, peer, tag, &req)
	MPIIrecv   Kind = "mpi_irecv"   // MPI_Irecv(buf, bytes, peer, tag, &req)
	MPISend    Kind = "mpi_send"    // MPI_Send: an isend and its wait
	MPIRecv    Kind = "mpi_recv"    // MPI_Recv: an irecv and its wait
	MPIWait    Kind = "mpi_wait"    // MPI_Wait(&req)
	MPIWaitall Kind = "mpi_waitall" // MPI_Waitall over every request of the rank not waited yet
	// MPISendrecv is MPI_Sendrecv with one partner: src goes to peer while
	// dst receives from peer, both with tag and bytes.
	MPISendrecv Kind = "mpi_sendrecv"
)

// MaxTag bounds tags (MPI guarantees at least 32767).
const MaxTag = 1<<31 - 1

func init() {
	fieldsOf[MPIIsend] = []string{"buf", "bytes", "peer", "tag", "req"}
	fieldsOf[MPIIrecv] = []string{"buf", "bytes", "peer", "tag", "req"}
	fieldsOf[MPISend] = []string{"buf", "bytes", "peer", "tag"}
	fieldsOf[MPIRecv] = []string{"buf", "bytes", "peer", "tag"}
	fieldsOf[MPIWait] = []string{"req"}
	fieldsOf[MPIWaitall] = []string{}
	fieldsOf[MPISendrecv] = []string{"src", "dst", "bytes", "peer", "tag"}
}

// IsMPI says whether the op is an MPI call.
func (o *Op) IsMPI() bool {
	switch o.Op {
	case MPIIsend, MPIIrecv, MPISend, MPIRecv, MPIWait, MPIWaitall, MPISendrecv:
		return true
	}
	return o.IsCollective()
}

// IsSend says whether the MPI op sends (else it receives).
func (o *Op) IsSend() bool { return o.Op == MPIIsend || o.Op == MPISend }

// mpiState is what Check knows of a trace's MPI calls so far.
type mpiState struct {
	// pending are, by rank, its requests started and not waited -> the line
	// that started each: a rank's mpi_waitall finds its own without the others'
	pending map[int]map[string]int
	queues  Matcher
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

func newMPIState(ops []Op) mpiState { return newMPIStateOf(Ranks(ops)) }

// newMPIStateOf is the state before a trace whose ranks are known.
func newMPIStateOf(ranks []int) mpiState {
	return mpiState{pending: map[int]map[string]int{}, queues: Matcher{}, ranks: ranks, colls: map[int][]collCall{}}
}

// RequestKey names a request: request handles belong to a process, so
// ranks may use the same name at once.
type RequestKey struct {
	Rank int
	Req  string
}

// RequestOf is the request an op starts or waits for.
func (o *Op) RequestOf() RequestKey { return RequestKey{o.Rank, o.Req} }

// Half is one half of a message: the send or the receive a call makes
// (an mpi_sendrecv makes one of each).
type Half struct {
	Op    int   // the call, by index
	Send  bool  // the sending half
	Line  int   // the call's line
	Bytes int64 // the message's size, as this half gives it
}

// Matcher pairs sends and receives as MPI's non-overtaking rule does: the
// n-th send from rank a to rank b with tag t goes to the n-th receive at b
// from a with tag t. It holds the halves still waiting for their match.
type Matcher map[[3]int][]Half

// MessageKey is the (source, destination, tag) of the half of call o.
func MessageKey(o *Op, send bool) [3]int {
	if send {
		return [3]int{o.Rank, *o.Peer, o.Tag}
	}
	return [3]int{*o.Peer, o.Rank, o.Tag}
}

// Add takes half h of the message keyed k. If the oldest unmatched half of
// that key is the other side, it is taken and returned (ok); else h waits.
func (m Matcher) Add(k [3]int, h Half) (match Half, ok bool) {
	q := m[k]
	if len(q) > 0 && q[0].Send != h.Send {
		m[k] = q[1:]
		return q[0], true
	}
	m[k] = append(q, h)
	return Half{}, false
}

// mpi checks one MPI call: a live device buffer the message fits in, a
// peer rank other than its own, a tag, a fresh request name (nonblocking
// calls) or one of its own pending requests (mpi_wait). Messages are
// matched as they come; matchLeft reports what is left at the end.
func (c *checker) mpi(o *Op) *Error {
	if o.IsCollective() {
		return c.collective(o)
	}
	m := &c.msgs
	switch o.Op {
	case MPIWait:
		if o.Req == "" {
			return errf("req", "required by %s", o.Op)
		}
		if _, ok := m.pending[o.Rank][o.Req]; !ok {
			return errf("req", "no request %q of rank %d is pending (started by mpi_isend or mpi_irecv and not waited yet)", o.Req, o.Rank)
		}
		delete(m.pending[o.Rank], o.Req)
		return nil
	case MPIWaitall:
		delete(m.pending, o.Rank)
		return nil
	}
	switch {
	case o.Peer == nil:
		return errf("peer", "required by %s", o.Op)
	case *o.Peer < 0 || *o.Peer >= MaxRanks:
		return errf("peer", "must be in 0..%d, got %d", MaxRanks-1, *o.Peer)
	case *o.Peer == o.Rank:
		return errf("peer", "rank %d sends to itself: not modelled", o.Rank)
	case o.Tag < 0:
		return errf("tag", "must be >= 0, got %d", o.Tag)
	case o.Bytes <= 0:
		return errf("bytes", "must be > 0, got %d", o.Bytes)
	}
	if o.Op == MPISendrecv {
		if e := c.message(o, "src", o.Src, true); e != nil {
			return e
		}
		return c.message(o, "dst", o.Dst, false)
	}
	if o.Op == MPIIsend || o.Op == MPIIrecv {
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
	if o.Op == MPIIsend || o.Op == MPIIrecv {
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
func (c *checker) message(o *Op, field, buf string, send bool) *Error {
	m := &c.msgs
	b, e := c.buffer(field, buf, o.Op)
	if e != nil {
		return e
	}
	if b.Host {
		return errf(field, "%q is host memory: MPI on host buffers is not modelled yet (GPU buffers only)", buf)
	}
	if e := fits("bytes", "bytes", "message", 0, o.Bytes, b); e != nil {
		return e
	}
	k := MessageKey(o, send)
	if q, ok := m.queues.Add(k, Half{Send: send, Line: c.line, Bytes: o.Bytes}); ok && q.Bytes != o.Bytes {
		return errf("bytes", "%d bytes, but its match on line %d has %d (message %d -> %d, tag %d)",
			o.Bytes, q.Line, q.Bytes, k[0], k[1], k[2])
	}
	return nil
}

// matchLeft reports, after the last op, the first request never waited
// or message never matched, at its line.
func (m *mpiState) matchLeft(name string) *Error {
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
