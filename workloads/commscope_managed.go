package workloads

import (
	"fmt"

	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// Comm|Scope's managed-memory families (c3sr/comm_scope src/; shared docs
// host-memory.md section 5). Each allocates with hipMallocManaged and, per
// iteration, puts the pages back where the benchmark starts from with an
// untimed prefetch and hipDeviceSynchronize; the timed part is a kernel
// (implicit_managed) or a prefetch (prefetch_managed) between two events.
// Fine and coarse differ in MTYPE (UC vs NC): a coarse buffer away from the
// kernel's GCD may sit in its L2, but every timed kernel follows a prefetch
// and an event marker, system-scope packets whose acquire empties the L2 of
// non-local lines (hip/grain.go), so a single pass gains nothing from it.

// Managed family kinds (CommScopeFamily.Managed).
const (
	managedImplicit = "implicit" // a kernel touches the managed buffer
	managedPrefetch = "prefetch" // hipMemPrefetchAsync moves it
)

func init() {
	for _, grain := range []string{"coarse", "fine"} {
		CommScopeFamilies = append(CommScopeFamilies,
			CommScopeFamily{Name: "Comm_implicit_managed_GPURdHost_" + grain, HostArg: true, ToGPU: true, Kernel: "read", MinLog2: 12, Managed: managedImplicit, Grain: grain},
			CommScopeFamily{Name: "Comm_implicit_managed_GPUWrHost_" + grain, HostArg: true, Kernel: "write", MinLog2: 12, Managed: managedImplicit, Grain: grain},
			CommScopeFamily{Name: "Comm_implicit_managed_HostWrGPU_" + grain, HostArg: true, ToGPU: true, Kernel: "hostwrite", MinLog2: 12, Managed: managedImplicit, Grain: grain},
			CommScopeFamily{Name: "Comm_implicit_managed_GPUWrGPU_" + grain, Kernel: "write", MinLog2: 12, Managed: managedImplicit, Triangle: true, Grain: grain})
	}
	CommScopeFamilies = append(CommScopeFamilies,
		// no advice, a gpu_write kernel on pages that start in host DRAM
		CommScopeFamily{Name: "Comm_hipManaged_HostToGPUWriteDst", HostArg: true, ToGPU: true, Kernel: "write", MinLog2: 12, Managed: managedImplicit},
		CommScopeFamily{Name: "Comm_prefetch_managed_HostToGPU", HostArg: true, ToGPU: true, MinLog2: 10, Managed: managedPrefetch},
		CommScopeFamily{Name: "Comm_prefetch_managed_GPUToHost", HostArg: true, MinLog2: 10, Managed: managedPrefetch},
		CommScopeFamily{Name: "Comm_prefetch_managed_GPUToGPU", MinLog2: 10, Managed: managedPrefetch, Triangle: true})
}

// managedRun is one benchmark of a managed family; a and b are its
// arguments (/<numa>/<gpu>/ or /<src>/<dst>/), the size 2^k bytes.
func (c CommScope) managedRun(f CommScopeFamily, name string, a, b, k int) job.Run {
	n := int64(1) << k
	numa := 0 // GPU families bind no NUMA node: the pages start on domain 0
	if f.HostArg {
		numa = a // numa::bind_node(a): first touch on the benchmark's domain
	}
	// where each iteration starts (untimed prefetch) and where the data goes
	from, to, gpu := trace.PrefetchHost, fmt.Sprint(b), b
	switch {
	case f.HostArg && !f.ToGPU: // GPUWrHost, GPUToHost
		from, to = fmt.Sprint(b), trace.PrefetchHost
		if f.Managed == managedImplicit { // the kernel writes host-resident pages
			from = trace.PrefetchHost
		}
	case !f.HostArg: // GPU to GPU: start on src a, end on (or written from) dst b
		from = fmt.Sprint(a)
	case f.Kernel == "hostwrite": // the pages start on GPU b; host threads on NUMA a store
		from = fmt.Sprint(b)
	}
	ops := []trace.Op{{Op: trace.MallocManaged, Buf: "m", NUMA: intp(numa), Bytes: n}}
	switch f.Grain { // for both GPUs (or the GPU and the CPU) there: one advice sets the range's flag
	case "coarse":
		ops = append(ops, trace.Op{Op: trace.MemAdvise, Buf: "m", Advice: trace.AdviseSetCoarseGrain})
	case "fine":
		ops = append(ops, trace.Op{Op: trace.MemAdvise, Buf: "m", Advice: trace.AdviseUnsetCoarseGrain})
	}
	setup := []trace.Op{{Op: trace.Prefetch, Buf: "m", Dst: from}, {Op: trace.DeviceSync}}
	switch {
	case f.Kernel == "hostwrite": // timed on the host's wall clock, the CPU faults included
		// each iteration: prefetch to the GPU, hipMemset on it, sync, then the timed stores
		setup = []trace.Op{{Op: trace.Prefetch, Buf: "m", Dst: from}, {Op: trace.Memset, Buf: "m", Bytes: n, GCD: intp(b)}, {Op: trace.DeviceSync}}
		work := trace.Op{Op: trace.HostAccess, NUMA: intp(a), Access: []trace.Access{{Buf: "m", Mode: "write", Bytes: n}}}
		first := len(ops) // after the malloc and its advice
		for i := 0; i <= c.Iterations; i++ {
			ops = append(append(ops, setup...), work)
		}
		return job.Run{Name: name, Ops: ops, Rows: func(r *job.Replay) []report.Row {
			t := 0.0
			for i := 1; i <= c.Iterations; i++ { // iteration 0 warms up
				o := r.Ops[first+3+4*i] // each iteration's prefetch, memset, sync, access
				t += float64(o.End - o.Issue)
			}
			return c.rows(f, a, b, n, t/float64(c.Iterations))
		}}
	case f.Managed == managedImplicit:
		return c.eventTimed(f, name, a, b, n, ops, setup, implicitKernel(f.Kernel, gpu, "m", n))
	}
	return c.eventTimed(f, name, a, b, n, ops, setup, trace.Op{Op: trace.Prefetch, Buf: "m", Dst: to, Stream: 1})
}
