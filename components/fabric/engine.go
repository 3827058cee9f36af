package fabric

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/sarchlab/akita/v3/sim"
)

// SerialEngine is Akita's serial engine (sim.SerialEngine) without its
// locks: the same events run in the same order, ties in time broken the
// same way, with the same hooks around each, so results do not move. A
// node runs on one goroutine, yet Akita's engine took a mutex or an atomic
// add eight times per event and compared events through interface calls:
// about a sixth of akisim validate's CPU time. It is a sim.Engine, so
// Daisen's tracers and AkitaRTM hook onto it as onto Akita's.
type SerialEngine struct {
	sim.HookableBase
	hooks eventHooks

	now sim.VTimeInSec
	// Entries with their times beside them, compared without an interface
	// call; seq is always 0, so time alone orders them and ties fall as
	// container/heap over Akita's event heap lets them fall.
	queue     []calEntry
	secondary []calEntry // events that say IsSecondary: after the primary ones of their time

	// Pause parks Run between events: it asks (pausing), then takes gate,
	// which Run holds while it runs and lets go of only when asked.
	pausing  atomic.Bool
	gate     sync.Mutex
	pauseMu  sync.Mutex // serialises Pause and Continue
	isPaused bool

	endHandlers []sim.SimulationEndHandler
}

// NewSerialEngine makes an engine with nothing scheduled.
func NewSerialEngine() *SerialEngine {
	e := &SerialEngine{}
	e.hooks.base = &e.HookableBase
	return e
}

// Schedule books evt; scheduling in the past is a bug in the caller, as
// Akita's engine treats it.
func (e *SerialEngine) Schedule(evt sim.Event) {
	t := evt.Time()
	if evt.IsSecondary() {
		e.checkTime(t, evt)
		e.secondary = pushEntry(e.secondary, calEntry{t: t, ev: evt})
		return
	}
	e.book(t, evt)
}

// book schedules primary event evt, due at t: a calendar's wake-up,
// whose time and kind it knows, costs no interface call.
func (e *SerialEngine) book(t sim.VTimeInSec, evt sim.Event) {
	e.checkTime(t, evt)
	e.queue = pushEntry(e.queue, calEntry{t: t, ev: evt})
}

func (e *SerialEngine) checkTime(t sim.VTimeInSec, evt sim.Event) {
	if t < e.now {
		panic(fmt.Sprintf("fabric: event %T scheduled at %.10f, before now %.10f", evt, t, e.now))
	}
}

// CurrentTime is the time of the event running (or last run).
func (e *SerialEngine) CurrentTime() sim.VTimeInSec { return e.now }

// Run handles events in time order until none is left.
func (e *SerialEngine) Run() error {
	e.gate.Lock()
	defer e.gate.Unlock()
	for len(e.queue) > 0 || len(e.secondary) > 0 {
		if e.pausing.Load() { // let Pause take the gate; go on once Continue gives it back
			e.gate.Unlock()
			e.gate.Lock()
			continue
		}
		evt := e.next()
		e.now = evt.t
		e.hooks.handle(e, evt.ev)
	}
	return nil
}

// next takes the earliest event: the primary queue's on a tie, as Akita's
// engine does.
func (e *SerialEngine) next() (evt calEntry) {
	if len(e.queue) > 0 && (len(e.secondary) == 0 || e.queue[0].t <= e.secondary[0].t) {
		e.queue, evt = popEntry(e.queue)
	} else {
		e.secondary, evt = popEntry(e.secondary)
	}
	return evt
}

// Pause stops Run before its next event; it returns once Run is between
// events (or not running).
func (e *SerialEngine) Pause() {
	e.pauseMu.Lock()
	defer e.pauseMu.Unlock()
	if e.isPaused {
		return
	}
	e.pausing.Store(true)
	e.gate.Lock()
	e.isPaused = true
}

// Continue lets a paused Run go on.
func (e *SerialEngine) Continue() {
	e.pauseMu.Lock()
	defer e.pauseMu.Unlock()
	if !e.isPaused {
		return
	}
	e.isPaused = false
	e.pausing.Store(false)
	e.gate.Unlock()
}

// RegisterSimulationEndHandler adds a handler Finished calls.
func (e *SerialEngine) RegisterSimulationEndHandler(h sim.SimulationEndHandler) {
	e.endHandlers = append(e.endHandlers, h)
}

// Finished tells the end handlers the simulation is over.
func (e *SerialEngine) Finished() {
	for _, h := range e.endHandlers {
		h.Handle(e.now)
	}
}
