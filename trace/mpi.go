package trace

// MPI point to point on GPU buffers, as a program calls it. Each rank is a
// host process (an op's rank); the mpi package turns these calls into the
// copies, flags and host time of Cray MPICH's GPU transport. Package
// commcheck makes sure every message is matched: MPI's non-overtaking rule
// matches the n-th send from rank a to rank b with tag t to the n-th
// receive at b from a with tag t, so a trace (without wildcards) matches
// statically.

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
