package hip

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/trace"
)

// Allocation: where each buffer lives in its memory.

// allocate places a buffer at the next free address of its memory aligned
// to runtime.allocation_bytes, so caches see distinct buffers at distinct
// addresses.
func (r *Runtime) allocate(b trace.Buffer) {
	m := memOf(b)
	a := r.cost.AllocationBytes
	r.bufs[b.Name] = b
	r.base[b.Name] = r.top[m]
	r.top[m] += (b.Bytes + a - 1) / a * a
}

func memOf(b trace.Buffer) fabric.Memory {
	if b.Host {
		return fabric.Memory{Host: true, Index: b.NUMA}
	}
	return fabric.Memory{Index: b.GCD}
}
