package ir

import "github.com/akisim/akisim/trace"

// Phased kernels are what a collective library's kernel does (package
// rccl makes them from a trace's collective calls; traces do not write
// them): one workgroup per channel, each working through its phases.

// Phase is one step of a channel of a phased kernel: wait until flags
// have counted enough stores, move memory, then store to flags.
type Phase struct {
	Waits  []FlagCount
	Access []trace.Access
	// Preload are reads that go out before the phase's waits for received
	// data are met (LL's loads of the local input, issued before it spins
	// on the FIFO); its compute needs them.
	Preload   []trace.Access
	ComputeNs float64 // compute besides memory (a reduction's arithmetic)
	Signals   []FlagStore
}

// FlagCount is a poll until Flag has counted Count stores; InData: the
// flag is in the data the phase reads, whose loads see it land; Recv: it
// waits for received data, which the phase's preloads do not wait for.
type FlagCount struct {
	Flag   string
	Count  int
	InData bool
	Recv   bool
}

// FlagStore is a store raising Flag, which lives in buffer Buf at Offset:
// after the phase's writes are acknowledged, or InData, with the data.
type FlagStore struct {
	Flag   string
	Buf    string
	Offset int64
	InData bool
}
