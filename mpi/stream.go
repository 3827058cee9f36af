package mpi

import (
	"slices"

	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"
)

// Commands hands out Expand's commands a chunk at a time, each made when
// it is asked for: a run that replays them as a stream (hip.OpSource)
// holds the trace and the window in progress, not every command at once.
// The messages are matched over the whole trace when it is made.
type Commands struct {
	calls trace.Packed // the calls not yet expanded, in order
	call  trace.Op     // the call being expanded
	x     *expander    // nil: a trace without MPI calls, its ops handed on as they are
	chunk int          // commands per chunk
	next  int          // the next op (or lowered call) to hand out
}

// NewCommands prepares ops' expansion in chunks of chunk commands, taking
// the ops in order (order[k]: the k-th op's index; nil: as they are). It
// keeps the calls packed, in order (trace.Packed), each read once as it is
// expanded: ops may then go. Reordering while packing spares moving the
// whole trace first.
func NewCommands(ops []trace.Op, order []int32, p Params, chunk int) (*Commands, error) {
	c := &Commands{chunk: max(chunk, 1)}
	if !slices.ContainsFunc(ops, func(o trace.Op) bool { return o.IsMPI() }) {
		for k := range ops {
			if order != nil {
				k = int(order[k])
			}
			c.calls.Append(&ops[k])
		}
		return c, nil
	}
	var err error
	if c.x, err = newExpander(ops, order, p); err != nil {
		return nil, err
	}
	c.x.out = c.room(nil)
	for i, o := range c.x.ops {
		c.calls.Append(o)
		c.x.ops[i] = nil // the expansion reads call i alone, as it expands it (Next)
	}
	return c, nil
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
		out := make([]ir.Command, min(c.chunk, c.calls.Len()-c.next))
		for k := range out {
			c.calls.Next(&out[k].Call)
		}
		c.next += len(out)
		return out, nil
	}
	x := c.x
	for len(x.out) < c.chunk && c.calls.Next(&c.call) {
		x.ops[c.next] = &c.call
		x.op(c.next)
		x.ops[c.next] = nil // its messages keep what the other halves read of it
		c.next++
	}
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
