package run

import (
	"math"
	"strings"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/report"
	"github.com/sarchlab/akita/v3/tracing"
)

// The kinds of task a timeline's counters are made of: a transaction on a
// link direction, a read or write at a memory.
const (
	kindTransfer = "transfer"
	kindAccess   = "access"
)

// counterBins is how many values a counter track holds per run at most:
// the run's time is cut into as many equal bins.
const counterBins = 2000

// counters are the data rates of a run's link directions and memories,
// for the timeline's counter tracks. Each transfer or access moves its
// bytes evenly over its time; a track's value in a bin is the bytes moved
// in it over the bin's length, in GB/s, so a track's integral is the bytes
// the part moved. A memory has a read and a write series. A value is
// written where it changes; tracks are in the order their first task
// started, times in microseconds. end is the run's end.
func counters(run string, tasks []tracing.Task, end float64) []report.Counter {
	type track struct {
		where  string
		series []string
		bytes  [][]float64 // per series, per bin
	}
	if end <= 0 {
		return nil
	}
	width := end / counterBins
	var tracks []*track
	at := map[string]int{}
	for _, t := range tasks {
		d, _ := t.Detail.(fabric.TaskTimes)
		if d.Bytes == 0 || t.EndTime <= t.StartTime || t.Kind != kindTransfer && t.Kind != kindAccess {
			continue
		}
		i, ok := at[t.Where]
		if !ok {
			tr := &track{where: t.Where, series: []string{"GB/s"}}
			if t.Kind == kindAccess {
				tr.series = []string{"read GB/s", "write GB/s"}
			}
			for range tr.series {
				tr.bytes = append(tr.bytes, make([]float64, counterBins))
			}
			i = len(tracks)
			at[t.Where] = i
			tracks = append(tracks, tr)
		}
		s := 0
		if t.Kind == kindAccess && strings.HasPrefix(t.What, "write") {
			s = 1
		}
		spread(tracks[i].bytes[s], float64(t.StartTime), float64(t.EndTime), float64(d.Bytes), width)
	}
	var out []report.Counter
	for _, tr := range tracks {
		var last map[string]float64
		for b := 0; b <= counterBins; b++ {
			values := make(map[string]float64, len(tr.series))
			for s, name := range tr.series {
				if b < counterBins {
					values[name] = tr.bytes[s][b] / width / 1e9
				} else {
					values[name] = 0 // the run's end
				}
			}
			if same(values, last) {
				continue
			}
			last = values
			out = append(out, report.Counter{Run: run, Track: tr.where, Time: float64(b) * width * 1e6, Values: values})
		}
	}
	return out
}

// spread adds bytes, moved evenly from start to end, to the bins of width
// width they fall in (the last bin takes what falls past it).
func spread(bins []float64, start, end, bytes, width float64) {
	rate := bytes / (end - start)
	n := len(bins)
	for b := min(int(start/width), n-1); b < n; b++ {
		lo, hi := float64(b)*width, float64(b+1)*width
		switch {
		case b == n-1:
			bins[b] += rate * (end - max(start, lo))
		case start <= lo && end >= hi: // the whole bin: the same in every such bin
			bins[b] += rate * width
		default:
			bins[b] += rate * (min(end, hi) - max(start, lo))
		}
		if end <= float64(b+1)*width {
			break
		}
	}
}

// same says whether two counter values are equal, but for rounding.
func same(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || math.Abs(w-v) > 1e-12*max(math.Abs(v), math.Abs(w)) {
			return false
		}
	}
	return true
}
