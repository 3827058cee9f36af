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

// Counter is a counter track's values from Time on, until its next: a
// link direction's data rate, a memory's read and write rates. Time in
// microseconds.
type Counter struct {
	Run    string
	Track  string // the link direction or memory
	Time   float64
	Values map[string]float64 // by series ("GB/s", "read GB/s")
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

// WriteTimeline writes spans and counters as Chrome trace-event JSON
// (Perfetto, chrome://tracing): one process per run, one thread per
// track of spans, and a counter track per link direction or memory and
// series.
func WriteTimeline(w io.Writer, spans []Span, counters []Counter) error {
	var evs []traceEvent
	pids, tids := map[string]int{}, map[[2]string]int{}
	pidOf := func(run string) int {
		pid, ok := pids[run]
		if !ok {
			pid = len(pids) + 1
			pids[run] = pid
			evs = append(evs, traceEvent{Name: "process_name", Ph: "M", Pid: pid, Args: map[string]any{"name": run}})
		}
		return pid
	}
	for _, s := range spans {
		pid := pidOf(s.Run)
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
	for _, c := range counters {
		args := make(map[string]any, len(c.Values))
		for k, v := range c.Values {
			args[k] = v
		}
		evs = append(evs, traceEvent{Name: c.Track, Cat: "akisim", Ph: "C", Ts: c.Time, Pid: pidOf(c.Run), Args: args})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	return enc.Encode(map[string]any{"traceEvents": evs, "displayTimeUnit": "ns"})
}
