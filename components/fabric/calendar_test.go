package fabric_test

import (
	"math/rand"
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// recorder handles numbered events and may book more from its handler.
type recorder struct {
	ran   []int
	at    []sim.VTimeInSec
	cal   *fabric.Calendar
	then  map[int]func(now sim.VTimeInSec) // extra work when event n runs
	clock sim.Engine
}

type numbered struct {
	fabric.EventAt
	n int
}

func (r *recorder) Handle(e sim.Event) error {
	ev := e.(*numbered)
	r.ran = append(r.ran, ev.n)
	r.at = append(r.at, r.clock.CurrentTime())
	if f := r.then[ev.n]; f != nil {
		f(ev.Time())
	}
	return nil
}

func (r *recorder) book(t sim.VTimeInSec, n int) {
	r.cal.Schedule(&numbered{fabric.EventAt{T: t, H: r}, n})
}

// countHook counts the numbered events a hook sees, or every event (all).
type countHook struct {
	before, after int
	all           bool
}

func (h *countHook) Func(ctx sim.HookCtx) {
	if _, ok := ctx.Item.(*numbered); !ok && !h.all {
		return
	}
	switch ctx.Pos {
	case sim.HookPosBeforeEvent:
		h.before++
	case sim.HookPosAfterEvent:
		h.after++
	}
}

// The calendar runs its events in time order, events of one time in the
// order they were booked, each at its own time on the engine's clock,
// including events booked earlier than every wake-up already in the
// engine and events booked for now from a handler; the engine's event
// hooks see each event.
func TestCalendarOrder(t *testing.T) {
	e := sim.NewSerialEngine()
	hook := &countHook{}
	e.AcceptHook(hook)
	r := &recorder{cal: fabric.NewCalendar(e), clock: e, then: map[int]func(sim.VTimeInSec){}}
	r.then[1] = func(now sim.VTimeInSec) {
		r.book(now, 7)   // now, after the others of this time
		r.book(now+4, 8) // later than all
	}
	r.book(5, 0)
	r.book(2, 1)
	r.book(5, 2)
	r.book(2, 3)
	r.book(1, 4) // earlier than every wake-up so far
	r.book(3, 5)
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	want := []int{4, 1, 3, 7, 5, 0, 2, 8}
	wantAt := []sim.VTimeInSec{1, 2, 2, 2, 3, 5, 5, 6}
	if len(r.ran) != len(want) {
		t.Fatalf("ran %v, want %v", r.ran, want)
	}
	for i := range want {
		if r.ran[i] != want[i] || r.at[i] != wantAt[i] {
			t.Fatalf("ran %v at %v, want %v at %v", r.ran, r.at, want, wantAt)
		}
	}
	if r.cal.Pending() != 0 {
		t.Errorf("%d events left", r.cal.Pending())
	}
	if hook.before != len(want) || hook.after != len(want) {
		t.Errorf("hooks saw %d/%d events, want %d", hook.before, hook.after, len(want))
	}
}

// Two calendars on one engine interleave by time.
func TestCalendarsInterleave(t *testing.T) {
	e := sim.NewSerialEngine()
	var log []int
	a := &recorder{cal: fabric.NewCalendar(e), clock: e}
	b := &recorder{cal: fabric.NewCalendar(e), clock: e}
	a.book(1, 10)
	a.book(3, 11)
	b.book(2, 20)
	b.book(4, 21)
	a.then = map[int]func(sim.VTimeInSec){10: func(sim.VTimeInSec) { log = append(log, 10) }, 11: func(sim.VTimeInSec) { log = append(log, 11) }}
	b.then = map[int]func(sim.VTimeInSec){20: func(sim.VTimeInSec) { log = append(log, 20) }, 21: func(sim.VTimeInSec) { log = append(log, 21) }}
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	want := []int{10, 20, 11, 21}
	for i := range want {
		if i >= len(log) || log[i] != want[i] {
			t.Fatalf("order %v, want %v", log, want)
		}
	}
}

// Many events of random times, many tied, run in time order and, within
// a time, in booking order.
func TestCalendarManyEvents(t *testing.T) {
	e := sim.NewSerialEngine()
	r := &recorder{cal: fabric.NewCalendar(e), clock: e}
	rng := rand.New(rand.NewSource(1))
	const n = 5000
	times := make([]sim.VTimeInSec, n)
	for i := range n {
		times[i] = sim.VTimeInSec(rng.Intn(300))
		r.book(times[i], i)
	}
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if len(r.ran) != n {
		t.Fatalf("ran %d of %d", len(r.ran), n)
	}
	for k := 1; k < n; k++ {
		a, b := r.ran[k-1], r.ran[k]
		if times[a] > times[b] || (times[a] == times[b] && a > b) {
			t.Fatalf("event %d (t=%v) ran before %d (t=%v)", a, times[a], b, times[b])
		}
	}
}

// Events booked mostly in time order (they queue in the calendar's run)
// with some earlier ones among them (they go to its heap), ties across
// both and bookings from handlers still run in time, then booking order.
func TestCalendarMostlyInOrder(t *testing.T) {
	e := sim.NewSerialEngine()
	r := &recorder{cal: fabric.NewCalendar(e), clock: e, then: map[int]func(sim.VTimeInSec){}}
	rng := rand.New(rand.NewSource(2))
	const n = 3000
	times := make([]sim.VTimeInSec, 0, 2*n)
	at := sim.VTimeInSec(0)
	for i := range n {
		at += sim.VTimeInSec(rng.Intn(3))
		tm := at
		if rng.Intn(5) == 0 {
			tm = max(0, at-sim.VTimeInSec(rng.Intn(20)))
		}
		times = append(times, tm)
		r.book(tm, i)
		if i%7 == 0 { // books one more when it runs, at or after its time
			r.then[i] = func(now sim.VTimeInSec) {
				k := len(times)
				times = append(times, now+sim.VTimeInSec(rng.Intn(4)))
				r.book(times[k], k)
			}
		}
	}
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if len(r.ran) != len(times) {
		t.Fatalf("ran %d of %d", len(r.ran), len(times))
	}
	for k := 1; k < len(r.ran); k++ {
		a, b := r.ran[k-1], r.ran[k]
		if times[a] > times[b] || (times[a] == times[b] && a > b) {
			t.Fatalf("event %d (t=%v) ran before %d (t=%v)", a, times[a], b, times[b])
		}
		if r.at[k] != times[b] {
			t.Fatalf("event %d ran at %v, booked for %v", b, r.at[k], times[b])
		}
	}
}
