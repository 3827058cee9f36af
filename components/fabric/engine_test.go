package fabric_test

import (
	"math/rand"
	"slices"
	"testing"
	"time"

	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// tagged is an event with a number, primary or secondary.
type tagged struct {
	fabric.EventAt
	n      int
	second bool
}

func (e *tagged) IsSecondary() bool { return e.second }

// chain handles events by noting them and booking more at a few coarse
// times ahead, so that most events tie with others.
type chain struct {
	engine sim.Engine
	rng    *rand.Rand
	next   int
	left   int
	seen   []int
	times  []sim.VTimeInSec
}

func (c *chain) Handle(e sim.Event) error {
	ev := e.(*tagged)
	c.seen = append(c.seen, ev.n)
	c.times = append(c.times, c.engine.CurrentTime())
	for k := c.rng.Intn(4); k > 0 && c.left > 0; k-- {
		c.left--
		c.next++
		at := e.Time() + sim.VTimeInSec(c.rng.Intn(4))
		c.engine.Schedule(&tagged{fabric.EventAt{T: at, H: c}, c.next, c.rng.Intn(5) == 0})
	}
	return nil
}

// runChain runs a seeded chain of events, most of them tied in time with
// another, on engine e, and returns the order they ran in and the times
// the engine said.
func runChain(t *testing.T, e sim.Engine, seed int64) ([]int, []sim.VTimeInSec) {
	c := &chain{engine: e, rng: rand.New(rand.NewSource(seed)), left: 5000}
	for i := range 40 {
		c.next++
		e.Schedule(&tagged{fabric.EventAt{T: sim.VTimeInSec(i % 7), H: c}, c.next, i%9 == 0})
	}
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	return c.seen, c.times
}

// The engine runs events in the very order Akita's serial engine does,
// ties in time included (the heap's positions break them), so swapping
// one for the other leaves every result as it was.
func TestSerialEngineRunsAkitasOrder(t *testing.T) {
	for seed := int64(1); seed <= 20; seed++ {
		want, wantT := runChain(t, sim.NewSerialEngine(), seed)
		got, gotT := runChain(t, fabric.NewSerialEngine(), seed)
		ties := 0
		for i := 1; i < len(wantT); i++ {
			if wantT[i] == wantT[i-1] {
				ties++
			}
		}
		if len(want) < 1000 || 2*ties < len(want) {
			t.Fatalf("seed %d: %d events ran, %d tied with the one before: too few to test the order of ties", seed, len(want), ties)
		}
		if !slices.Equal(got, want) || !slices.Equal(gotT, wantT) {
			i := 0
			for i < min(len(got), len(want)) && got[i] == want[i] {
				i++
			}
			t.Fatalf("seed %d: %d events; the order differs from Akita's (%d there) at event %d", seed, len(got), len(want), i)
		}
	}
}

// eventLog notes the events a hook saw, before and after.
type eventLog struct{ before, after []int }

func (h *eventLog) Func(ctx sim.HookCtx) {
	n := ctx.Item.(*tagged).n
	if ctx.Pos == sim.HookPosBeforeEvent {
		h.before = append(h.before, n)
	} else {
		h.after = append(h.after, n)
	}
}

// Hooks see every event before and after it, as on Akita's engine, and
// the end handlers are told the last event's time.
func TestSerialEngineHooksAndEnd(t *testing.T) {
	e := fabric.NewSerialEngine()
	h := &eventLog{}
	e.AcceptHook(h)
	end := &endAt{}
	e.RegisterSimulationEndHandler(end)
	seen, _ := runChain(t, e, 3)
	if !slices.Equal(h.before, seen) || !slices.Equal(h.after, seen) {
		t.Errorf("hooks saw %d before and %d after of %d events", len(h.before), len(h.after), len(seen))
	}
	e.Finished()
	if end.at != e.CurrentTime() || end.at == 0 {
		t.Errorf("end handler told %v, engine at %v", end.at, e.CurrentTime())
	}
}

type endAt struct{ at sim.VTimeInSec }

func (h *endAt) Handle(now sim.VTimeInSec) { h.at = now }

// blocker is a handler that signals when it runs, then waits to be let go.
type blocker struct {
	ran, let chan struct{}
	count    int
}

func (b *blocker) Handle(sim.Event) error {
	b.count++
	if b.count == 1 {
		b.ran <- struct{}{}
		<-b.let
	}
	return nil
}

// Pause returns once Run is between events and holds it there until
// Continue.
func TestSerialEnginePause(t *testing.T) {
	e := fabric.NewSerialEngine()
	b := &blocker{ran: make(chan struct{}), let: make(chan struct{})}
	for i := range 3 {
		e.Schedule(&tagged{EventAt: fabric.EventAt{T: sim.VTimeInSec(i), H: b}, n: i})
	}
	done := make(chan struct{})
	go func() { _ = e.Run(); close(done) }()
	<-b.ran // Run is inside the first event
	paused := make(chan struct{})
	go func() { e.Pause(); close(paused) }()
	select {
	case <-paused:
		t.Fatal("Pause returned while an event was running")
	case <-time.After(20 * time.Millisecond):
	}
	close(b.let)
	<-paused
	time.Sleep(20 * time.Millisecond)
	e.Pause() // a second Pause is a no-op
	select {
	case <-done:
		t.Fatal("Run went on while paused")
	default:
	}
	if b.count != 1 {
		t.Errorf("%d events ran while paused, want 1", b.count)
	}
	e.Continue()
	<-done
	if b.count != 3 {
		t.Errorf("%d events ran, want 3", b.count)
	}
}

// Booking an event before the current time is a caller's bug: the engine
// panics, as Akita's does, rather than run time backwards.
func TestSerialEngineRefusesThePast(t *testing.T) {
	e := fabric.NewSerialEngine()
	b := &pastBooker{engine: e}
	e.Schedule(&tagged{EventAt: fabric.EventAt{T: 5, H: b}})
	defer func() {
		if recover() == nil {
			t.Error("booking at 4 from an event at 5 did not panic")
		}
	}()
	_ = e.Run()
}

type pastBooker struct{ engine sim.Engine }

func (p *pastBooker) Handle(e sim.Event) error {
	p.engine.Schedule(&tagged{EventAt: fabric.EventAt{T: e.Time() - 1, H: p}})
	return nil
}
