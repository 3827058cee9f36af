package mpi

import (
	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"
)

// Commands hands out Expand's commands a chunk at a time, each made when
// it is asked for: a run that replays them as a stream (hip.OpSource)
// holds the window in progress, not every call or command at once. The
// calls are read four times: for the library's names, the program's
// buffers and the collectives' sizes; for each pair of ranks' largest
// staged message (its bounce buffer is allocated at the first); then
// twice side by side, once a little ahead to match the messages and find
// the waits' requests, once as the calls are expanded, a chunk at a time.
type Commands struct {
	calls trace.Reader // the calls as they are expanded, collectives lowered
	ahead *ahead       // the same calls read ahead of them
	x     *expander    // nil: no MPI call, the calls go as they are
	chunk int          // commands per chunk
	next  int          // the next (lowered) call's index
}

// NewCommands prepares the expansion, in chunks of chunk commands, of
// the calls of ranks (ascending) that calls reads, afresh and in the
// same order each time it is called.
func NewCommands(calls func() trace.Reader, ranks []int, p Params, chunk int) *Commands {
	c := &Commands{chunk: max(chunk, 1)}
	taken, bufs, mpi := takenPrefixes{}, map[string]trace.Buffer{}, false
	l := newLowering(p, "", ranks, bufs)
	read := calls()
	for o := read(); o != nil; o = read() {
		taken.note(o)
		trace.AddBuffer(bufs, o) // before its rank's collectives: trace.Check saw to that
		l.size(o)
		mpi = mpi || o.IsMPI()
	}
	if !mpi {
		c.calls = calls()
		return c
	}
	l.prefix = taken.prefix()
	x := &expander{p: p, prefix: l.prefix, bufs: bufs,
		cache: map[int][]string{}, shm: map[[2]int]bool{}, eager: map[[2]int]int64{}, nicNext: map[int]int{}, nicGets: map[int]int{}}
	mt := newMatching()
	read = l.again().reader(calls())
	for i, o := 0, read(); o != nil; i, o = i+1, read() {
		trace.AddBuffer(bufs, o) // the library's own
		sds, n := halves(i, halvesOf(o))
		x.matchCall(mt, o, sds[:n]) // for x.eager; its messages go
	}
	x.matched = 0
	c.x, c.calls = x, l.again().reader(calls())
	c.ahead = &ahead{x: x, read: l.again().reader(calls()), mt: newMatching(), w: newWaiting(), started: map[int]record{}}
	x.out = c.room(nil)
	return c
}

// record is what reading ahead found of a call: its halves, their
// messages made, and the halves of the requests it waits for.
type record struct {
	halves [2]side
	n      int
	waits  []side
}

// ahead reads the calls ahead of their expansion, as far as the
// messages of the next call to expand are matched: the ranks call about
// together, so a few rounds of calls.
type ahead struct {
	x       *expander
	read    trace.Reader
	i       int // the next call it reads
	mt      *matching
	w       *waiting
	started map[int]record // calls whose requests are not waited yet
	recs    []record       // read, not expanded yet: recs[head:]
	head    int
	cur     record // the one handed out last
}

// step reads the next call; false at the end.
func (a *ahead) step() bool {
	o := a.read()
	if o == nil {
		return false
	}
	trace.AddBuffer(a.x.bufs, o) // the library's own
	var r record
	r.halves, r.n = halves(a.i, halvesOf(o))
	a.x.matchCall(a.mt, o, r.halves[:r.n])
	a.w.call(a.i, o, func(j int) {
		s := a.started[j]
		delete(a.started, j)
		r.waits = append(r.waits, s.halves[:s.n]...)
	})
	if o.Op == trace.MPIIsend || o.Op == trace.MPIIrecv {
		a.started[a.i] = r
	}
	a.recs = append(a.recs, r)
	a.i++
	return true
}

// next is the record of the next call to expand, its messages matched.
func (a *ahead) next() *record {
	if a.head == len(a.recs) && !a.step() {
		return nil
	}
	a.cur, a.recs[a.head] = a.recs[a.head], record{}
	a.head++
	for k := range a.cur.n {
		for !a.cur.halves[k].m.matched && a.step() {
		}
	}
	if a.head > 1024 && 2*a.head > len(a.recs) { // the records expanded go, the room is reused
		n := copy(a.recs, a.recs[a.head:])
		clear(a.recs[n:])
		a.recs, a.head = a.recs[:n], 0
	}
	return &a.cur
}

// room is a new chunk's slice holding the commands carried over: made
// with room past a chunk, so a call's commands seldom grow it.
func (c *Commands) room(carry []ir.Command) []ir.Command {
	return append(make([]ir.Command, 0, c.chunk+c.chunk/8), carry...)
}

// Next is the next chunk: chunk commands, fewer only at the end, nil
// after it.
func (c *Commands) Next() ([]ir.Command, error) {
	if c.x == nil {
		var out []ir.Command
		for o := c.calls(); o != nil; o = c.calls() {
			if out == nil {
				out = make([]ir.Command, 0, c.chunk)
			}
			if out = append(out, ir.Command{Call: *o}); len(out) == c.chunk {
				break
			}
		}
		return out, nil
	}
	x := c.x
	for len(x.out) < c.chunk {
		if x.cur = c.calls(); x.cur == nil {
			break
		}
		x.rec = c.ahead.next()
		x.op(c.next)
		c.next++
	}
	x.cur, x.rec = nil, nil
	if len(x.out) <= c.chunk {
		out := x.out
		x.out = c.room(nil)
		if len(out) == 0 {
			return nil, nil
		}
		return out, nil
	}
	out := x.out[:c.chunk:c.chunk]
	x.out = c.room(x.out[c.chunk:])
	return out, nil
}
