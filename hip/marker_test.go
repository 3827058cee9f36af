package hip_test

import (
	"testing"

	"github.com/akisim/akisim/trace"
)

// An event recorded between two kernels of a stream is a marker in the
// GCD's queue: the second kernel is queued behind it and starts as the
// first ends, without the wake-up of an idle queue; the event reads the
// first kernel's end (its release) plus the timestamp.
func TestEventBetweenKernelsKeepsQueueBusy(t *testing.T) {
	k := func() trace.Op { return kernel(0, 1, 4096, []string{"a"}, nil) }
	ops := []trace.Op{device("a", 0, 4096), k(), {Op: trace.EventRecord, Event: "e", Stream: 1}, k(), {Op: trace.StreamSync, Stream: 1}}
	res, n := run(t, nil, ops)
	first, mark, second := res[1], res[2], res[3]
	c := n.Config
	wake := (c.GCD.CPWakeNs + c.GCD.PacketFetchNs) * 1e-9
	// the first kernel found the GCD idle and paid the wake-up; the second,
	// queued behind the marker, does not
	if gap, dur := float64(second.End-first.End), float64(first.End-first.Start); gap > dur-wake/2 {
		t.Errorf("second kernel ends %.3f us after the first, which took %.3f us with the wake-up (%.3f us): want the second without it",
			gap*1e6, dur*1e6, wake*1e6)
	}
	if mark.Start < first.End || mark.Start > second.End {
		t.Errorf("event at %.3f us, want between the first kernel's end %.3f us and the second's end %.3f us",
			float64(mark.Start)*1e6, float64(first.End)*1e6, float64(second.End)*1e6)
	}
}
