package trace

import (
	"fmt"
	"maps"
	"slices"
)

// RCCL calls, as a program makes them: a communicator over GCDs
// (ncclCommInitAll / ncclCommInitRank: comm rank i on GCDs[i]), then
// collectives, each called once per comm rank with that rank's device
// (gcd), buffers and stream. Every comm rank makes the same sequence of
// collectives on a communicator; the k-th call of each rank is one
// collective (RCCL requires it), so traces match statically. Package
// rccl turns the calls into the library's kernels.

// RCCL kinds.
const (
	RCCLCommInit      Kind = "rccl_comm_init"
	RCCLAllReduce     Kind = "rccl_all_reduce"
	RCCLAllGather     Kind = "rccl_all_gather"
	RCCLReduceScatter Kind = "rccl_reduce_scatter"
	RCCLBroadcast     Kind = "rccl_broadcast"
	RCCLReduce        Kind = "rccl_reduce"
	RCCLAllToAll      Kind = "rccl_all_to_all"
	RCCLSend          Kind = "rccl_send"
	RCCLRecv          Kind = "rccl_recv"
	// ncclGroupStart / ncclGroupEnd of the calling thread: the sends and
	// receives between them launch together, one kernel per GCD and stream
	RCCLGroupStart Kind = "rccl_group_start"
	RCCLGroupEnd   Kind = "rccl_group_end"
)

// RCCLCollectives are the collective kinds, in rccl-tests' order.
var RCCLCollectives = []Kind{RCCLAllReduce, RCCLAllGather, RCCLReduceScatter, RCCLBroadcast, RCCLReduce, RCCLAllToAll}

func init() {
	fieldsOf[RCCLCommInit] = []string{"comm", "gcds"}
	for _, k := range RCCLCollectives {
		fieldsOf[k] = []string{"comm", "gcd", "src", "dst", "src_offset", "dst_offset", "bytes", "datatype", "redop", "stream"}
	}
	fieldsOf[RCCLBroadcast] = append(fieldsOf[RCCLBroadcast], "root")
	fieldsOf[RCCLReduce] = append(fieldsOf[RCCLReduce], "root")
	// a send reads its buffer from src_offset, a receive writes it from dst_offset
	fieldsOf[RCCLSend] = []string{"comm", "gcd", "buf", "src_offset", "bytes", "datatype", "peer", "stream"}
	fieldsOf[RCCLRecv] = []string{"comm", "gcd", "buf", "dst_offset", "bytes", "datatype", "peer", "stream"}
	fieldsOf[RCCLGroupStart] = []string{}
	fieldsOf[RCCLGroupEnd] = []string{}
}

// IsRCCL says whether the op is an RCCL call.
func (o *Op) IsRCCL() bool {
	return o.Op == RCCLCommInit || o.Op == RCCLSend || o.Op == RCCLRecv || o.Op == RCCLGroupStart || o.Op == RCCLGroupEnd ||
		slices.Contains(RCCLCollectives, o.Op)
}

// BufOff is where in its buffer an rccl_send reads (src_offset) or an
// rccl_recv writes (dst_offset).
func (o *Op) BufOff() int64 {
	if o.Op == RCCLRecv {
		return o.DstOff
	}
	return o.SrcOff
}

// BufOffField is the field BufOff reads.
func (o *Op) BufOffField() string {
	if o.Op == RCCLRecv {
		return "dst_offset"
	}
	return "src_offset"
}

// Reduces says whether the collective reduces (needs a reduction).
func (o *Op) Reduces() bool {
	return o.Op == RCCLAllReduce || o.Op == RCCLReduceScatter || o.Op == RCCLReduce
}

// Datatypes are RCCL's element types (ncclDataType_t, by rccl-tests'
// names) and their sizes in bytes.
var Datatypes = map[string]int64{
	"int8": 1, "uint8": 1, "int32": 4, "uint32": 4, "int64": 8, "uint64": 8,
	"half": 2, "float": 4, "double": 8, "bfloat16": 2,
}

// RedOps are RCCL's reductions (ncclRedOp_t, by rccl-tests' names).
var RedOps = []string{"sum", "prod", "max", "min", "avg"}

// Type is the op's datatype, "float" when unset (rccl-tests' default), so
// a rank that leaves it out matches one that writes it.
func (o *Op) Type() string {
	if o.Datatype == "" {
		return "float"
	}
	return o.Datatype
}

// Reduction is the op's reduction, "sum" when a reducing collective
// leaves it out (RCCL's and rccl-tests' default), so a rank that leaves it
// out matches one that writes it.
func (o *Op) Reduction() string {
	if o.RedOp == "" && o.Reduces() {
		return "sum"
	}
	return o.RedOp
}

// Comm is a communicator Check has seen created.
type Comm struct {
	Name  string
	GCDs  []int
	Line  int
	calls [][]commCall // per comm rank, its collectives so far
}

// commCall is a collective call and its line.
type commCall struct {
	op   *Op
	line int
}

// RankOf is the comm rank on GCD g, or -1.
func (c *Comm) RankOf(g int) int { return slices.Index(c.GCDs, g) }

