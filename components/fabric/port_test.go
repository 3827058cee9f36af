package fabric_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// A port holds up to its capacity, refuses the rest (the sender keeps
// them), and hands messages out oldest first.
func TestPortCapacityAndRefusal(t *testing.T) {
	_, a, b := pair(3)
	a.sendNotes(0, 0, 5)
	if b.recvs != 3 {
		t.Errorf("receiver told of %d messages, want 3 (its capacity)", b.recvs)
	}
	if got := a.out.Pending(); got != 2 {
		t.Errorf("sender holds %d messages, want 2 refused ones", got)
	}
	if p := b.Port.Peek(); p == nil || p.(*note).n != 0 || b.Port.Peek() != p {
		t.Errorf("Peek = %v, want note 0, twice (Peek does not take it)", p)
	}
	for range 3 {
		b.takeOne(1)
	}
	if b.takeOne(1) {
		t.Error("Retrieve on an empty port returned a message")
	}
	if got := b.order(); !reflect.DeepEqual(got, upTo(3)) {
		t.Errorf("retrieved %v, want %v", got, upTo(3))
	}
	// room again: the held messages go in
	a.out.Retry(2)
	for b.takeOne(2) {
	}
	if got := b.order(); !reflect.DeepEqual(got, upTo(5)) {
		t.Errorf("retrieved %v, want %v", got, upTo(5))
	}
}

// A port that refused a message tells the far side once, when a retrieve
// makes room; a port that never refused says nothing.
func TestPortNotifiesSenderAfterRefusal(t *testing.T) {
	_, a, b := pair(2)
	a.sendNotes(0, 0, 2)
	b.takeOne(1)
	b.takeOne(1)
	if len(a.frees) != 0 {
		t.Fatalf("sender told of free room at %v without a refusal", a.frees)
	}
	a.sendNotes(3, 2, 5) // 4 is refused
	b.takeOne(7)
	if !reflect.DeepEqual(a.frees, []sim.VTimeInSec{7}) {
		t.Fatalf("sender told of free room at %v, want once at 7", a.frees)
	}
	b.takeOne(8)
	if len(a.frees) != 1 {
		t.Errorf("sender told again at %v, without a new refusal", a.frees)
	}
}

// The port keeps FIFO order while its buffer is taken and refilled many
// times over (it compacts its buffer as it goes).
func TestPortFIFOOverManyMessages(t *testing.T) {
	_, a, b := pair(1000)
	n := 0
	for round := 0; round < 300; round++ {
		for range 3 {
			a.out.Send(0, &note{n: n})
			n++
		}
		b.takeOne(0)
		b.takeOne(0)
	}
	for b.takeOne(0) {
	}
	if got := b.order(); !reflect.DeepEqual(got, upTo(n)) {
		t.Errorf("messages came out of order: first %v", got[:min(len(got), 20)])
	}
}

// hookLog records what hooks see.
type hookLog struct{ seen []string }

func (h *hookLog) Func(ctx sim.HookCtx) {
	h.seen = append(h.seen, fmt.Sprintf("%s %d", ctx.Pos.Name, ctx.Item.(*note).n))
}

// Hooks attached to a port see sends, arrivals and retrieves, and nothing
// for a refused message until it is accepted.
func TestPortInvokesAttachedHooks(t *testing.T) {
	_, a, b := pair(1)
	a.retry = true
	send, recv := &hookLog{}, &hookLog{}
	a.Port.(*fabric.Port).AcceptHook(send)
	b.Port.(*fabric.Port).AcceptHook(recv)
	a.out.Send(0, &note{n: 0})
	a.out.Send(0, &note{n: 1}) // refused: the port holds one
	b.takeOne(1)               // frees room: the sender retries note 1
	b.takeOne(1)
	wantSend := []string{"Port Msg Send 0", "Port Msg Send 1"}
	wantRecv := []string{"Port Msg Recv 0", "Port Msg Retrieve 0", "Port Msg Recv 1", "Port Msg Retrieve 1"}
	if !reflect.DeepEqual(send.seen, wantSend) {
		t.Errorf("sender's hook saw %q, want %q", send.seen, wantSend)
	}
	if !reflect.DeepEqual(recv.seen, wantRecv) {
		t.Errorf("receiver's hook saw %q, want %q", recv.seen, wantRecv)
	}
}

// taker is an owner that takes messages as they arrive at its empty port.
type taker struct {
	*owner
	took []int
}

func (t *taker) Take(now sim.VTimeInSec, _ sim.Port, msg sim.Msg) {
	t.took = append(t.took, msg.(*note).n)
}

// A Taker gets each message straight from its empty port, without a
// NotifyRecv, as many times as messages arrive; with a hook on the port
// (a tracer) messages queue and notify as for any component.
func TestPortHandsMessagesToTaker(t *testing.T) {
	e := sim.NewSerialEngine()
	a := newOwner(e, "A", 4)
	b := &taker{owner: &owner{ComponentBase: sim.NewComponentBase("B")}}
	b.Port, b.out = b.NewPort(e, b, 2, "B", "Port")
	fabric.Wire(a.Port, b.Port)
	a.sendNotes(0, 0, 3)
	if !reflect.DeepEqual(b.took, upTo(3)) || b.recvs != 0 || b.Port.Peek() != nil {
		t.Fatalf("took %v with %d notifications and %v queued, want %v, none, nothing", b.took, b.recvs, b.Port.Peek(), upTo(3))
	}
	b.Port.AcceptHook(hookFunc(func(sim.HookCtx) {}))
	a.sendNotes(1, 3, 4)
	if len(b.took) != 3 || b.recvs != 1 || b.Port.Peek() == nil {
		t.Errorf("with a hook: took %v, %d notifications, want the note queued and notified", b.took, b.recvs)
	}
}

type hookFunc func(sim.HookCtx)

func (f hookFunc) Func(ctx sim.HookCtx) { f(ctx) }
