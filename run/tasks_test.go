package run

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/node"
	"github.com/akisim/akisim/trace"
	"github.com/akisim/akisim/workloads"
	"github.com/sarchlab/akita/v3/tracing"
)

// tasksTrace has a host-to-device copy, a peer copy from GCD 0 to GCD 1,
// a kernel named scale on GCD 1 and a copy back to the host.
const tasksTrace = `{"op":"host_malloc","buf":"h","numa":3,"bytes":4194304}
{"op":"malloc","buf":"d0","gcd":0,"bytes":4194304}
{"op":"malloc","buf":"d1","gcd":1,"bytes":4194304}
{"op":"memcpy","src":"h","dst":"d0","bytes":4194304}
{"op":"memcpy_peer","src":"d0","dst":"d1","bytes":4194304}
{"op":"kernel","name":"scale","gcd":1,"stream":1,"grid":16384,"workgroup":256,"access":[{"buf":"d1","mode":"read","bytes":4194304},{"buf":"d1","mode":"write","bytes":4194304}]}
{"op":"memcpy_async","src":"d1","dst":"h","bytes":4194304,"stream":1}
{"op":"device_sync"}
`

// tracedRuns runs tasksTrace twice with opts, and returns the result and
// each run's ops and end time.
func tracedRuns(t *testing.T, opts ...Option) (*Result, [][]hip.OpResult, []float64) {
	t.Helper()
	ops, err := trace.Parse(strings.NewReader(tasksTrace), "t.jsonl")
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
	res, err := Execute(frontier(t), []job.Run{workloads.TraceRun("t.jsonl", ops), workloads.TraceRun("t.jsonl", ops)}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return res, outs, ends
}

// daisenTasks writes tasks as Daisen's CSV and reads them back with
// Daisen's own reader.
func daisenTasks(t *testing.T, tasks []tracing.Task) []tracing.Task {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.csv")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteDaisenCSV(f, tasks); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return tracing.NewCSVTraceReader(path).ListTasks(tracing.TaskQuery{})
}

// A run recorded with Akita's task tracing, written as Daisen's CSV and
// read back with Daisen's own reader, has one top-level task per copy or
// kernel of the run, on the engine or CUs that ran it, from its start to
// its end. Two runs lie one after the other on the trace's time axis.
func TestTasksAreTheRunsCopiesAndKernels(t *testing.T) {
	res, outs, ends := tracedRuns(t, WithTasks())
	tasks := daisenTasks(t, res.Tasks)
	var top []tracing.Task
	for _, tk := range tasks {
		if tk.ParentID == "" && (tk.Kind == "copy" || tk.Kind == "kernel") {
			top = append(top, tk)
		}
	}
	want, offset := 0, 0.0
	for r, out := range outs {
		for _, o := range out {
			if o.Engine == "" {
				continue
			}
			want++
			found := 0
			for _, tk := range top {
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
	if want != 8 || len(top) != want {
		t.Errorf("%d top-level copies and kernels for %d ops on engines, want 8 of each (4 a run)", len(top), want)
	}
	kinds := map[string]int{}
	for _, tk := range top {
		kinds[tk.Kind+" "+tk.What]++
	}
	if kinds["kernel scale"] != 2 || kinds["copy copy 4194304 B"] != 6 {
		t.Errorf("top-level tasks %v, want 6 copies of 4194304 B and 2 kernels named scale", kinds)
	}
}

// Every task below a copy or a kernel names a parent of its run that
// holds it in time, and sits where its kind belongs: a kernel's
// workgroups and their steps on one CU each, transfers on a link
// direction, accesses at a memory. The peer copy's 4 MiB cross the
// bundle between GCDs 0 and 1 from GCD 0 to GCD 1, and the kernel's steps
// reach GCD 1's HBM.
func TestTasksFormAHierarchy(t *testing.T) {
	res, _, _ := tracedRuns(t, WithTasks())
	byID := map[string]tracing.Task{}
	for _, tk := range res.Tasks {
		if _, dup := byID[tk.ID]; dup {
			t.Fatalf("task ID %s twice", tk.ID)
		}
		byID[tk.ID] = tk
	}
	parents := map[string][]string{
		"workgroup": {"kernel"}, "step": {"workgroup"},
		"transfer": {"copy", "step"}, "access": {"copy", "step", ""},
	}
	where := map[string]*regexp.Regexp{
		"kernel": regexp.MustCompile(`^Node\.GCD\[\d\]\.CU$`), "copy": regexp.MustCompile(`^Node\.GCD\[\d\]\.SDMA(Host|XGMI)\[\d\]$`),
		"workgroup": regexp.MustCompile(`^Node\.GCD\[1\]\.CU\[\d+\]$`), "step": regexp.MustCompile(`^Node\.GCD\[1\]\.CU\[\d+\]$`),
		"transfer": regexp.MustCompile(`^Node\.(XGMI\[\d\]\[\d\]|HostLink\[\d\])\.dir\[[01]\]$`),
		"access":   regexp.MustCompile(`^Node\.(GCD\[\d\]\.HBM|Host\.NUMA\[\d\]\.DRAM)$`),
	}
	count := map[string]int{}
	var peerBytes int
	for _, tk := range res.Tasks {
		count[tk.Kind]++
		if re := where[tk.Kind]; re == nil || !re.MatchString(tk.Where) {
			t.Errorf("task %s of kind %q at %q", tk.ID, tk.Kind, tk.Where)
		}
		if tk.EndTime < tk.StartTime {
			t.Errorf("task %s ends before it starts", tk.ID)
		}
		if tk.ParentID == "" {
			if tk.Kind != "copy" && tk.Kind != "kernel" && tk.Kind != "access" { // an L2's write-backs are no task's
				t.Errorf("task %s (%s) has no parent", tk.ID, tk.Kind)
			}
			continue
		}
		p, ok := byID[tk.ParentID]
		if !ok || !strings.HasPrefix(tk.ParentID, tk.ID[:len("run[0].")]) {
			t.Errorf("task %s: parent %q is not a task of its run", tk.ID, tk.ParentID)
			continue
		}
		if !containsKind(parents[tk.Kind], p.Kind) {
			t.Errorf("task %s (%s) under %s (%s)", tk.ID, tk.Kind, p.ID, p.Kind)
		}
		if tk.StartTime < p.StartTime || tk.EndTime > p.EndTime {
			t.Errorf("task %s (%s, %g..%g s) outside its parent %s (%g..%g s)", tk.ID, tk.Kind, tk.StartTime, tk.EndTime, p.ID, p.StartTime, p.EndTime)
		}
		if tk.Kind == "step" && tk.Where != p.Where {
			t.Errorf("step %s at %s, its workgroup at %s", tk.ID, tk.Where, p.Where)
		}
		d := tk.Detail.(fabric.TaskTimes)
		if p.Kind == "copy" && strings.HasPrefix(p.ID, "run[0].Node.GCD[0].SDMAXGMI") && tk.Where == "Node.XGMI[0][1].dir[0]" && strings.HasPrefix(tk.What, "WriteReq") {
			peerBytes += d.Bytes
		}
	}
	if peerBytes != 4194304 {
		t.Errorf("the peer copy wrote %d B over the bundle from GCD 0 to GCD 1, want 4194304", peerBytes)
	}
	for _, k := range []string{"copy", "kernel", "workgroup", "step", "transfer", "access"} {
		if count[k] == 0 {
			t.Errorf("no task of kind %s: %v", k, count)
		}
	}
	if count["workgroup"] != 2*64 { // 64 workgroups of 256 threads, one on each of 64 CUs, per run
		t.Errorf("%d workgroup tasks, want one per CU with a workgroup per run (128)", count["workgroup"])
	}
}

func containsKind(kinds []string, k string) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

// Tracing changes nothing of what a run computes: the rows and the
// statistics are the same with and without it.
func TestTracingLeavesResultsAlone(t *testing.T) {
	plain, _, _ := tracedRuns(t)
	traced, _, _ := tracedRuns(t, WithTasks(), WithTimeline())
	if fmt.Sprint(plain.Rows) != fmt.Sprint(traced.Rows) || plain.Events != traced.Events || plain.Bytes != traced.Bytes {
		t.Errorf("traced rows %v, %d events, %d B; untraced %v, %d, %d", traced.Rows, traced.Events, traced.Bytes, plain.Rows, plain.Events, plain.Bytes)
	}
	a, b := deterministic(plain.Stats), deterministic(traced.Stats)
	if len(a) != 2 || len(a[0]) < 100 || !reflect.DeepEqual(a, b) {
		t.Errorf("statistics of %d runs differ with tracing", len(a))
	}
}
