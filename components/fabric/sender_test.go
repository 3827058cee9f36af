package fabric_test

import (
	"reflect"
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// SendAt sends now when the time has come and otherwise at its time, for
// plain messages and packets alike, stamping source, destination and send
// time.
func TestSenderSendAtInTheFuture(t *testing.T) {
	e, a, b := pair(16)
	b.take = true
	if a.out.Port() != a.Port || a.out.Peer() != b.Port {
		t.Fatalf("sender port %v peer %v, want A.Port and B.Port (set by Wire)", a.out.Port(), a.out.Peer())
	}
	pkt := fabric.NewRequest(fabric.WriteReq, 64, fabric.Memory{}, fabric.Route{0}, a.Port, nil)
	a.out.SendAt(0, fabric.Ns(5), &note{n: 5})
	a.out.SendAt(0, fabric.Ns(2), &note{n: 2})
	a.out.SendAt(0, fabric.Ns(3), pkt)
	a.out.SendAt(fabric.Ns(1), fabric.Ns(0.5), &note{n: 1})  // already due: goes now
	a.out.SendAt(fabric.Ns(1), fabric.Ns(1.5), &note{n: 15}) // due soon: waits
	if len(b.got) != 1 || b.at[0] != fabric.Ns(1) {
		t.Fatalf("before running, receiver got %d messages at %v, want the due one at 1 ns", len(b.got), b.at)
	}
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	want := []sim.VTimeInSec{fabric.Ns(1), fabric.Ns(1.5), fabric.Ns(2), fabric.Ns(3), fabric.Ns(5)}
	if !reflect.DeepEqual(b.at, want) {
		t.Fatalf("arrivals at %v, want %v", b.at, want)
	}
	if b.got[3] != sim.Msg(pkt) {
		t.Errorf("fourth arrival is %v, want the packet sent for 3 ns", b.got[3])
	}
	for i, m := range b.got {
		meta := m.Meta()
		if meta.SendTime != want[i] || meta.Src != a.Port || meta.Dst != b.Port {
			t.Errorf("message %d: sent at %g from %v to %v, want %g from A to B", i, meta.SendTime, meta.Src, meta.Dst, want[i])
		}
	}
}

// Messages the far side refuses wait in order; later messages queue behind
// them even when the port has room again, and Retry sends them oldest
// first, stamped with the retry time.
func TestSenderHoldsAndRetriesInOrder(t *testing.T) {
	_, a, b := pair(2)
	a.sendNotes(0, 0, 5)
	if a.out.Pending() != 3 {
		t.Fatalf("%d held, want 3", a.out.Pending())
	}
	b.takeOne(1) // room for one; a does not retry on its own (retry off)
	a.out.Send(2, &note{n: 5})
	if a.out.Pending() != 4 || b.recvs != 2 {
		t.Fatalf("note 5 overtook the held ones: %d held, receiver told %d times", a.out.Pending(), b.recvs)
	}
	a.out.Retry(3)
	if a.out.Pending() != 3 {
		t.Fatalf("after a retry %d held, want 3 (one slot was free)", a.out.Pending())
	}
	if got := b.Port.Peek(); got.(*note).n != 1 {
		t.Fatalf("oldest at the receiver is note %d, want 1", got.(*note).n)
	}
	// from now on the sender retries whenever the receiver frees room
	a.retry = true
	for now := sim.VTimeInSec(4); b.takeOne(now); now++ {
	}
	if got := b.order(); !reflect.DeepEqual(got, upTo(6)) {
		t.Errorf("receiver took %v, want %v", got, upTo(6))
	}
	if a.out.Pending() != 0 {
		t.Errorf("%d still held", a.out.Pending())
	}
	// note 2 went in at the retry at 3, note 3 when note 1 was taken at 4
	if s := b.got[2].Meta().SendTime; s != 3 {
		t.Errorf("note 2 stamped %g, want the retry time 3", s)
	}
	if s := b.got[3].Meta().SendTime; s != 4 {
		t.Errorf("note 3 stamped %g, want 4", s)
	}
}

// Messages due at one time leave in the order they were given, as a queue
// written by one doorbell reads its packets in order.
func TestSenderSendAtSameTimeInOrder(t *testing.T) {
	e, a, b := pair(64)
	b.take = true
	for i := range 20 {
		a.out.SendAt(0, fabric.Ns(5), &note{n: i})
	}
	a.out.SendAt(0, fabric.Ns(4), &note{n: -1})
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if len(b.got) != 21 {
		t.Fatalf("got %d messages, want 21", len(b.got))
	}
	for i, m := range b.got {
		if n := m.(*note).n; n != i-1 || b.at[i] != fabric.Ns(float64(4+min(i, 1))) {
			t.Fatalf("message %d is note %d at %g s, want note %d", i, n, b.at[i], i-1)
		}
	}
}
