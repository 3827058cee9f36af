package report

import (
	"encoding/json"
	"io"
)

// Span is one piece of work on a timeline: a copy on an SDMA engine, a
// kernel on a GCD's compute units. Times in microseconds.
type Span struct {
	Run   string // the benchmark run or trace
	Track string // the engine or CU array that did it
	Name  string
	Start float64
	Dur   float64
	Bytes int64
}

type traceEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	Ts   float64        `json:"ts"`
	Dur  float64        `json:"dur,omitempty"`
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	Args map[string]any `json:"args,omitempty"`
}

// WriteTimeline writes spans as Chrome trace-event JSON (Perfetto,
// chrome://tracing): one process per run, one thread per track.
func WriteTimeline(w io.Writer, spans []Span) error {
	var evs []traceEvent
	pids, tids := map[string]int{}, map[[2]string]int{}
	for _, s := range spans {
		pid, ok := pids[s.Run]
		if !ok {
			pid = len(pids) + 1
			pids[s.Run] = pid
			evs = append(evs, traceEvent{Name: "process_name", Ph: "M", Pid: pid, Args: map[string]any{"name": s.Run}})
		}
		key := [2]string{s.Run, s.Track}
		tid, ok := tids[key]
		if !ok {
			tid = len(tids) + 1
			tids[key] = tid
			evs = append(evs, traceEvent{Name: "thread_name", Ph: "M", Pid: pid, Tid: tid, Args: map[string]any{"name": s.Track}})
		}
		evs = append(evs, traceEvent{Name: s.Name, Cat: "akisim", Ph: "X", Ts: s.Start, Dur: s.Dur, Pid: pid, Tid: tid,
			Args: map[string]any{"bytes": s.Bytes}})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	return enc.Encode(map[string]any{"traceEvents": evs, "displayTimeUnit": "ns"})
}
