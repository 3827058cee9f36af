package validate

import (
	"strings"
	"testing"
)

// A miss is a gap only inside its band and with its mechanism; leaving the
// band either way fails, and so does a listed gap that now passes.
func TestStatus(t *testing.T) {
	band := &Band{Low: 3, High: 4, Source: "s"}
	for _, c := range []struct {
		p    Point
		want Result
		why  string
	}{
		{Point{Simulated: 10.5, Published: 10, Tolerance: 0.1}, OK, ""},
		{Point{Simulated: 20, Published: 10, Tolerance: 0.1}, Fail, "+100.0% outside tolerance"},
		{Point{Simulated: 20, Published: 10, Tolerance: 0.1, Gap: "m"}, Fail, "has no band"},
		{Point{Simulated: 45, Published: 10, Tolerance: 0.1, Band: band}, Fail, "names no missing mechanism"},
		{Point{Simulated: 45, Published: 10, Tolerance: 0.1, Gap: "m", Band: band}, Gap, "+350.0% in band +300% .. +400%: m (s)"},
		{Point{Simulated: 55, Published: 10, Tolerance: 0.1, Gap: "m", Band: band}, Fail, "+450.0% left its known gap's band"},
		{Point{Simulated: 30, Published: 10, Tolerance: 0.1, Gap: "m", Band: band}, Fail, "+200.0% left its known gap's band"},
		{Point{Simulated: 10, Published: 10, Tolerance: 0.1, Gap: "m", Band: band}, Fail, "within tolerance, is listed as a known gap"},
	} {
		got, why := c.p.Status()
		if got != c.want || !strings.Contains(why, c.why) {
			t.Errorf("%+v: %s %q, want %s with %q", c.p, got, why, c.want, c.why)
		}
	}
}
