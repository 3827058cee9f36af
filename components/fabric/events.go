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

// eventHooks run an event with an engine's hooks around it, as Akita's
// engine runs them, except that an EventCount among them is counted
// directly rather than called twice through the hook interface. They
// keep the hooks as last seen: hooks are only ever added.
type eventHooks struct {
	base  *sim.HookableBase // the engine's, when a serial engine (ours or Akita's): no interface call
	seen  int
	count *EventCount
	hooks []sim.Hook // the others, called around each event
}

// handle runs ev, with domain's hooks around it.
func (h *eventHooks) handle(domain sim.Hookable, ev sim.Event) {
	if h.base == nil || h.base.NumHooks() != h.seen {
		h.look(domain)
	}
	if h.count != nil {
		h.count.add()
	}
	if len(h.hooks) == 0 {
		_ = ev.Handler().Handle(ev) // the engine, too, goes on past a handler's error
		return
	}
	// one context for both, as the engine's own; the hooks after the
	// event are those it has then
	ctx := sim.HookCtx{Domain: domain, Pos: sim.HookPosBeforeEvent, Item: ev}
	for _, hk := range h.hooks {
		hk.Func(ctx)
	}
	_ = ev.Handler().Handle(ev)
	ctx.Pos = sim.HookPosAfterEvent
	if h.base == nil || h.base.NumHooks() != h.seen {
		h.look(domain)
	}
	for _, hk := range h.hooks {
		hk.Func(ctx)
	}
}

// look takes in the hooks domain gained since last seen.
func (h *eventHooks) look(domain sim.Hookable) {
	hooks := domain.Hooks()
	if len(hooks) == h.seen {
		return
	}
	h.seen, h.count, h.hooks = len(hooks), nil, h.hooks[:0]
	for _, hk := range hooks {
		if n, ok := hk.(*EventCount); ok && h.count == nil {
			h.count = n
		} else {
			h.hooks = append(h.hooks, hk)
		}
	}
}
