package hip

import (
	"fmt"

	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// Stalled is the error for a run that ended with stream work still queued
// or in flight: nothing is left to move it, so the program would hang on
// the machine. It names the earliest such call; nil when every stream ran dry.
func (r *Runtime) Stalled() error {
	first := -1
	var at *stream
	for _, id := range r.streamOrder {
		s := r.streams[id]
		ops := s.live
		if len(s.queue) > 0 {
			ops = append(ops[:len(ops):len(ops)], s.queue[0].op)
		}
		for _, i := range ops {
			if first < 0 || i < first {
				first, at = i, s
			}
		}
	}
	if first < 0 {
		return nil
	}
	op := r.op(first)
	line := op.Line
	if line == 0 {
		line = first + 1
	}
	what := string(op.Op)
	if op.Name != "" { // a library's kernel is known by its name
		what += " " + report.Printable(op.Name)
	}
	where := fmt.Sprintf("stream %d", at.id)
	if r.Ranks() > 1 {
		where = fmt.Sprintf("rank %d %s", at.rank, where)
	}
	return &trace.Error{Line: line, Field: "op",
		Msg: fmt.Sprintf("%s on %s never completes: what it waits for never comes (a flag no one sets, or a peer's kernel queued behind it, "+
			"e.g. rccl_send before rccl_recv on each side outside an rccl_group_start/end with more than a FIFO's worth of data)", what, where)}
}
