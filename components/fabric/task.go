package fabric

import (
	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"
)

// Tasks for Akita's tracers (Daisen). A component reports its work as
// tracing tasks through its hooks, as Akita's components do. akisim
// books a transaction when it arrives, so a piece of work often starts
// or ends at a time other than the event's: the task's Detail carries
// that time (TaskTimes). A tracer that reads it places the task exactly;
// any other Akita tracer sees the task at the event's time.

// TaskTimes is the Detail of a task reported here: when it starts or
// ends, and the data bytes it moves (0: none, or not a transfer).
type TaskTimes struct {
	At    sim.VTimeInSec
	Bytes int
}

// StartTask tells d's hooks that task id, a child of parent (or of none),
// started at t at location where. It costs nothing while d has no hooks.
func StartTask(d tracing.NamedHookable, id, parent, kind, what, where string, t sim.VTimeInSec, bytes int) {
	tracing.StartTaskWithSpecificLocation(id, parent, d, kind, what, where, TaskTimes{At: t, Bytes: bytes})
}

// EndTask tells d's hooks that task id ended at t. Akita's EndTask carries
// no time, so the hook gets the task with its end in Detail.
func EndTask(d tracing.NamedHookable, id string, t sim.VTimeInSec) {
	if d.NumHooks() == 0 {
		return
	}
	d.InvokeHook(sim.HookCtx{Domain: d, Pos: tracing.HookPosTaskEnd,
		Item: tracing.Task{ID: id, Detail: TaskTimes{At: t}}})
}

// Task reports a task whose start and end are both known now: a transfer
// booked on a link or a memory when it arrives.
func Task(d tracing.NamedHookable, id, parent, kind, what, where string, start, end sim.VTimeInSec, bytes int) {
	StartTask(d, id, parent, kind, what, where, start, bytes)
	EndTask(d, id, end)
}
