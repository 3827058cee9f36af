package commcheck

import (
	"fmt"
	"slices"
	"strings"

	"github.com/akisim/akisim/trace"
)

// collCall is what the check keeps of one collective call.
type collCall struct {
	kind  trace.Kind
	bytes int64
	root  int
	line  int
}

// collective checks one collective call: at least two ranks, a root
// among them, device buffers of the rank that hold what the call moves,
// and the same collective (kind, bytes, root) as every other rank's call
// in the same place of its sequence.
func (c *checker) collective(o *trace.Op) *trace.Error {
	m := &c.msgs
	n := len(m.ranks)
	if n < 2 {
		return errf("op", "%s needs a communicator of at least 2 ranks, the trace has 1", o.Op)
	}
	root := -1
	if o.Op == trace.MPIBcast || o.Op == trace.MPIReduce {
		if o.Root == nil {
			return errf("root", "required by %s", o.Op)
		}
		if root = *o.Root; !m.member(root) {
			return errf("root", "rank %d is not in the communicator (the trace's ranks %s)", root, rankList(m.ranks))
		}
	}
	if o.Op != trace.MPIBarrier {
		if o.Bytes <= 0 {
			return errf("bytes", "must be > 0, got %d", o.Bytes)
		}
		if o.Bytes > trace.MaxCollBytes {
			return errf("bytes", "must be <= %d, got %d", trace.MaxCollBytes, o.Bytes)
		}
		if e := c.collBuffers(o, n, root); e != nil {
			return e
		}
	}
	call := collCall{o.Op, o.Bytes, root, c.line}
	k := len(m.colls[o.Rank])
	if k < len(m.low) { // the lowest other rank that made collective k: the caller has not
		r := m.low[k]
		ref := m.colls[r][k]
		switch {
		case ref.kind != call.kind:
			return errf("op", "%s, but rank %d's collective %d (line %d) is %s: every rank makes the same collectives in the same order",
				o.Op, r, k+1, ref.line, ref.kind)
		case ref.bytes != call.bytes:
			return errf("bytes", "%d, but rank %d's %s (collective %d, line %d) has %d", o.Bytes, r, o.Op, k+1, ref.line, ref.bytes)
		case ref.root != call.root:
			return errf("root", "%d, but rank %d's %s (collective %d, line %d) has root %d", root, r, o.Op, k+1, ref.line, ref.root)
		}
	}
	m.colls[o.Rank] = append(m.colls[o.Rank], call)
	if k == len(m.low) {
		m.low = append(m.low, o.Rank)
	} else {
		m.low[k] = min(m.low[k], o.Rank)
	}
	m.unordered = m.unordered || c.line <= m.lastLine
	m.lastLine = c.line
	return nil
}

// member says whether rank r is in the communicator (ranks ascend).
func (m *mpiState) member(r int) bool {
	_, ok := slices.BinarySearch(m.ranks, r)
	return ok
}

// index is rank r's index in the communicator.
func (m *mpiState) index(r int) int {
	i, _ := slices.BinarySearch(m.ranks, r)
	return i
}

// collBuffers checks the buffers of collective o on a communicator of n
// ranks: the rank's own device buffers, each large enough.
func (c *checker) collBuffers(o *trace.Op, n, root int) *trace.Error {
	b, all := o.Bytes, o.Bytes*int64(n)
	type use struct {
		field, name string
		bytes       int64
	}
	var uses []use
	switch o.Op {
	case trace.MPIBcast:
		uses = []use{{"buf", o.Buf, b}}
	case trace.MPIReduce:
		uses = []use{{"src", o.Src, b}}
		if o.Rank == root || o.Dst != "" {
			uses = append(uses, use{"dst", o.Dst, b})
		}
	case trace.MPIAllreduce:
		uses = []use{{"src", o.Src, b}, {"dst", o.Dst, b}}
	case trace.MPIReduceScatter:
		uses = []use{{"src", o.Src, b}, {"dst", o.Dst, trace.ReduceScatterBlock(b, n, c.msgs.index(o.Rank))}}
	case trace.MPIAllgather:
		uses = []use{{"src", o.Src, b}, {"dst", o.Dst, all}}
	case trace.MPIAlltoall:
		uses = []use{{"src", o.Src, all}, {"dst", o.Dst, all}}
	}
	for _, u := range uses {
		buf, e := c.at.Buffer(u.field, u.name, o.Op)
		if e != nil {
			return e
		}
		if buf.Host {
			return errf(u.field, "%q is host memory: MPI on host buffers is not modelled yet (GPU buffers only)", u.name)
		}
		if u.bytes > 0 {
			if e := trace.Fits("bytes", "bytes", string(o.Op)+" "+u.field, 0, u.bytes, buf); e != nil {
				return e
			}
		}
	}
	return nil
}

// collLeft reports, after the last op, a collective some rank of the
// communicator never makes: at the earliest line of such a call. With
// lines ascending, that is the call after the shortest sequence, at the
// first rank that has it shortest.
func (m *mpiState) collLeft(name string) *trace.Error {
	if m.unordered {
		return m.collLeftAny(name)
	}
	short, k := 0, -1
	for _, r := range m.ranks {
		if n := len(m.colls[r]); k < 0 || n < k {
			short, k = r, n
		}
	}
	var e *trace.Error
	for _, q := range m.ranks {
		if k < len(m.colls[q]) && (e == nil || m.colls[q][k].line < e.Line) {
			ref := m.colls[q][k]
			e = errf("op", "rank %d never makes this %s (its collective %d): every rank of the communicator must", short, ref.kind, k+1)
			e.File, e.Line = name, ref.line
		}
	}
	return e
}

// collLeftAny is collLeft for collectives in any order of lines: every
// pair of ranks compared.
func (m *mpiState) collLeftAny(name string) *trace.Error {
	var e *trace.Error
	for _, r := range m.ranks {
		for _, q := range m.ranks {
			if k := len(m.colls[r]); k < len(m.colls[q]) && (e == nil || m.colls[q][k].line < e.Line) {
				ref := m.colls[q][k]
				e = errf("op", "rank %d never makes this %s (its collective %d): every rank of the communicator must", r, ref.kind, k+1)
				e.File, e.Line = name, ref.line
			}
		}
	}
	return e
}

// rankList spells ranks as "0,1,2".
func rankList(rs []int) string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = fmt.Sprint(r)
	}
	return strings.Join(s, ",")
}
