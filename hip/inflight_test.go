package hip_test

import (
	"testing"

	"github.com/akisim/akisim/trace"
)

// A kernel's in_flight caps what each CU keeps in flight for it: a copy
// kernel with a 1 KiB window against a peer's memory is bound by the
// round trip and runs slower than with the CU's own window.
func TestKernelInFlightReachesTheCUs(t *testing.T) {
	const bytes = 16 << 20
	took := func(inFlight int64) float64 {
		k := kernel(0, 0, bytes, []string{"a"}, []string{"b"})
		k.InFlight = inFlight
		res, _ := run(t, nil, []trace.Op{device("a", 0, bytes), device("b", 1, bytes), k})
		r := res[2]
		return float64(r.End - r.Begin)
	}
	own, small := took(0), took(1024)
	if small < 2*own {
		t.Errorf("in_flight 1024: %.1f us, the CU's own window: %.1f us; want the small window at least twice as slow", small*1e6, own*1e6)
	}
}
