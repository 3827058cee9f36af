package node

import (
	"fmt"

	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"
)

// Run replays a trace's operations on the node until they are all done
// and returns what happened to each. A trace with library calls (MPI,
// RCCL) is lowered first (packages mpi and rccl) and run with RunCommands.
func (n *Node) Run(ops []trace.Op) ([]hip.OpResult, error) {
	return n.RunCommands(ir.FromTrace(ops))
}

// RunCommands replays commands on the node until they are all done and
// returns what happened to each.
func (n *Node) RunCommands(ops []ir.Command) ([]hip.OpResult, error) {
	if err := n.guard(func() error { n.Runtime.LoadCommands(ops); return n.Engine.Run() }); err != nil {
		return nil, err
	}
	if n.Runtime.Err != nil {
		return nil, n.Runtime.Err
	}
	for i, r := range n.Runtime.Results {
		if !r.Done && i < len(ops) {
			if n.Runtime.Ranks() > 1 || waitsOnFlags(ops) {
				// the host threads left all wait for each other: bad input, at the call
				return nil, &trace.Error{Line: ir.LineOf(ops, i), Field: "op",
					Msg: "this call never returns: what it waits for never comes (a flag no one sets, host threads waiting for each other, e.g. two ranks each in a large blocking mpi_send before its mpi_recv, or kernels waiting for each other, e.g. rccl_send before rccl_recv outside an rccl_group_start/end with more than a FIFO's worth of data)"}
			}
			return nil, fmt.Errorf("op %d (line %d, %s) never completed", i, ops[i].Line, ops[i].Op)
		}
	}
	if err := n.Runtime.Stalled(); err != nil {
		return nil, err // every call returned, but an async op's work never ended
	}
	return n.Runtime.Results, nil
}

// waitsOnFlags says whether any op waits on a flag (a kernel's wait_flag,
// a host flag_wait): then a run that stops short is a cycle of waits.
func waitsOnFlags(ops []ir.Command) bool {
	for i := range ops {
		if ops[i].WaitFlag != "" || ops[i].Op == trace.FlagWait {
			return true
		}
		for _, ch := range ops[i].Channels { // a library's kernel polling GPU flags
			for _, ph := range ch {
				if len(ph.Waits) > 0 {
					return true
				}
			}
		}
	}
	return false
}

// RunStream replays a streamed trace (hip.Runtime.LoadStream): retire
// gets each operation's result once it is final, in order unless
// anyOrder.
func (n *Node) RunStream(src hip.OpSource, ranks []int, retire func(*hip.OpResult) error, anyOrder bool) error {
	if err := n.guard(func() error { n.Runtime.LoadStream(src, ranks, retire, anyOrder); return n.Engine.Run() }); err != nil {
		return err
	}
	return n.Runtime.FinishStream()
}

// guard runs f (loading and running the engine); a node the run touched
// that would not fit in memory ends it with the limit's error.
func (n *Node) guard(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			b, ok := p.(buildError)
			if !ok {
				panic(p)
			}
			err = b.err
		}
	}()
	return f()
}
