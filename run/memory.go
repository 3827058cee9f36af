package run

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"

	"github.com/akisim/akisim/internal/limit"
	"github.com/akisim/akisim/job"
	"golang.org/x/sync/semaphore"
)

// BytesPerOp is the heap a run holds per operation at once: the op, the
// command a library lowers it to, and its results in the HIP runtime and
// in the replay (a run that does not stream holds all four; a streamed
// one less). The node's own memory is checked when it is built.
const BytesPerOp = int64(unsafe.Sizeof(trace.Op{}) + unsafe.Sizeof(ir.Command{}) + unsafe.Sizeof(hip.OpResult{}) + unsafe.Sizeof(job.OpResult{}))

// runMemory is the memory run needs at most for its operations (0:
// unknown).
func runMemory(r job.Run) int64 { return limit.Product(r.OpCount(), BytesPerOp) }

// checkMemory refuses, before any run starts, a run whose operations do
// not fit in the memory the process may take (limit.Error: exit 4).
func checkMemory(runs []job.Run) error {
	for _, r := range runs {
		if err := limit.Memory(fmt.Sprintf("run %s (%d operations)", r.Name, r.OpCount()), runMemory(r)); err != nil {
			return err
		}
	}
	return nil
}

// runBudget lets runs side by side take, together, at most the memory
// the process may take: a run reserves its need before it builds its
// operations and gives it back when it ends. A run that needs more than
// the whole budget (checkMemory let it through: the budget is unknown or
// AKISIM_MEMORY_BYTES raised it since) takes the whole and runs alone.
// Waiting moves no simulated time.
type runBudget struct {
	sem  *semaphore.Weighted // nil: no limit known
	size int64
}

func newRunBudget() *runBudget {
	a := limit.Available()
	if a <= 0 {
		return &runBudget{}
	}
	return &runBudget{sem: semaphore.NewWeighted(a), size: a}
}

// take reserves run's need, waiting for the runs under way to give back
// theirs; the returned function gives it back.
func (b *runBudget) take(r job.Run) func() {
	n := min(runMemory(r), b.size)
	if b.sem == nil || n <= 0 {
		return func() {}
	}
	b.sem.Acquire(context.Background(), n) // never fails: its context is never done
	return func() { b.sem.Release(n) }
}
