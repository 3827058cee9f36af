package gcd

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// MemStream is one memory a kernel reads or writes: where, how many bytes.
type MemStream struct {
	Mem     fabric.Memory
	Addr    int64  // first byte in Mem
	Bytes   int64  // bytes the kernel uses
	Pattern string // "sequential" (or ""), "strided" or "random"
	Stride  int64  // bytes between accesses, for "strided"
	Element int64  // bytes per access (0: 8, a double)
	// PageBytes is the page size the memory is mapped in when it is mapped
	// page by page (host pages of managed or registered memory), so each
	// page needs its own TLB entry; 0: large fragments, never a TLB limit.
	PageBytes int64
	// NonCoherent says the memory is coarse-grained and not this GCD's
	// HBM (MTYPE NC: hipMalloc on a peer, hipHostMallocNonCoherent,
	// managed memory advised coarse-grained): the L2 caches it.
	NonCoherent bool
	// First and End bound the workgroups that touch the stream, [First,
	// End); End 0: every workgroup.
	First, End int64
	// Passes is how many times the kernel goes over the bytes, in order
	// (0: once); each pass asks for the same addresses again.
	Passes int64
}

// Traffic is how many bytes the memory system moves for the stream when it
// moves whole lines of line bytes, over all its passes.
func (m MemStream) Traffic(line int64) int64 {
	return m.pass(line) * max(1, m.Passes)
}

// pass is the traffic of one pass: sequential accesses use every byte of
// a line, strided ones only the elements the stride hits, random ones one
// element per line.
func (m MemStream) pass(line int64) int64 {
	elem := m.Element
	if elem == 0 {
		elem = 8
	}
	n := (m.Bytes + elem - 1) / elem // accesses
	perLine := (elem + line - 1) / line * line
	switch m.Pattern {
	case "strided":
		if m.Stride >= line {
			return n * perLine
		}
		return max(m.Bytes, (n*m.Stride+line-1)/line*line)
	case "random":
		return n * perLine
	}
	return m.Bytes
}

// KernelCmd is a kernel dispatch packet for a GCD's compute units.
type KernelCmd struct {
	sim.MsgMeta
	ID         int
	Name       string // the kernel's name, as a trace or a library gives it (tracing tasks carry it)
	Queue      int    // the hardware queue (a stream): its commands run in order, other queues' alongside
	Workgroups int64
	ComputeNs  float64 // compute time of one workgroup besides memory
	DurationNs float64 // a recorded kernel: runs this long, no memory traffic modelled
	Reads      []MemStream
	Writes     []MemStream
	Release    bool // no kernel: a system-scope release+acquire (L2 write-back, non-local lines dropped) in the queue
	Marker     bool // no kernel: a point in the queue (an event's marker packet), done when reached
	// Acquire is a system-scope acquire before the first workgroup: the L2
	// drops its non-local lines (writing dirty ones back first), so the
	// kernel sees what a copy or prefetch put in their memory.
	Acquire bool
	// SystemRelease ends the kernel with a system-scope release (a stop
	// event bound to the launch): the L2 writes back its dirty lines and
	// drops non-local ones before the completion signal.
	SystemRelease bool
	// Channels make a phased kernel (phase.go): one workgroup per channel,
	// each running its phases in order; Reads, Writes and Workgroups unused.
	Channels [][]Phase
	InFlight int64 // bytes a workgroup keeps in flight, one workgroup per CU at a time (0: the CU's, cu_outstanding_bytes)
	// OneLoad: each wave loads and stores its piece once and ends (no
	// loop), so the bytes a CU keeps in flight (InFlight: its resident
	// waves' pieces) return to work only when new workgroups have started
	// in the freed slots (gcd.wave_start_ns).
	OneLoad bool
}

// Meta returns the message meta data.
func (k *KernelCmd) Meta() *sim.MsgMeta { return &k.MsgMeta }

// KernelDone is a kernel's completion signal.
type KernelDone struct {
	sim.MsgMeta
	ID         int
	Start, End sim.VTimeInSec
	Begin      sim.VTimeInSec // workgroups dispatched: Start plus the wake-up and launch
	// StreamEnds: when each memory stream of the command (Reads, then
	// Writes) was all moved and acknowledged, by the last CU with a share
	// of it (a benchmark's per-block clocks); nil unless some stream is
	// given to some of the workgroups only (MemStream.End), and for
	// recorded and phased kernels.
	StreamEnds []sim.VTimeInSec
}

// Meta returns the message meta data.
func (k *KernelDone) Meta() *sim.MsgMeta { return &k.MsgMeta }

// KernelRoutes tells compute units how their traffic crosses the fabric.
type KernelRoutes interface {
	KernelRoutes(from, to int) []fabric.Route
	HubOf(m fabric.Memory) int
}
