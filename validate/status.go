package validate

import "fmt"

// Band is the range a known gap's relative error is expected in, and
// where its missing mechanism is worked out. A point that leaves its band
// in either direction fails: a regression and an improvement both show.
type Band struct {
	Low, High float64 // relative error, as Point.Error
	Source    string  // where the missing mechanism is described
}

// String is the band as validate prints it: "+300% .. +400%".
func (b Band) String() string { return fmt.Sprintf("%+.0f%% .. %+.0f%%", 100*b.Low, 100*b.High) }

// Result is a point's outcome.
type Result string

const (
	OK   Result = "ok"
	Gap  Result = "GAP"
	Fail Result = "FAIL"
)

// Status is the point's result from its numbers alone, and why it failed
// or is a gap. A miss is a known gap only while the point names its
// missing mechanism (Gap) and its error lies inside its Band.
func (p Point) Status() (Result, string) {
	e := 100 * p.Error()
	switch {
	case p.Pass() && p.Band != nil:
		return Fail, fmt.Sprintf("%+.1f%%, within tolerance, is listed as a known gap (band %s): remove its band", e, p.Band)
	case p.Pass():
		return OK, ""
	case p.Band == nil && p.Gap != "":
		return Fail, fmt.Sprintf("%+.1f%% outside tolerance; its gap has no band", e)
	case p.Band == nil:
		return Fail, fmt.Sprintf("%+.1f%% outside tolerance", e)
	case p.Gap == "":
		return Fail, fmt.Sprintf("%+.1f%% outside tolerance; its band %s names no missing mechanism", e, p.Band)
	case p.Error() < p.Band.Low || p.Error() > p.Band.High:
		return Fail, fmt.Sprintf("%+.1f%% left its known gap's band %s", e, p.Band)
	}
	return Gap, fmt.Sprintf("%+.1f%% in band %s: %s (%s)", e, p.Band, p.Gap, p.Band.Source)
}
