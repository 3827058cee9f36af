package gcd

import "github.com/akisim/akisim/components/fabric"

// A phased kernel (a collective's kernel) runs one workgroup per channel;
// each works through its phases in order: poll flags until each has its
// count, move the phase's memory, then store to flags others poll. That is
// how RCCL's primitives hand data around a ring: wait for the previous
// GCD's tail pointer, read and reduce, store into the next GCD's buffer,
// bump its tail.

// Phase is one step of a channel.
type Phase struct {
	Waits []FlagWait // poll until every flag has its count
	Reads []MemStream
	// Preload are reads issued once the waits that are not Recv are met,
	// without waiting for the received data (LL's loadBegin of its input
	// before readLL spins, prims_ll.h); the phase computes once they are in.
	Preload   []MemStream
	Writes    []MemStream
	ComputeNs float64 // compute besides memory (a reduction's arithmetic)
	Signals   []Signal
}

// FlagWait is a poll until Flag has counted Count stores. InData: the
// flag is in the data the phase reads (LL), so the phase's own loads are
// the poll and see it as soon as it lands. Recv: the wait is for data the
// phase receives; its preloads go out before it.
type FlagWait struct {
	Flag   *Flag
	Count  int
	InData bool
	Recv   bool
}

// Signal is a store that raises Flag, which lives in Mem at Addr. A
// separate store waits until every write of the phase is acknowledged (a
// release, as Simple's __threadfence_system before it publishes the
// tail); InData says the flag travels in the phase's data itself (LL's
// flag in every line) and counts when the last write lands.
type Signal struct {
	Flag   *Flag
	Mem    fabric.Memory
	Addr   int64
	InData bool
}

// FlagStoreBytes is the size of a flag store.
const FlagStoreBytes = 8
