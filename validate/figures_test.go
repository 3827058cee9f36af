package validate

import "testing"

// A point's band is its tolerance around the published value, one-sided
// to the axis' end; a known gap's band is scaled the same way.
func TestCheckBands(t *testing.T) {
	c := check(Point{Name: "a", Published: 10, Simulated: 13, Tolerance: 0.1, Gap: "x",
		Band: &Band{Low: 0.2, High: 0.4}})
	if c.Lo != 9 || c.Hi != 11 || c.GapLo != 12 || c.GapHi != 14 || c.Within || !c.KnownGap {
		t.Errorf("two-sided with a gap: %+v", c)
	}
	if c := check(Point{Published: 1, Simulated: 0.5, Tolerance: 0, AtMost: true}); !(c.Lo < -1e300) || c.Hi != 1 || !c.Within {
		t.Errorf("at most: %+v", c)
	}
	fams := families([]Point{{Experiment: "E", Unit: "us"}, {Experiment: "F", Unit: "us"}, {Experiment: "E", Unit: "GB/s"}, {Experiment: "E", Unit: "us"}})
	if len(fams) != 3 || len(fams[0].points) != 2 || fams[2].unit != "GB/s" {
		t.Errorf("families %+v", fams)
	}
}
