package gcd

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// MemStream is one memory a kernel reads or writes: where, how many bytes.
type MemStream struct {
	Mem   fabric.Memory
	Addr  int64 // first byte in Mem
	Bytes int64
}

// KernelCmd is a kernel dispatch packet for a GCD's compute units.
type KernelCmd struct {
	sim.MsgMeta
	ID         int
	Workgroups int64
	ComputeNs  float64 // compute time of one workgroup besides memory
	Reads      []MemStream
	Writes     []MemStream
}

// Meta returns the message meta data.
func (k *KernelCmd) Meta() *sim.MsgMeta { return &k.MsgMeta }

// KernelDone is a kernel's completion signal.
type KernelDone struct {
	sim.MsgMeta
	ID         int
	Start, End sim.VTimeInSec
}

// Meta returns the message meta data.
func (k *KernelDone) Meta() *sim.MsgMeta { return &k.MsgMeta }

// KernelRoutes tells compute units how their traffic crosses the fabric.
type KernelRoutes interface {
	KernelRoutes(from, to int) []fabric.Route
	HubOf(m fabric.Memory) int
}
