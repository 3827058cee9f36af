package validate

import (
	"strings"
	"testing"

	"github.com/akisim/akisim/config"
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

// E8's numbers are two-sided claims and its orderings compare with 1; the
// "lower bounds" (bytes and latencies no run can beat) are not points.
func TestE8Claims(t *testing.T) {
	if testing.Short() {
		t.Skip("runs E8's collectives")
	}
	c, err := config.Load("../configs/frontier-node.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	pts, err := e8Points(c)
	if err != nil {
		t.Fatal(err)
	}
	numbers := 0
	for _, p := range pts {
		twoSided := !p.AtMost && !p.AtLeast && p.Tolerance > 0
		order := (p.AtMost || p.AtLeast) && p.Published == 1 && p.Unit == "x"
		switch {
		case strings.Contains(p.Experiment, "lower bound"):
			t.Errorf("%s: a physical bound is an invariant, not a point", p.Name)
		case p.Experiment == "E8 RCCL 2 GCDs" && !twoSided:
			t.Errorf("%s: the seed's 17.4 us is a number: two-sided", p.Name)
		case !twoSided && !order:
			t.Errorf("%s: neither two-sided nor an ordering", p.Name)
		}
		if p.Experiment == "E8 RCCL 2 GCDs" {
			numbers++
			if p.Gap != "" && !strings.Contains(p.Gap, "fixed cost") {
				t.Errorf("%s: its gap does not name RCCL's fixed costs as what is missing", p.Name)
			}
		}
	}
	if numbers != 3 {
		t.Errorf("%d 2-GCD all-to-all points, want AllReduce, ReduceScatter and AllGather", numbers)
	}
}
