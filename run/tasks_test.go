package run

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/node"
	"github.com/akisim/akisim/trace"
	"github.com/akisim/akisim/workloads"
	"github.com/sarchlab/akita/v3/tracing"
)

// A run recorded with Akita's task tracer, written as Daisen's CSV and read
// back with Daisen's own reader, holds exactly the run's copies and
// kernels: one task per copy or kernel, on the engine or CUs that ran it,
// from its start to its end. Two runs lie one after the other on the
// trace's time axis.
func TestTasksAreTheRunsCopiesAndKernels(t *testing.T) {
	const jsonl = `{"op":"host_malloc","buf":"h","numa":3,"bytes":4194304}
{"op":"malloc","buf":"d0","gcd":0,"bytes":4194304}
{"op":"malloc","buf":"d1","gcd":1,"bytes":4194304}
{"op":"memcpy","src":"h","dst":"d0","bytes":4194304}
{"op":"memcpy_peer","src":"d0","dst":"d1","bytes":4194304}
{"op":"kernel","name":"scale","gcd":1,"stream":1,"grid":16384,"workgroup":256,"access":[{"buf":"d1","mode":"read","bytes":4194304},{"buf":"d1","mode":"write","bytes":4194304}]}
{"op":"memcpy_async","src":"d1","dst":"h","bytes":4194304,"stream":1}
{"op":"device_sync"}
`
	ops, err := trace.Parse(strings.NewReader(jsonl), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var outs [][]hip.OpResult
	var ends []float64
	AfterRun = func(n *node.Node, _ job.Run, out []hip.OpResult) {
		outs = append(outs, out)
		ends = append(ends, float64(n.Engine.CurrentTime()))
	}
	defer func() { AfterRun = nil }()
	c := frontier(t)
	runs := []job.Run{workloads.TraceRun("t.jsonl", ops), workloads.TraceRun("t.jsonl", ops)}
	if err := job.Check(c, runs); err != nil {
		t.Fatal(err)
	}
	res, err := Execute(c, runs, WithTasks())
	if err != nil {
		t.Fatal(err)
	}

	path := filepath.Join(t.TempDir(), "run.csv")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteDaisenCSV(f, res.Tasks); err != nil {
		t.Fatal(err)
	}
	f.Close()
	tasks := tracing.NewCSVTraceReader(path).ListTasks(tracing.TaskQuery{})

	want, offset := 0, 0.0
	for r, out := range outs {
		for _, o := range out {
			if o.Engine == "" {
				continue
			}
			want++
			found := 0
			for _, tk := range tasks {
				if strings.HasPrefix(tk.ID, fmt.Sprintf("run[%d].", r)) && tk.Where == o.Engine &&
					float64(tk.StartTime) == offset+float64(o.Start) && float64(tk.EndTime) == offset+float64(o.End) {
					found++
				}
			}
			if found != 1 {
				t.Errorf("run %d, line %d (%s on %s, %g..%g s): %d tasks match, want 1", r, o.Op.Line, o.Op.Op, o.Engine, o.Start, o.End, found)
			}
		}
		offset += ends[r]
	}
	if want != 8 || len(tasks) != want {
		t.Errorf("%d tasks for %d copies and kernels, want 8 of each (4 a run)", len(tasks), want)
	}
	kinds := map[string]int{}
	for _, tk := range tasks {
		kinds[tk.Kind]++
	}
	if kinds["copy"] != 6 || kinds["kernel"] != 2 {
		t.Errorf("task kinds %v, want 6 copies and 2 kernels", kinds)
	}
}
