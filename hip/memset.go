package hip

import (
	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"
)

// lowerMemset makes a hipMemset what ROCclr makes of it. Memory the host
// reaches directly is filled by the calling thread's memset
// (KernelBlitManager::fillBuffer takes HostBlitManager's path): host
// memory always, managed memory where the release says so
// (managed_fill = "host"), so managed pages on a GCD come back to host
// DRAM first. Otherwise a fill kernel runs on the current GCD's null
// stream, a workgroup per blit_workgroup_bytes, and may fault managed
// pages in. The op then runs as that host access or kernel.
func (r *Runtime) lowerMemset(op *ir.Command) {
	b := r.bufs[op.Buf]
	op.Access = []trace.Access{{Buf: op.Buf, Mode: "write", Bytes: op.Bytes}}
	op.Bytes = 0 // the access carries the size, as a host access's or kernel's does
	if b.Host && (r.managed[op.Buf] == nil || r.rel.ManagedFill == "host") {
		numa := b.NUMA // the caller's domain is not in the call: the buffer's
		op.Op, op.Threads, op.NUMA = trace.HostAccess, 1, &numa
		return
	}
	per := r.cost.BlitWorkgroupBytes
	op.Op, op.Stream, op.Workgroup = trace.Kernel, 0, 256
	op.Grid = 256 * ((op.Access[0].Bytes + per - 1) / per)
}
