package fabric

import (
	"math/rand"
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

// Serve books work as its gap-filling loop alone would, shortcuts and
// all: random work, handed over now or ahead of when it arrives, gives
// the same times and bookings on a server that only fills.
func TestServeAgreesWithFill(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	// times and durations in exact binary units, so bookings often touch
	const unit = 1.0 / (1 << 30)
	a, b := &Server{BytesPerSec: 1 << 30}, &Server{BytesPerSec: 1 << 30}
	now, last := sim.VTimeInSec(0), sim.VTimeInSec(0)
	for step := 0; step < 200000; step++ {
		now += sim.VTimeInSec(rng.Intn(4)*1000) * unit
		at := now + sim.VTimeInSec(rng.Intn(3)*rng.Intn(50000))*unit
		if rng.Intn(4) == 0 { // as the last piece ends, as a stream's next piece does
			at = max(now, last)
		}
		bytes := rng.Intn(3) * rng.Intn(5000)
		if rng.Intn(10) == 0 {
			if x, y := a.Interleave(now, at, bytes), b.Interleave(now, at, bytes); x != y {
				t.Fatalf("step %d: interleaved done at %v, want %v", step, x, y)
			}
			continue
		}
		start, done := a.serve(now, at, bytes)
		last = done
		d := sim.VTimeInSec(float64(bytes) / b.BytesPerSec)
		b.Busy += d
		b.Bytes += uint64(bytes)
		b.prune(now)
		wantStart, wantDone := b.fill(at, d)
		if start != wantStart || done != wantDone {
			t.Fatalf("step %d: served %v to %v, want %v to %v", step, start, done, wantStart, wantDone)
		}
		if len(a.busy) != len(b.busy) {
			t.Fatalf("step %d: %d bookings, want %d", step, len(a.busy), len(b.busy))
		}
		for i := range a.busy {
			if a.busy[i] != b.busy[i] {
				t.Fatalf("step %d: booking %d is %v, want %v", step, i, a.busy[i], b.busy[i])
			}
		}
	}
}
