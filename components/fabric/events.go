package fabric

import "github.com/sarchlab/akita/v3/sim"

// EventCount is an engine hook that counts the events a node handles: the
// engine's own (calendar wake-ups, events booked on it directly) through
// the hook, and each calendar's, which the calendars add themselves: a
// hook call per calendar event was a twentieth of a run's instructions.
// Every Every events (when Check is set) it calls Check, which may panic
// to end the run.
type EventCount struct {
	N     uint64
	Every uint64
	Check func()
}

// Func counts an engine event before it runs.
func (c *EventCount) Func(ctx sim.HookCtx) {
	if ctx.Pos == sim.HookPosBeforeEvent {
		c.add()
	}
}

// add counts one event.
func (c *EventCount) add() {
	if c.N++; c.Check != nil && c.N%c.Every == 0 {
		c.Check()
	}
}
