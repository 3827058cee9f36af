package hip

import (
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/trace"
	"github.com/sarchlab/akita/v3/sim"
)

// eventsSeen keeps the distinct host events the engine handles.
type eventsSeen map[*hostEvent]bool

func (s eventsSeen) Func(ctx sim.HookCtx) {
	if e, ok := ctx.Item.(*hostEvent); ok && ctx.Pos == sim.HookPosBeforeEvent {
		s[e] = true
	}
}

// Two ranks make a thousand host calls each: every call is issued when
// the one before it returned, and the engine sees each thread's own two
// events, taken in turn, not an event per call.
func TestHostCallsTakeTheirThreadsEvents(t *testing.T) {
	const calls, ns = 1000, 10.0
	var ops []trace.Op
	for i := range 2 * calls {
		ops = append(ops, trace.Op{Op: trace.HostCompute, ComputeNs: ns, Rank: i % 2})
	}
	e := sim.NewSerialEngine()
	seen := eventsSeen{}
	e.AcceptHook(seen)
	r := NewRuntime("Runtime", e, config.Runtime{}, config.ROCmRelease{}, config.Env{}, nil, nil)
	r.Load(ops)
	if err := e.Run(); err != nil || r.Err != nil {
		t.Fatal(err, r.Err)
	}
	for i, res := range r.Results {
		if want := sim.VTimeInSec(float64(i/2) * ns * 1e-9); !res.Done || res.Issue < want*(1-1e-9) || res.Issue > want*(1+1e-9) {
			t.Fatalf("call %d of rank %d: issued at %g (done %v), want %g", i/2, i%2, res.Issue, res.Done, want)
		}
	}
	if len(seen) != 4 {
		t.Errorf("the engine handled %d distinct host events for 2 threads, want 4 (two each, in turn)", len(seen))
	}
}
