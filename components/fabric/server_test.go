package fabric_test

import (
	"math"
	"math/rand"
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// The servers here move one byte per second, so times are whole seconds and
// every comparison is exact.
func unitServer() *fabric.Server { return &fabric.Server{BytesPerSec: 1} }

type serve struct {
	now, at sim.VTimeInSec
	bytes   int
	want    sim.VTimeInSec
}

func runServes(t *testing.T, s *fabric.Server, steps []serve) {
	t.Helper()
	for i, st := range steps {
		if got := s.Serve(st.now, st.at, st.bytes); got != st.want {
			t.Errorf("piece %d (%d B arriving at %g, handed over at %g) done at %g, want %g",
				i, st.bytes, st.at, st.now, got, st.want)
		}
	}
}

// Work handed over ahead of its arrival books a slot in the calendar; a
// piece handed over later but arriving earlier is served in the gap before
// it, and a piece too large for the gap is split over the gaps (the
// resource interleaves work finely): it fills the gap and continues after
// the booked work.
func TestServerLaterPieceFillsEarlierGap(t *testing.T) {
	runServes(t, unitServer(), []serve{
		{0, 0, 100, 100},   // [0,100]
		{0, 300, 100, 400}, // [300,400], gap [100,300]
		{0, 100, 100, 200}, // fits the gap: [100,200]
		{0, 150, 150, 450}, // fills [200,300], the rest [400,450]
		{0, 200, 100, 550}, // no gap left: [450,550]
		{0, 0, 1, 551},     // no gap left before 550
	})
}

// A piece never waits for booked work that ends before it arrives, and
// back-to-back arrivals queue behind each other (contention).
func TestServerQueuesContendingWork(t *testing.T) {
	runServes(t, unitServer(), []serve{
		{0, 10, 50, 60},
		{0, 10, 50, 110},
		{20, 20, 50, 160},
		{500, 500, 5, 505}, // idle server: served on arrival
	})
}

// Interleave carries a small packet past booked bulk work (its own virtual
// channel) and pushes the bulk work back by its serialisation time.
func TestServerInterleaveDoesNotWaitButDelaysBulk(t *testing.T) {
	s := unitServer()
	if got := s.Serve(0, 0, 1000); got != 1000 {
		t.Fatalf("bulk done at %g, want 1000", got)
	}
	if got := s.Interleave(0, 100, 10); got != 110 {
		t.Errorf("interleaved packet done at %g, want 110 (not behind the bulk work ending at 1000)", got)
	}
	// the bulk booking now ends at 1010: the next bulk piece starts there
	if got := s.Serve(0, 0, 100); got != 1110 {
		t.Errorf("next bulk piece done at %g, want 1110 (1000 + 10 interleaved + 100)", got)
	}
	// on an idle server an interleaved packet books its own slot
	if got := s.Interleave(2000, 2000, 10); got != 2010 {
		t.Errorf("interleaved packet on an idle server done at %g, want 2010", got)
	}
	if got := s.Serve(2000, 2000, 10); got != 2020 {
		t.Errorf("bulk piece behind it done at %g, want 2020", got)
	}
}

// Busy time and bytes count every piece, queued or interleaved.
func TestServerBusyAndBytesAddUp(t *testing.T) {
	s := &fabric.Server{BytesPerSec: fabric.GBps(50)}
	sizes := []int{65536, 64, 4096, 65536, 1, 300}
	total := 0
	for i, b := range sizes {
		at := fabric.Ns(float64(100 * i))
		if i%2 == 1 {
			s.Interleave(0, at, b)
		} else {
			s.Serve(0, at, b)
		}
		total += b
	}
	if s.Bytes != uint64(total) {
		t.Errorf("Bytes = %d, want %d", s.Bytes, total)
	}
	want := float64(total) / 50e9
	if got := float64(s.Busy); math.Abs(got-want) > 1e-12*want {
		t.Errorf("Busy = %g s, want %g s", got, want)
	}
}

// Handing pieces over out of arrival order never moves a piece already
// booked and never overlaps two pieces: each piece takes the earliest free
// time at or after its arrival, split over gaps if need be. Checked against
// a direct simulation of whole seconds on random hand-overs.
func TestServerOutOfOrderHandOverKeepsBookings(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	s := unitServer()
	busy := map[int]bool{} // booked seconds
	now, sum := sim.VTimeInSec(0), sim.VTimeInSec(0)
	filled := 0
	for i := 0; i < 2000; i++ {
		// about 3/4 loaded, pieces handed over up to 20 pieces early
		now += sim.VTimeInSec(rng.Intn(40))
		at := int(now) + rng.Intn(400)
		d := 1 + rng.Intn(30)
		first, last, left := -1, -1, d
		for x := at; left > 0; x++ {
			if busy[x] {
				continue
			}
			if first < 0 {
				first = x
			}
			busy[x], last, left = true, x, left-1
		}
		if last-first+1 > d {
			filled++ // split around work booked before it
		}
		got := s.Serve(now, sim.VTimeInSec(at), d)
		if want := sim.VTimeInSec(last + 1); got != want {
			t.Fatalf("piece %d (%d s arriving at %d, handed over at %g) done at %g, want %g",
				i, d, at, now, got, want)
		}
		sum += sim.VTimeInSec(d)
	}
	if filled < 100 {
		t.Errorf("only %d pieces were split around earlier bookings: the case is not exercised", filled)
	}
	if s.Busy != sum {
		t.Errorf("Busy = %g, want the sum of the pieces %g", s.Busy, sum)
	}
}
