package invariant

import (
	"fmt"
	"strings"

	"github.com/akisim/akisim/components/gcd"
	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"
)

// Tally is what a run's operations asked of the node, gathered op by op
// as they finish (a streamed run keeps no list of them).
type Tally struct {
	line       int64             // bytes the memory moves per access (gcd.line_bytes)
	unfinished []string          // the first ops with GPU work that never ended
	missed     int               // how many
	sdma       uint64            // bytes of the copies SDMA engines ran
	nic        map[int]uint64    // bytes of each NIC's commands, by global NIC id
	cu         map[string]uint64 // bytes the kernels and blits name, by the compute units that ran them
	hostSets   map[string]bool   // host flags the ops set, and those they wait for
	hostWaits  map[string]bool
	traced     map[string]bool // flags the run's own trace names (Trace)
	gpuStores  map[string]int  // stores the ops make to each GPU flag
	gpuWaits   map[string]int  // the highest count a wait asks of each
}

// NewTally starts a run's tally; line is the GCDs' line size in bytes.
func NewTally(line int64) *Tally {
	return &Tally{line: line, cu: map[string]uint64{}, nic: map[int]uint64{}, hostSets: map[string]bool{}, hostWaits: map[string]bool{}, traced: map[string]bool{},
		gpuStores: map[string]int{}, gpuWaits: map[string]int{}}
}

// Ops tallies every op of a run.
func (t *Tally) Ops(out []hip.OpResult) *Tally {
	for i := range out {
		t.Add(&out[i])
	}
	return t
}

// Trace notes the flags a run's own trace (before the libraries expanded
// its calls) names: a trace may set a flag nobody waits for, while a flag
// a library made is part of its protocol and must be waited on.
func (t *Tally) Trace(ops []trace.Op) *Tally {
	for i := range ops {
		t.TraceOp(&ops[i])
	}
	return t
}

// TraceOp notes the flags one op of the run's own trace names.
func (t *Tally) TraceOp(op *trace.Op) {
	for _, f := range []string{op.Flag, op.SetFlag, op.WaitFlag} {
		if f != "" {
			t.traced[f] = true
		}
	}
}

// Add tallies one finished op.
func (t *Tally) Add(o *hip.OpResult) {
	op := o.Op
	work := op.IsCopy() || op.Op == trace.Kernel || op.Op == trace.Prefetch || op.Op == trace.HostAccess
	if work && !o.Done {
		if t.missed++; len(t.unfinished) < 3 {
			t.unfinished = append(t.unfinished, fmt.Sprintf("op %d (%s)", o.Index, op.Op))
		}
	}
	switch {
	case op.NIC != nil:
		t.nic[*op.NIC] += uint64(op.Bytes)
	case op.IsCopy() && strings.Contains(o.Engine, "SDMA"):
		t.sdma += uint64(op.Bytes)
	case op.IsCopy() && o.Engine != "":
		t.cu[o.Engine] += 2 * uint64(op.Bytes) // a blit kernel reads and writes each byte
	case op.Op == trace.Kernel && op.DurationNs == 0:
		t.cu[o.Engine] += t.traffic(op.Access)
		for _, ch := range op.Channels {
			for _, ph := range ch {
				t.cu[o.Engine] += t.traffic(ph.Access) + t.traffic(ph.Preload)
				for _, w := range ph.Waits {
					t.gpuWaits[w.Flag] = max(t.gpuWaits[w.Flag], w.Count)
				}
				for _, s := range ph.Signals {
					t.gpuStores[s.Flag]++
				}
			}
		}
	}
	t.flags(op)
}

// flags tallies the host and GPU flags op sets, raises or waits for.
func (t *Tally) flags(op *ir.Command) {
	switch {
	case op.Op == trace.FlagSet:
		t.hostSets[op.Flag] = true
	case op.Op == trace.FlagWait && op.GPUCount > 0:
		t.gpuWaits[op.Flag] = max(t.gpuWaits[op.Flag], op.GPUCount)
	case op.Op == trace.FlagWait:
		t.hostWaits[op.Flag] = true
	}
	if op.WaitFlag != "" {
		t.hostWaits[op.WaitFlag] = true
	}
	for _, f := range []string{op.SetFlag, op.LandFlag} {
		if f != "" {
			t.hostSets[f] = true
		}
	}
	for _, f := range []string{op.SetGPUFlag, op.LandGPUFlag} {
		if f != "" {
			t.gpuStores[f]++
		}
	}
}

// traffic is the bytes the memory system moves for a kernel's accesses.
func (t *Tally) traffic(access []trace.Access) uint64 {
	var b int64
	for _, a := range access {
		b += gcd.MemStream{Bytes: a.Bytes, Pattern: a.Pattern, Stride: a.Stride, Element: a.Element, Passes: a.Passes}.Traffic(t.line)
	}
	return uint64(b)
}
