package run

import (
	"fmt"

	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"
)

// WithTasks records every run's work with Akita's task tracing (the
// tracer hooked to the node's parts, node.TraceTasks) into Result.Tasks:
// for akisim -daisen. Runs follow one another on one time axis, each
// starting when the one before ended, and a task's ID names its run.
func WithTasks() Option { return func(o *execOptions) { o.tasks = true } }

// recorder is the tracer of one run's node (a tracing.Tracer). It keeps
// the tasks in the order they start, each at the times its component
// gave (fabric.TaskTimes), or else at the engine's time.
type recorder struct {
	clock sim.TimeTeller
	kinds map[string]bool // the kinds kept; nil: all
	tasks []tracing.Task
	open  map[string]int // tasks started and not ended: their index in tasks
}

func newRecorder(clock sim.TimeTeller, kinds ...string) *recorder {
	r := &recorder{clock: clock, open: map[string]int{}}
	if len(kinds) > 0 {
		r.kinds = map[string]bool{}
		for _, k := range kinds {
			r.kinds[k] = true
		}
	}
	return r
}

// StartTask keeps a task that started.
func (r *recorder) StartTask(t tracing.Task) {
	if r.kinds != nil && !r.kinds[t.Kind] {
		return
	}
	t.StartTime = r.at(t.Detail)
	r.open[t.ID] = len(r.tasks)
	r.tasks = append(r.tasks, t)
}

// StepTask ignores steps: akisim reports none.
func (r *recorder) StepTask(tracing.Task) {}

// EndTask ends a task kept, never before it started.
func (r *recorder) EndTask(t tracing.Task) {
	i, ok := r.open[t.ID]
	if !ok {
		return
	}
	delete(r.open, t.ID)
	r.tasks[i].EndTime = max(r.tasks[i].StartTime, r.at(t.Detail))
}

// at is the time a task's detail gives, else the engine's.
func (r *recorder) at(detail any) sim.VTimeInSec {
	if d, ok := detail.(fabric.TaskTimes); ok {
		return d.At
	}
	return r.clock.CurrentTime()
}

// finish ends the tasks still open at the engine's time, and returns the
// tasks of run i, named for it.
func (r *recorder) finish(i int) []tracing.Task {
	for _, k := range r.open {
		r.tasks[k].EndTime = max(r.tasks[k].StartTime, r.clock.CurrentTime())
	}
	r.open = nil
	prefix := fmt.Sprintf("run[%d].", i)
	out := r.tasks
	r.tasks = nil
	for k := range out {
		t := &out[k]
		t.ID = prefix + t.ID
		if t.ParentID != "" {
			t.ParentID = prefix + t.ParentID
		}
	}
	return out
}

// shift moves a run's tasks to offset on the trace's time axis, where the
// runs before it ended: runs made side by side follow one another there.
func shift(tasks []tracing.Task, offset float64) []tracing.Task {
	for k := range tasks {
		tasks[k].StartTime += sim.VTimeInSec(offset)
		tasks[k].EndTime += sim.VTimeInSec(offset)
	}
	return tasks
}