// rcclState is what Check knows of a trace's RCCL calls so far.
type rcclState struct {
	groups map[int][]int // host rank -> the lines of its open rccl_group_starts
	comms  map[string]*Comm
	p2p    Matcher // sends and receives, as MPI's (comm ranks, tag 0)
	keys   map[string]int
}

func newRCCLState() rcclState {
	return rcclState{groups: map[int][]int{}, comms: map[string]*Comm{}, p2p: Matcher{}, keys: map[string]int{}}
}

// rccl checks one RCCL call.
func (c *checker) rccl(o *Op) *Error {
	s := &c.coll
	switch o.Op {
	case RCCLGroupStart:
		s.groups[o.Rank] = append(s.groups[o.Rank], c.line)
		return nil
	case RCCLGroupEnd:
		open := s.groups[o.Rank]
		if len(open) == 0 {
			return errf("op", "rccl_group_end without an rccl_group_start of rank %d before it", o.Rank)
		}
		s.groups[o.Rank] = open[:len(open)-1]
		return nil
	}
	if o.Comm == "" {
		return errf("comm", "required by %s", o.Op)
	}
	if o.Op == RCCLCommInit {
		return c.commInit(o)
	}
	comm := s.comms[o.Comm]
	if comm == nil {
		return errf("comm", "unknown communicator %q (no rccl_comm_init before)", o.Comm)
	}
	if e := inRange("gcd", o.GCD, c.gcds, "GCD", o.Op); e != nil {
		return e
	}
	me := comm.RankOf(*o.GCD)
	if me < 0 {
		return errf("gcd", "GCD %d is not in communicator %q (GCDs %v)", *o.GCD, o.Comm, comm.GCDs)
	}
	elem, ok := Datatypes[o.Type()]
	n := int64(len(comm.GCDs))
	switch {
	case !ok:
		return errf("datatype", "unknown type %q (want one of %s)", o.Datatype, datatypeNames())
	case o.RedOp != "" && !o.Reduces():
		return errf("redop", "%s does not reduce", o.Op)
	case o.RedOp != "" && !slices.Contains(RedOps, o.RedOp):
		return errf("redop", "unknown reduction %q (want one of %v)", o.RedOp, RedOps)
	case o.Bytes <= 0:
		return errf("bytes", "must be > 0, got %d", o.Bytes)
	case o.Bytes%elem != 0:
		return errf("bytes", "%d is not a whole number of %d-byte %s elements", o.Bytes, elem, o.Type())
	}
	if e := stream(o); e != nil {
		return e
	}
	if o.Op == RCCLSend || o.Op == RCCLRecv {
		return c.rcclP2P(o, comm, me)
	}
	if o.Op == RCCLAllGather || o.Op == RCCLReduceScatter || o.Op == RCCLAllToAll {
		if o.Bytes%(n*elem) != 0 {
			return errf("bytes", "%s over %d ranks moves %d bytes: not a whole number of elements per rank", o.Op, n, o.Bytes)
		}
	}
	if o.Op == RCCLBroadcast || o.Op == RCCLReduce {
		if o.Root == nil {
			return errf("root", "required by %s", o.Op)
		}
		if *o.Root < 0 || int64(*o.Root) >= n {
			return errf("root", "rank %d is outside communicator %q of %d ranks", *o.Root, o.Comm, n)
		}
	}
	in, out := o.CollectiveBytes(int(n))
	if e := c.deviceBuffer(o, "src", "src_offset", o.Src, string(o.Op)+" buffer", o.SrcOff, in); e != nil {
		return e
	}
	if e := c.deviceBuffer(o, "dst", "dst_offset", o.Dst, string(o.Op)+" buffer", o.DstOff, out); e != nil {
		return e
	}
	return c.matchCollective(o, comm, me)
}

// deviceBuffer checks that buffer name, in field, is device memory of the
// call's GCD and holds bytes from offset off (in offField); what names the
// use in an overrun's message.
func (c *checker) deviceBuffer(o *Op, field, offField, name, what string, off, bytes int64) *Error {
	buf, e := c.buffer(field, name, o.Op)
	if e != nil {
		return e
	}
	if buf.Host || buf.GCD != *o.GCD {
		return errf(field, "buffer %q is not device memory of GCD %d", name, *o.GCD)
	}
	return fits(offField, "bytes", what, off, bytes, buf)
}

// CollectiveBytes are the bytes a collective of "bytes" (rccl-tests' size)
// reads from src and writes to dst on each of n ranks.
func (o *Op) CollectiveBytes(n int) (in, out int64) {
	switch o.Op {
	case RCCLAllGather:
		return o.Bytes / int64(n), o.Bytes
	case RCCLReduceScatter:
		return o.Bytes, o.Bytes / int64(n)
	}
	return o.Bytes, o.Bytes
}

