package commcheck

import (
	"fmt"
	"maps"
	"slices"

	"github.com/akisim/akisim/trace"
)

// Comm is a communicator the check has seen created.
type Comm struct {
	Name  string
	GCDs  []int
	Line  int
	calls [][]commCall // per comm rank, its collectives so far
}

// commCall is a collective call and its line.
type commCall struct {
	op   *trace.Op
	line int
}

// RankOf is the comm rank on GCD g, or -1.
func (c *Comm) RankOf(g int) int { return slices.Index(c.GCDs, g) }

// rcclState is what the check knows of a trace's RCCL calls so far.
type rcclState struct {
	groups map[int][]int // host rank -> the lines of its open rccl_group_starts
	comms  map[string]*Comm
	p2p    trace.Matcher // sends and receives, as MPI's (comm ranks, tag 0)
	keys   map[string]int
}

func newRCCLState() rcclState {
	return rcclState{groups: map[int][]int{}, comms: map[string]*Comm{}, p2p: trace.Matcher{}, keys: map[string]int{}}
}

// rccl checks one RCCL call.
func (c *checker) rccl(o *trace.Op) *trace.Error {
	s := &c.coll
	switch o.Op {
	case trace.RCCLGroupStart:
		s.groups[o.Rank] = append(s.groups[o.Rank], c.line)
		return nil
	case trace.RCCLGroupEnd:
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
	if o.Op == trace.RCCLCommInit {
		return c.commInit(o)
	}
	comm := s.comms[o.Comm]
	if comm == nil {
		return errf("comm", "unknown communicator %q (no rccl_comm_init before)", o.Comm)
	}
	if e := trace.InRange("gcd", o.GCD, c.gcds, "GCD", o.Op); e != nil {
		return e
	}
	me := comm.RankOf(*o.GCD)
	if me < 0 {
		return errf("gcd", "GCD %d is not in communicator %q (GCDs %v)", *o.GCD, o.Comm, comm.GCDs)
	}
	elem, ok := trace.Datatypes[o.Type()]
	n := int64(len(comm.GCDs))
	switch {
	case !ok:
		return errf("datatype", "unknown type %q (want one of %s)", o.Datatype, datatypeNames())
	case o.RedOp != "" && !o.Reduces():
		return errf("redop", "%s does not reduce", o.Op)
	case o.RedOp != "" && !slices.Contains(trace.RedOps, o.RedOp):
		return errf("redop", "unknown reduction %q (want one of %v)", o.RedOp, trace.RedOps)
	case o.Bytes <= 0:
		return errf("bytes", "must be > 0, got %d", o.Bytes)
	case o.Bytes%elem != 0:
		return errf("bytes", "%d is not a whole number of %d-byte %s elements", o.Bytes, elem, o.Type())
	}
	if e := trace.CheckStream(o); e != nil {
		return e
	}
	if o.Op == trace.RCCLSend || o.Op == trace.RCCLRecv {
		return c.rcclP2P(o, comm, me)
	}
	if o.Op == trace.RCCLAllGather || o.Op == trace.RCCLReduceScatter || o.Op == trace.RCCLAllToAll {
		if o.Bytes%(n*elem) != 0 {
			return errf("bytes", "%s over %d ranks moves %d bytes: not a whole number of elements per rank", o.Op, n, o.Bytes)
		}
	}
	if o.Op == trace.RCCLBroadcast || o.Op == trace.RCCLReduce {
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
func (c *checker) deviceBuffer(o *trace.Op, field, offField, name, what string, off, bytes int64) *trace.Error {
	buf, e := c.at.Buffer(field, name, o.Op)
	if e != nil {
		return e
	}
	if buf.Host || buf.GCD != *o.GCD {
		return errf(field, "buffer %q is not device memory of GCD %d", name, *o.GCD)
	}
	return trace.Fits(offField, "bytes", what, off, bytes, buf)
}

// commInit checks a new communicator: a fresh name, GCDs in range, each once.
func (c *checker) commInit(o *trace.Op) *trace.Error {
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
func (c *checker) matchCollective(o *trace.Op, comm *Comm, me int) *trace.Error {
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
func describeColl(o *trace.Op) string {
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
func (c *checker) rcclP2P(o *trace.Op, comm *Comm, me int) *trace.Error {
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
	if o.Op == trace.RCCLRecv {
		k = [3]int{*o.Peer, me, id}
	}
	if q, ok := s.p2p.Add(k, trace.Half{Send: o.Op == trace.RCCLSend, Line: c.line, Bytes: o.Bytes}); ok && q.Bytes != o.Bytes {
		return errf("bytes", "%d bytes, but its match on line %d has %d", o.Bytes, q.Line, q.Bytes)
	}
	return nil
}

// rcclLeft reports, after the last op, the first collective some comm
// rank never joins, or send never received.
func (s *rcclState) rcclLeft(name string) *trace.Error {
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

func datatypeNames() string { return fmt.Sprint(slices.Sorted(maps.Keys(trace.Datatypes))) }
