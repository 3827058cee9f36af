package report

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestTimeline(t *testing.T) {
	var b bytes.Buffer
	err := WriteTimeline(&b, []Span{
		{Run: "r1", Track: "E0", Name: "0->1", Start: 1, Dur: 2, Bytes: 64},
		{Run: "r1", Track: "E1", Name: "k", Start: 2, Dur: 3},
		{Run: "r2", Track: "E0", Name: "x", Start: 0, Dur: 1},
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
		}
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var spans, meta int
	tracks := map[[2]int]bool{}
	for _, e := range doc.TraceEvents {
		switch e.Ph {
		case "X":
			spans++
			tracks[[2]int{e.Pid, e.Tid}] = true
		case "M":
			meta++
		}
	}
	// 3 spans on 3 distinct (process, thread) tracks; 2 process names + 3 thread names
	if spans != 3 || len(tracks) != 3 || meta != 5 {
		t.Errorf("%d spans on %d tracks, %d metadata events", spans, len(tracks), meta)
	}
	if !bytes.Contains(b.Bytes(), []byte(`"name": "0->1"`)) {
		t.Error("span names are escaped")
	}
}