// commInit checks a new communicator: a fresh name, GCDs in range, each once.
func (c *checker) commInit(o *Op) *Error {
	s := &c.coll
	if old := s.comms[o.Comm]; old != nil {
		return errf("comm", "communicator %q already created on line %d", o.Comm, old.Line)
	}
	if len(o.GCDs) == 0 {
		return errf("gcds", "required by %s: the GCD of each comm rank", o.Op)
	}
	for i, g := range o.GCDs {
		if g < 0 || g >= c.gcds {
			return errf("gcds", "rank %d is bound to GCD %d, but the node has GCDs 0..%d", i, g, c.gcds-1)
		}
		if j := slices.Index(o.GCDs, g); j < i {
			return errf("gcds", "GCD %d holds ranks %d and %d: one rank per GCD", g, j, i)
		}
	}
	s.comms[o.Comm] = &Comm{Name: o.Comm, GCDs: o.GCDs, Line: c.line, calls: make([][]commCall, len(o.GCDs))}
	return nil
}

// matchCollective checks the call against the same collective of the
// other comm ranks: same kind, size, type, reduction and root.
func (c *checker) matchCollective(o *Op, comm *Comm, me int) *Error {
	calls := comm.calls
	k := len(calls[me])
	calls[me] = append(calls[me], commCall{o, c.line})
	for r := range calls {
		if r == me || len(calls[r]) <= k {
			continue
		}
		q := calls[r][k].op
		same := q.Op == o.Op && q.Bytes == o.Bytes && q.Type() == o.Type() && q.Reduction() == o.Reduction() &&
			(q.Root == nil) == (o.Root == nil) && (q.Root == nil || *q.Root == *o.Root)
		if !same {
			return errf("op", "collective %d of communicator %q on rank %d (%s) does not match rank %d's on line %d (%s)",
				k+1, comm.Name, me, describeColl(o), r, calls[r][k].line, describeColl(q))
		}
		break
	}
	return nil
}

// describeColl is a collective's kind, size, type, reduction and root.
func describeColl(o *Op) string {
	d := fmt.Sprintf("%s %d bytes %s", o.Op, o.Bytes, o.Type())
	if r := o.Reduction(); r != "" {
		d += " " + r
	}
	if o.Root != nil {
		d += fmt.Sprintf(" root %d", *o.Root)
	}
	return d
}

// rcclP2P checks a send or receive: a peer in the communicator, a buffer
// of the GCD the message fits in; matched like MPI's (comm ranks, tag 0).
func (c *checker) rcclP2P(o *Op, comm *Comm, me int) *Error {
	s := &c.coll
	switch {
	case o.Peer == nil:
		return errf("peer", "required by %s", o.Op)
	case *o.Peer < 0 || *o.Peer >= len(comm.GCDs):
		return errf("peer", "rank %d is outside communicator %q of %d ranks", *o.Peer, o.Comm, len(comm.GCDs))
	case *o.Peer == me:
		return errf("peer", "rank %d sends to itself", me)
	}
	if e := c.deviceBuffer(o, "buf", o.BufOffField(), o.Buf, "message", o.BufOff(), o.Bytes); e != nil {
		return e
	}
	id, ok := s.keys[o.Comm]
	if !ok {
		id = len(s.keys)
		s.keys[o.Comm] = id
	}
	k := [3]int{me, *o.Peer, id}
	if o.Op == RCCLRecv {
		k = [3]int{*o.Peer, me, id}
	}
	if q, ok := s.p2p.Add(k, Half{Send: o.Op == RCCLSend, Line: c.line, Bytes: o.Bytes}); ok && q.Bytes != o.Bytes {
		return errf("bytes", "%d bytes, but its match on line %d has %d", o.Bytes, q.Line, q.Bytes)
	}
	return nil
}

// rcclLeft reports, after the last op, the first collective some comm
// rank never joins, or send never received.
func (s *rcclState) rcclLeft(name string) *Error {
	line, msg := 0, ""
	for _, comm := range s.comms {
		calls := comm.calls
		for r, cs := range calls {
			for q := range calls {
				if len(calls[q]) > len(cs) {
					x := calls[q][len(cs)]
					if line == 0 || x.line < line {
						line, msg = x.line, fmt.Sprintf("rank %d (GCD %d) of communicator %q never calls this %s: it would wait forever", r, comm.GCDs[r], comm.Name, x.op.Op)
					}
					break
				}
			}
		}
	}
	for _, open := range s.groups {
		if len(open) > 0 && (line == 0 || open[0] < line) {
			line, msg = open[0], "this rccl_group_start is never ended (rccl_group_end): its calls would never launch"
		}
	}
	for k, q := range s.p2p {
		if len(q) > 0 && (line == 0 || q[0].Line < line) {
			what := "rccl_send"
			if !q[0].Send {
				what = "rccl_recv"
			}
			line, msg = q[0].Line, fmt.Sprintf("this %s (comm rank %d -> %d) is never matched", what, k[0], k[1])
		}
	}
	if line == 0 {
		return nil
	}
	e := errf("op", "%s", msg)
	e.File, e.Line = name, line
	return e
}

func datatypeNames() string { return fmt.Sprint(slices.Sorted(maps.Keys(Datatypes))) }
