package mpi

import (
	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"
)

// Commands hands out Expand's commands a chunk at a time, each made when
// it is asked for: a run that replays them as a stream (hip.OpSource)
// holds the window in progress, not every call or command at once. The
// calls are read three times: for the library's names, the program's
// buffers and the collectives' sizes; to match the messages and find the
// waits' requests (what is kept of them is a few numbers a call and the
// messages); and a chunk at a time as they are expanded.
type Commands struct {
	calls trace.Reader // the calls as they are expanded, collectives lowered
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
	mt, w := newMatching(), newWaiting()
	read = l.again().reader(calls())
	for i, o := 0, read(); o != nil; i, o = i+1, read() {
		trace.AddBuffer(bufs, o) // the library's own
		x.halfKinds = append(x.halfKinds, halvesOf(o))
		x.bySide = append(x.bySide, 0, 0)
		x.waitFrom = append(x.waitFrom, int32(len(x.waited)))
		x.matchCall(mt, i, o)
		x.waitCall(w, i, o)
	}
	x.waitFrom = append(x.waitFrom, int32(len(x.waited)))
	c.x, c.calls = x, l.again().reader(calls())
	x.out = c.room(nil)
	return c
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
		x.op(c.next)
		c.next++
	}
	x.cur = nil
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
