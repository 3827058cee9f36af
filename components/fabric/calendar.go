package fabric

import "github.com/sarchlab/akita/v3/sim"

// Calendar is one component's own queue of future events in front of
// the engine: the engine holds only a wake-up at the earliest of them.
// A GCD's L2 keeps thousands of answers booked ahead of a busy HBM; in
// the engine's one heap of interface values each pop then chased pointers
// through hundreds of thousands of events (half of a 64-GCD run's time).
// Here times sit in the heap's entries, and events of one time run in the
// order they were scheduled. Most events are booked in time order: those
// queue in a run, the rest in a heap, and the calendar takes the earlier
// of the two heads (a pop of the heap was most of its cost).
type Calendar struct {
	sim.Engine
	heap  []calEntry
	run   []calEntry // from head on: events booked no earlier than the one before
	head  int
	seq   uint64
	wakes []sim.VTimeInSec // wake-ups in the engine, latest first
	free  []*calWake       // wake-ups the engine is done with, for reuse

	hooks  eventHooks    // the engine's, run around each event
	serial *SerialEngine // the engine, when ours: wake-ups booked without an interface call
}

type calEntry struct {
	t   sim.VTimeInSec
	seq uint64
	ev  sim.Event
}

// calWake is the engine event that runs a calendar's due events.
type calWake struct {
	EventAt
}

// NewCalendar puts a calendar in front of engine; give it to one
// component (and its senders) in place of the engine.
func NewCalendar(engine sim.Engine) *Calendar {
	if c, ok := engine.(*Calendar); ok {
		engine = c.Engine
	}
	c := &Calendar{Engine: engine}
	switch s := engine.(type) {
	case *SerialEngine:
		c.hooks.base, c.serial = &s.HookableBase, s
	case *sim.SerialEngine:
		c.hooks.base = &s.HookableBase
	}
	return c
}

// Schedule books evt in the calendar, and a wake-up in the engine if evt
// is due before every wake-up already there.
func (c *Calendar) Schedule(evt sim.Event) {
	t := evt.Time()
	if n := len(c.run); n == c.head || t >= c.run[n-1].t {
		c.run = append(c.run, calEntry{t, c.seq, evt})
	} else {
		c.push(calEntry{t, c.seq, evt})
	}
	c.seq++
	c.wake(t)
}

// wake has the engine wake the calendar at t unless it already will by then.
func (c *Calendar) wake(t sim.VTimeInSec) {
	if n := len(c.wakes); n > 0 && t >= c.wakes[n-1] {
		return
	}
	c.wakes = append(c.wakes, t)
	var w *calWake
	if n := len(c.free); n > 0 {
		w, c.free = c.free[n-1], c.free[:n-1]
	} else {
		w = &calWake{} // only when none is free: allocating first cost an object per wake-up
	}
	w.EventAt = EventAt{t, c}
	if c.serial != nil {
		c.serial.book(t, w)
		return
	}
	c.Engine.Schedule(w)
}

// Handle runs the events due at the wake-up's time, in time and then
// booking order, with the engine's event hooks around each (as the
// engine itself would), then makes sure the next one has a wake-up.
func (c *Calendar) Handle(e sim.Event) error {
	now := e.Time()
	if n := len(c.wakes); n > 0 && c.wakes[n-1] == now {
		c.wakes = c.wakes[:n-1]
	}
	for {
		heap, next, ok := c.next()
		if !ok {
			break
		}
		if next > now {
			c.wake(next)
			break
		}
		c.hooks.handle(c.Engine, c.take(heap))
	}
	if w, ok := e.(*calWake); ok { // reused from the next wake-up on: the engine is done with it then
		c.free = append(c.free, w)
	}
	return nil
}

// Pending is the number of events booked and not yet run.
func (c *Calendar) Pending() int { return len(c.heap) + len(c.run) - c.head }

// next is when the earliest booked event is due and whether it is in the
// heap (else the run); ok is false when nothing is booked.
func (c *Calendar) next() (heap bool, t sim.VTimeInSec, ok bool) {
	if c.head == len(c.run) {
		if len(c.heap) == 0 {
			return false, 0, false
		}
		return true, c.heap[0].t, true
	}
	r := &c.run[c.head]
	if len(c.heap) > 0 {
		if h := &c.heap[0]; h.t < r.t || (h.t == r.t && h.seq < r.seq) {
			return true, h.t, true
		}
	}
	return false, r.t, true
}

// take removes the earliest booked event, from the heap or the run as
// next said, and returns it.
func (c *Calendar) take(heap bool) sim.Event {
	if heap {
		return c.pop().ev
	}
	ev := c.run[c.head].ev
	c.run[c.head] = calEntry{}
	c.head++
	if c.head == len(c.run) {
		c.run, c.head = c.run[:0], 0
	} else if c.head >= 64 && 2*c.head >= len(c.run) {
		n := copy(c.run, c.run[c.head:])
		clear(c.run[n:])
		c.run, c.head = c.run[:n], 0
	}
	return ev
}

func (a calEntry) before(b calEntry) bool {
	return a.t < b.t || (a.t == b.t && a.seq < b.seq)
}

// push and pop move a hole rather than swap entries: an entry is written
// once per level, not twice.
func (c *Calendar) push(x calEntry) { c.heap = pushEntry(c.heap, x) }

func (c *Calendar) pop() calEntry {
	var top calEntry
	c.heap, top = popEntry(c.heap)
	return top
}

// pushEntry and popEntry keep a binary min-heap of entries in the order
// Go's container/heap keeps it: the same comparisons and moves (a hole
// moved rather than entries swapped leaves every entry where the swaps
// would), so entries of one time and seq come out as from container/heap.
func pushEntry(h []calEntry, x calEntry) []calEntry {
	h = append(h, x)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !x.before(h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = x
	return h
}

// popEntry takes the root: the last entry goes to the root and sifts
// down over the rest.
func popEntry(h []calEntry) ([]calEntry, calEntry) {
	top := h[0]
	n := len(h) - 1
	x := h[n]
	h[n] = calEntry{}
	h = h[:n]
	if n > 0 {
		i := 0
		for {
			l := 2*i + 1
			if l >= n {
				break
			}
			m := l
			if r := l + 1; r < n && h[r].before(h[l]) {
				m = r
			}
			if !h[m].before(x) {
				break
			}
			h[i] = h[m]
			i = m
		}
		h[i] = x
	}
	return h, top
}
