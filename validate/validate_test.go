package validate

import (
	"strings"
	"testing"
)

func TestSeedReference(t *testing.T) {
	ref := SeedReference()
	if len(ref) != 128 {
		t.Fatalf("%d values, want 2 x 64", len(ref))
	}
	if v := ref[[3]string{"latency", "1", "7"}]; v != 18.23 {
		t.Errorf("latency 1->7 = %v, want 18.23", v)
	}
	if v := ref[[3]string{"bandwidth", "0", "2"}]; v != 37.61 {
		t.Errorf("bandwidth 0->2 = %v, want 37.61", v)
	}
}

func TestParseReferenceErrors(t *testing.T) {
	for _, in := range []string{"bandwidth,0,1,50\n", "bandwidth,0,1,fast,GB/s\n"} {
		if _, err := ParseReference("r.csv", strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), "r.csv:1") {
			t.Errorf("%q: error %v, want r.csv:1", in, err)
		}
	}
}

func TestPointTolerance(t *testing.T) {
	in := Point{Simulated: 10.9, Published: 10, Tolerance: 0.1}
	out := Point{Simulated: 8.9, Published: 10, Tolerance: 0.1}
	if !in.Pass() || out.Pass() {
		t.Errorf("9%% over passes: %v; 11%% under passes: %v", in.Pass(), out.Pass())
	}
	if e := out.Error(); e > -0.109 || e < -0.111 {
		t.Errorf("error %v, want -0.11", e)
	}
}

// An AtMost point passes anywhere below its bound and fails above it; a
// two-sided one fails on either side.
func TestAtMostPoint(t *testing.T) {
	for _, c := range []struct {
		p    Point
		pass bool
	}{
		{Point{Simulated: 37.6, Published: 50, AtMost: true}, true},
		{Point{Simulated: 50.1, Published: 50, AtMost: true}, false},
		{Point{Simulated: 50.1, Published: 50, Tolerance: 0.01, AtMost: true}, true},
		{Point{Simulated: 37.6, Published: 50, Tolerance: 0.10}, false},
		{Point{Simulated: 47.6, Published: 50, Tolerance: 0.10}, true},
	} {
		if got := c.p.Pass(); got != c.pass {
			t.Errorf("%+v: pass %v, want %v", c.p, got, c.pass)
		}
	}
}
