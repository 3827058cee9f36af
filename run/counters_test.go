package run

import (
	"math"
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"
)

// A counter track is the rate of the bytes its link direction or memory
// moved, bin by bin: two overlapping transfers add up where they overlap,
// the integral is their bytes, a memory's reads and writes are apart, and
// a task that moves no data adds nothing.
func TestCountersAreRates(t *testing.T) {
	const end = 4e-6 // bins of 2 ns
	task := func(kind, what, where string, start, stop float64, bytes int) tracing.Task {
		return tracing.Task{Kind: kind, What: what, Where: where, StartTime: vt(start), EndTime: vt(stop), Detail: fabric.TaskTimes{Bytes: bytes}}
	}
	cs := counters("r", []tracing.Task{
		task(kindTransfer, "WriteReq 1000 B", "L.dir[0]", 0, 1e-6, 1000),
		task(kindTransfer, "WriteReq 2000 B", "L.dir[0]", 0.5e-6, 1.5e-6, 2000),
		task(kindTransfer, "ReadReq 64 B", "L.dir[0]", 2e-6, 2.1e-6, 0),
		task(kindAccess, "read 4000 B", "M", 1e-6, 3e-6, 4000),
		task(kindAccess, "write 8000 B", "M", 2e-6, 3e-6, 8000),
		task("step", "step 64 B", "CU[0]", 0, 1e-6, 64),
	}, end)
	integral := map[string]float64{}
	at := func(track, series string, us float64) float64 { // the value in force at time us
		v := math.NaN()
		for _, c := range cs {
			if c.Track == track && c.Time <= us {
				v = c.Values[series]
			}
		}
		return v
	}
	for i, c := range cs {
		if c.Run != "r" {
			t.Errorf("counter of run %q", c.Run)
		}
		next := end * 1e6
		for _, d := range cs[i+1:] {
			if d.Track == c.Track {
				next = d.Time
				break
			}
		}
		for s, v := range c.Values {
			integral[c.Track+" "+s] += v * 1e9 * (next - c.Time) * 1e-6
		}
	}
	want := map[string]float64{"L.dir[0] GB/s": 3000, "M read GB/s": 4000, "M write GB/s": 8000}
	if len(integral) != len(want) {
		t.Errorf("series %v, want %v", integral, want)
	}
	for k, w := range want {
		if math.Abs(integral[k]-w) > 1e-9*w {
			t.Errorf("%s moves %g B, want %g", k, integral[k], w)
		}
	}
	for _, c := range []struct {
		track, series string
		us, gbps      float64
	}{
		{"L.dir[0]", "GB/s", 0.2, 1}, {"L.dir[0]", "GB/s", 0.7, 3}, {"L.dir[0]", "GB/s", 1.2, 2}, {"L.dir[0]", "GB/s", 2.05, 0},
		{"M", "read GB/s", 1.5, 2}, {"M", "write GB/s", 1.5, 0}, {"M", "write GB/s", 2.5, 8}, {"M", "read GB/s", 3.5, 0},
	} {
		if v := at(c.track, c.series, c.us); math.Abs(v-c.gbps) > 1e-9 {
			t.Errorf("%s %s at %g us: %g, want %g", c.track, c.series, c.us, v, c.gbps)
		}
	}
	if n := len(cs); n > 10 {
		t.Errorf("%d counter values: a value is written only where it changes", n)
	}
}

func vt(s float64) sim.VTimeInSec { return sim.VTimeInSec(s) }
