package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/tracing"
)

// akisim -daisen FILE writes the run's copies as Daisen reads a trace
// (daisen -csv FILE, through Akita's CSV trace reader), beside the outdir
// or as one of its files: the five peer copies of the trace, each a task
// on the SDMA engine that ran it.
func TestDaisenTrace(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	for _, file := range []string{filepath.Join(dir, "run.csv"), filepath.Join(out, "run.csv")} {
		code, _, errs := akisim(t, "-trace", "traces/peer-0-to-1.jsonl", "-daisen", file, "-outdir", out, "-force", "-quiet")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", file, code, errs)
		}
		r := tracing.NewCSVTraceReader(file)
		tasks := r.ListTasks(tracing.TaskQuery{Kind: "copy"})
		if len(tasks) != 5 {
			t.Errorf("%s: %d copy tasks, want the trace's 5 peer copies", file, len(tasks))
		}
		for _, tk := range tasks {
			if !strings.Contains(tk.Where, "GCD[0].SDMAXGMI") || tk.EndTime <= tk.StartTime {
				t.Errorf("%s: task %+v: want a copy on one of GCD 0's xGMI SDMA engines that takes time", file, tk)
			}
		}
		if cs := r.ListComponents(); len(cs) == 0 || !slices.ContainsFunc(cs, func(c string) bool { return strings.Contains(c, "SDMAXGMI") }) {
			t.Errorf("%s: components %v, want the SDMA engines", file, cs)
		}
	}
}
