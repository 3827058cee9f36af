package rccl

import (
	"math"
	"testing"
)

// On the Frontier node every one of the four rings crosses single links
// that no other ring shares in its direction, and each ring runs on four
// channels: 16 channels at 50/4 GB/s, 200 GB/s in all, of which the wire's
// data share arrives. Slower links lower it in proportion.
func TestBusBound(t *testing.T) {
	f := load(t, "frontier-node.toml")
	chans, _ := Channels(f.GPU, mustRings(t, f, all(8)), Options{})
	if got := BusBound(f, chans, 1); math.Abs(got-200) > 1e-9 {
		t.Errorf("Frontier bound %g GB/s, want 200", got)
	}
	if got := BusBound(f, chans, 64.0/85); math.Abs(got-200*64.0/85) > 1e-9 {
		t.Errorf("Frontier bound with 64 B in 85 on the wire %g GB/s, want %g", got, 200*64.0/85)
	}
	f.LaneGBps = 25
	if got := BusBound(f, chans, 1); math.Abs(got-100) > 1e-9 {
		t.Errorf("bound with 25 GB/s links %g GB/s, want 100", got)
	}
}
