package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

func TestTimeline(t *testing.T) {
	var b bytes.Buffer
	err := WriteTimeline(&b, []Span{
		{Run: "r1", Track: "E0", Name: "0->1", Start: 1, Dur: 2, Bytes: 64},
		{Run: "r1", Track: "E1", Name: "k", Start: 2, Dur: 3},
		{Run: "r2", Track: "E0", Name: "x", Start: 0, Dur: 1},
	}, []Counter{
		{Run: "r2", Track: "L.dir[0]", Time: 0, Values: map[string]float64{"GB/s": 50}},
		{Run: "r2", Track: "L.dir[0]", Time: 1, Values: map[string]float64{"GB/s": 0}},
		{Run: "r3", Track: "M", Time: 0.5, Values: map[string]float64{"read GB/s": 1, "write GB/s": 2}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents []struct {
			Name     string
			Ph       string
			Ts, Dur  float64
			Pid, Tid int
			Args     map[string]any
		}
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var spans, meta int
	tracks := map[[2]int]bool{}
	counters := map[string][]float64{} // by process and track: the times
	for _, e := range doc.TraceEvents {
		switch e.Ph {
		case "X":
			spans++
			tracks[[2]int{e.Pid, e.Tid}] = true
		case "M":
			meta++
		case "C":
			key := fmt.Sprintf("%d %s %d", e.Pid, e.Name, len(e.Args))
			counters[key] = append(counters[key], e.Ts)
		}
	}
	// r3 has counters only: a process of its own; r2's counters are in r2's
	want := map[string][]float64{"2 L.dir[0] 1": {0, 1}, "3 M 2": {0.5}}
	if fmt.Sprint(counters) != fmt.Sprint(want) {
		t.Errorf("counter events (process, track, series: times) %v, want %v", counters, want)
	}
	// 3 spans on 3 distinct (process, thread) tracks; 3 process names + 3 thread names
	if spans != 3 || len(tracks) != 3 || meta != 6 {
		t.Errorf("%d spans on %d tracks, %d metadata events", spans, len(tracks), meta)
	}
	if !bytes.Contains(b.Bytes(), []byte(`"name": "0->1"`)) {
		t.Error("span names are escaped")
	}
}
