package hip

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/trace"
)

// Allocation: where each buffer lives in its memory.

// allocate places a buffer in its memory.
func (r *Runtime) allocate(b trace.Buffer) {
	r.bufs[b.Name] = b
	m := memOf(b)
	r.base[b.Name] = based{place{m, r.reserve(m, b.Bytes)}, b.Managed}
}

// based is where a buffer was placed when it was allocated, and whether
// it is managed (its blocks move: managedAt). bufAt finds a buffer's
// place with this one map look-up: it runs for every access of every
// kernel.
type based struct {
	place
	managed bool
}

// reserve takes bytes at the next free address of memory m, aligned to
// runtime.allocation_bytes, so caches see distinct buffers at distinct
// addresses, and returns that address.
func (r *Runtime) reserve(m fabric.Memory, bytes int64) int64 {
	if r.unified && m.Host {
		// an APU: host memory and device memory are one HBM, so they
		// take addresses from one range and never alias in its MALL
		m = fabric.Memory{Index: m.Index}
	}
	a, at := r.cost.AllocationBytes, r.top[m]
	r.top[m] += (bytes + a - 1) / a * a
	return at
}

// UnifyHostMemory makes every NUMA domain's memory the HBM of the GCD of
// the same id (an APU node, host.memory = "hbm"): pinned, pageable and
// managed host buffers are mapped differently from device buffers but
// live in the same memory.
func (r *Runtime) UnifyHostMemory() { r.unified = true }

func memOf(b trace.Buffer) fabric.Memory {
	if b.Host {
		return fabric.Memory{Host: true, Index: b.NUMA}
	}
	return fabric.Memory{Index: b.GCD}
}
