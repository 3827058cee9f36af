package gcd

import (
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// ackWatch records when the last write-back acknowledged to an L2 is
// done: its arrival plus its lag and spread.
type ackWatch struct {
	l2   *L2
	last sim.VTimeInSec
	n    int
}

func (w *ackWatch) Func(ctx sim.HookCtx) {
	p, ok := ctx.Item.(*fabric.Packet)
	if ctx.Pos != sim.HookPosPortMsgRecvd || !ok || p.Kind != fabric.WriteAck || p.Origin.Requester != nil {
		return
	}
	w.n++
	w.last = max(w.last, p.RecvTime+p.Lag+p.Spread)
}

// A write-back's acknowledgement costs no event, yet the engine still runs
// until the last one is done: a kernel writing twice the L2's size ends
// before its evicted lines are all written back, and the run's end is the
// last of them.
func TestWriteBacksEndTheRun(t *testing.T) {
	r := newNCRig(peer)
	w := &ackWatch{l2: r.g.L2}
	r.g.L2.BottomPort.(*fabric.Port).AcceptHook(w)
	r.run(t, writeFar(peer, 0, 16<<20, true))
	if w.n == 0 || r.g.L2.WriteBacks == 0 {
		t.Fatalf("%d write-back acknowledgements, %d write-backs: want some", w.n, r.g.L2.WriteBacks)
	}
	if end := r.e.CurrentTime(); end != w.last || end <= r.dones[0].End {
		t.Errorf("run ends at %.4f us, kernel at %.4f us, last write-back done at %.4f us: want the run to end with the write-back, after the kernel",
			1e6*end, 1e6*r.dones[0].End, 1e6*w.last)
	}
}
