// Package invariant checks what must hold after any run, whatever the
// workload (akisim -check): every operation completed; no resource was
// busier than the run or moved more than its peak over it; every link
// delivered what it took in; SDMA engines, NIC DMA engines and compute
// units moved exactly the bytes of the work they ran; the L2 served no
// more than it was given, nor the MALL; every flag a library set or raised was set,
// waited on and seen. A broken invariant is a bug in the model, not bad
// input.
package invariant

import (
	"fmt"
	"strings"
)

// The invariants, by the name a violation reports.
const (
	Completes = "every op completes"
	Busy      = "no resource is busier than the run"
	Peak      = "no resource moves more than its peak times the run"
	Delivers  = "link delivers what it takes in"
	SDMABytes = "SDMA engines copy the bytes of their copies"
	NICBytes  = "NIC DMA engines copy the bytes of their commands"
	CUBytes   = "compute units move the bytes their kernels name"
	L2Hits    = "L2 hits do not exceed what was asked or filled"
	MALLFills = "the MALL never holds or serves more than it was filled with"
	FlagsSet  = "every host flag set is waited on"
	FlagsSeen = "every flag wait is satisfied"
	Stores    = "every GPU flag store lands"
)

// Violation is one broken invariant at one component.
type Violation struct {
	Invariant string // one of the constants above
	Component string // the component's name (Node.GCD[0].HBM, Network.Cable[0][1], a flag)
	Detail    string // what was found
}

func (v Violation) String() string {
	return fmt.Sprintf("invariant %q broken at %s: %s", v.Invariant, v.Component, v.Detail)
}

// Error is a run whose invariants broke: an internal error (exit 3).
type Error struct {
	Run        string
	Violations []Violation
}

// Error is one line per violation.
func (e *Error) Error() string {
	lines := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		lines[i] = fmt.Sprintf("%s (run %s)", v, e.Run)
	}
	return strings.Join(lines, "\n")
}
