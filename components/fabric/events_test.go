package fabric_test

import (
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// An EventCount counts what a hook sees: the engine's own events (the
// calendars' wake-ups, events booked on it directly) and each calendar's,
// checking every Every of them; hooks added with it still see them all,
// those added mid-run from then on.
func TestEventCount(t *testing.T) {
	e := sim.NewSerialEngine()
	checks := 0
	count := &fabric.EventCount{Every: 3, Check: func() { checks++ }}
	e.AcceptHook(count)
	hook := &countHook{all: true}
	e.AcceptHook(hook)
	late := &countHook{all: true}
	a := &recorder{cal: fabric.NewCalendar(e), clock: e, then: map[int]func(sim.VTimeInSec){}}
	b := &recorder{cal: fabric.NewCalendar(e), clock: e}
	for i, at := range []sim.VTimeInSec{1, 1, 2, 5, 5, 7} {
		a.book(at, i)
	}
	a.then[3] = func(sim.VTimeInSec) { e.AcceptHook(late) }
	b.book(2, 10)
	b.book(6, 11)
	direct := &recorder{clock: e}
	e.Schedule(&numbered{fabric.EventAt{T: 4, H: direct}, 20})
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if count.N != uint64(hook.before) || hook.before != hook.after {
		t.Errorf("counted %d events, the hook saw %d before and %d after", count.N, hook.before, hook.after)
	}
	if want := 8 + 1 + 6; hook.before != want { // events, the direct one, wake-ups (times 1, 2, 2, 5, 6, 7)
		t.Errorf("hook saw %d events, want %d", hook.before, want)
	}
	if checks != hook.before/3 {
		t.Errorf("%d checks of %d events, want one every 3", checks, hook.before)
	}
	// it saw event 3 end, and the wake-up that ran it, then all after them
	if late.before == 0 || late.after != late.before+2 {
		t.Errorf("hook added by event 3 saw %d before, %d after", late.before, late.after)
	}
}
