package gcd

import (
	"slices"

	"github.com/sarchlab/akita/v3/sim"
)

// Flag is a counter in memory that kernels raise with stores and others
// poll (RCCL's head and tail pointers, a step counter): each store that
// lands in the flag's memory counts one. A poller sees count n once the
// n-th store has landed and its next load of the flag returns; the memory
// tells the flag when a store lands (fabric.Packet.Landed), which stands
// for the poller's loads without simulating each one. The zero Flag is
// one no store has raised.
type Flag struct {
	landed  []sim.VTimeInSec // when each store landed, ascending
	waiters []flagWaiter
	lands   func(t sim.VTimeInSec) // land as a func value, made once (landing)
}

// landing is land as a func value for a store's packet: made for every
// store, it was an allocation each.
func (f *Flag) landing() func(t sim.VTimeInSec) {
	if f.lands == nil {
		f.lands = f.land
	}
	return f.lands
}

// flagWaiter is a channel of a phased kernel waiting for the flag, or a
// host thread (host, told of every store).
type flagWaiter struct {
	cus  *ComputeUnits
	ch   *chanRun
	host func()
}

// readyAt is when the flag's count reaches n, if stores for it have landed
// or are on their way.
func (f *Flag) readyAt(n int) (sim.VTimeInSec, bool) {
	if n <= 0 {
		return 0, true
	}
	if n > len(f.landed) {
		return 0, false
	}
	return f.landed[n-1], true
}

// land counts a store landing at t and wakes the channels it may free.
func (f *Flag) land(t sim.VTimeInSec) {
	k, _ := slices.BinarySearch(f.landed, t)
	f.landed = slices.Insert(f.landed, k, t)
	ws := f.waiters
	f.waiters = nil
	for _, w := range ws {
		if w.host != nil {
			w.host()
			continue
		}
		w.cus.tryPhase(w.cus.engine.CurrentTime(), w.ch) // waits again (on this flag or another) if not ready
	}
}

// Store counts a store landing at t made by another agent than a kernel:
// a library's host thread, or a NIC's completion.
func (f *Flag) Store(t sim.VTimeInSec) { f.land(t) }

// ReadyAt is when the flag's count reaches n, if stores for it have
// landed or are on their way.
func (f *Flag) ReadyAt(n int) (sim.VTimeInSec, bool) { return f.readyAt(n) }

// Notify has fn called at the flag's next store (a host thread polling
// it); fn registers again if it still waits.
func (f *Flag) Notify(fn func()) { f.waiters = append(f.waiters, flagWaiter{host: fn}) }

// wait parks channel ch of c until the flag's next store.
func (f *Flag) wait(c *ComputeUnits, ch *chanRun) {
	f.waiters = append(f.waiters, flagWaiter{cus: c, ch: ch})
}

// Stores is the number of stores the flag has counted.
func (f *Flag) Stores() int { return len(f.landed) }

// Waiting is the number of pollers still parked on the flag.
func (f *Flag) Waiting() int { return len(f.waiters) }
