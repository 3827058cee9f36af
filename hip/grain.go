package hip

import "github.com/akisim/akisim/ir"
import "github.com/akisim/akisim/trace"

// Memory grain as kernels see it (trace/grain.go). A GCD maps memory that
// is not its own HBM MTYPE NC when it is coarse-grained, so its L2 may
// cache it, and MTYPE UC when fine-grained, never cached (KFD
// svm_range_get_pte_flags, gfx90a). ROCclr gives the packet after an SDMA
// copy or a prefetch, event markers and barrier packets system scope
// (rocvirtual.cpp addSystemScope; shared docs host-memory.md s.6): the
// next kernel on the stream starts with a system-scope acquire, which
// drops the L2's lines of non-local memory.

// coarse says whether buf is coarse-grained now: hipMalloc memory without
// the fine flag, hipHostMallocNonCoherent memory, managed memory advised
// SetCoarseGrain. Registered memory is fine (the fine-grained system pool).
func (r *Runtime) coarse(buf string) bool {
	if r.managed[buf] != nil {
		return r.coarseManaged[buf]
	}
	return r.bufs[buf].Coarse && !r.registered[buf]
}

// nonCoherent says whether kernel op's access to buf, at place p, may be
// cached by the L2 of the kernel's GCD: coarse-grained memory that is not
// that GCD's own HBM. Host threads (host_access) have no GPU L2.
func (r *Runtime) nonCoherent(op *ir.Command, buf string, p place) bool {
	if op.Op != trace.Kernel {
		return false
	}
	local := !p.mem.Host && p.mem.Index == *op.GCD
	return !local && r.coarse(buf)
}

// advise applies a mem_advise op: the grain advices set or clear the
// range's coherence (KFD COHERENT flag).
func (r *Runtime) advise(op *ir.Command) {
	r.coarseManaged[op.Buf] = op.Advice == trace.AdviseSetCoarseGrain
}
