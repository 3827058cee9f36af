package run

import (
	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"
)

// WithTasks records every run's copies and kernels with Akita's task
// tracer (tracing.DBTracer hooked to the engines and CUs, node.TraceTasks)
// into Result.Tasks: for akisim -daisen. Runs follow one another on one
// time axis, each starting when the one before ended, and a task's ID
// names its run.
func WithTasks() Option { return func(o *execOptions) { o.tasks = true } }

// taskLog is the tracer's backend for one run: it keeps the finished tasks,
// moved to the run's place on the trace's time axis.
type taskLog struct {
	prefix string
	offset sim.VTimeInSec
	tasks  []tracing.Task
}

// Write keeps a finished task.
func (l *taskLog) Write(t tracing.Task) {
	t.ID = l.prefix + t.ID
	t.StartTime += l.offset
	t.EndTime += l.offset
	l.tasks = append(l.tasks, t)
}

// Flush has nothing buffered elsewhere.
func (l *taskLog) Flush() {}
