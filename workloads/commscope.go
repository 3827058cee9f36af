package workloads

import (
	"fmt"
	"regexp"

	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// CommScope replicates the Comm|Scope explicit-copy benchmarks: each
// iteration records an event, issues one hipMemcpyAsync, records another
// and waits for it; the time between the events is the manual time.
type CommScope struct {
	GCDs, NUMADomains int
	MinLog2, MaxLog2  int
	Iterations        int            // timed iterations per benchmark (plus one warm-up)
	Filter            *regexp.Regexp // --benchmark_filter; nil runs all
}

// CommScopeFamily is one benchmark family: its Comm|Scope name and whether
// its arguments are /<numa>/<gpu>/ or /<src>/<dst>/.
type CommScopeFamily struct {
	Name    string
	HostArg bool
	ToGPU   bool   // for host families: host to GPU
	Kernel  string // implicit families: the kernel accesses the far memory: "read" or "write"
	MinLog2 int    // smallest size Comm|Scope registers (0: the workload's)
	MaxLog2 int    // largest size Comm|Scope registers (0: 2^30)
	// Blocking: one hipMemcpy per iteration, timed on the host's wall clock
	// around the call (src/hipMemcpy/*.cpp), not with events.
	Blocking bool
	// Pageable: the host buffer is malloc'd (pageable) memory, which the
	// runtime stages or pins for each copy (hip/pageable.go).
	Pageable bool
	// Managed: the buffer is hipMallocManaged memory, touched by a kernel
	// ("implicit") or moved by hipMemPrefetchAsync ("prefetch"); commscope_managed.go.
	Managed string
	// Triangle: GPU pairs /i/j/ with i <= j only, the same GPU included, as
	// Comm|Scope registers them (src/implicit/*_gpu_write_gpu.cpp,
	// src/prefetch/managed_gpu_to_gpu.cpp: for j = i ..).
	Triangle bool
	// NonCoherent: the host buffer is hipHostMalloc(NumaUser|NonCoherent),
	// coarse-grained (src/implicit/mapped_gpu_*_host.cpp).
	NonCoherent bool
	// Grain: a managed family advises SetCoarseGrain ("coarse") or
	// UnsetCoarseGrain ("fine") before its first iteration; "" advises nothing.
	Grain string
	// Fill: the timing loop std::memsets the host source before each copy,
	// untimed, on the thread bound to its NUMA domain (docs/references.md
	// [comm-scope]: src/hipMemcpyAsync/pinned_to_gpu.cpp, pageable_to_gpu.cpp).
	Fill bool
}

// CommScopeFamilies are the families akisim models so far.
var CommScopeFamilies = []CommScopeFamily{
	{Name: "Comm_hipMemcpyAsync_PinnedToGPU", HostArg: true, ToGPU: true, Fill: true},
	{Name: "Comm_hipMemcpyAsync_GPUToPinned", HostArg: true},
	{Name: "Comm_hipMemcpyAsync_PageableToGPU", HostArg: true, ToGPU: true, Pageable: true, Fill: true},
	{Name: "Comm_hipMemcpyAsync_GPUToPageable", HostArg: true, Pageable: true},
	{Name: "Comm_hipMemcpyAsync_GPUToGPU"},
	// E2's "NUMA to GPU": aligned_alloc (pageable) on a thread bound to the
	// domain, hipMemcpy H2D, sizes 2^8..2^33 (src/hipMemcpy/numa_to_gpu.cpp)
	{Name: "Comm_hipMemcpy_NUMAToGPU", HostArg: true, ToGPU: true, Pageable: true, Blocking: true, MaxLog2: 33},
	{Name: "Comm_implicit_mapped_GPURdHost", HostArg: true, ToGPU: true, Kernel: "read", MinLog2: 12, NonCoherent: true},
	{Name: "Comm_implicit_mapped_GPUWrHost", HostArg: true, Kernel: "write", MinLog2: 12, NonCoherent: true},
	{Name: "Comm_implicit_mapped_GPUWrGPU", Kernel: "write", MinLog2: 12, Triangle: true},
	{Name: "Comm_implicit_mapped_HostWrGPU", HostArg: true, ToGPU: true, Kernel: "hostwrite", MinLog2: 12},
}

// implicitGrid is the launch of Comm|Scope's access kernels: 512-thread
// workgroups, each thread touching 4-byte words, capped at 512 workgroups
// (a grid-stride loop covers the rest).
func implicitGrid(n int64) (grid int64, wg int) {
	wg = 512
	grid = min(max(n/4/int64(wg), 1), 512) * int64(wg)
	return grid, wg
}

// DefaultCommScope covers log2(N) 8..33, each family within its own range,
// with two timed iterations: copies over tied routes take them in turn
// (routing.sdma_ties), so two iterations give the mean of many.
func DefaultCommScope(gcds, numa int) CommScope {
	return CommScope{GCDs: gcds, NUMADomains: numa, MinLog2: 8, MaxLog2: 33, Iterations: 2}
}

// maxLog2 is the largest size of f's range.
func (f CommScopeFamily) maxLog2() int {
	if f.MaxLog2 == 0 {
		return 30
	}
	return f.MaxLog2
}

// BenchmarkRun is one Comm|Scope benchmark with its arguments.
type BenchmarkRun struct {
	Name       string
	Family     string
	Arg0, Arg1 int
	Log2       int
}

// Runs lists the benchmarks that pass the filter, in Comm|Scope's order.
func (c CommScope) Runs() []job.Run {
	var runs []job.Run
	for _, f := range CommScopeFamilies {
		n0 := c.GCDs
		if f.HostArg {
			n0 = c.NUMADomains
		}
		for a := 0; a < n0; a++ {
			for b := 0; b < c.GCDs; b++ {
				if !f.HostArg && f.Triangle && a > b {
					continue
				}
				for k := max(c.MinLog2, f.MinLog2); k <= min(c.MaxLog2, f.maxLog2()); k++ {
					name := report.CommScopeName(f.Name, a, b, k)
					if c.Filter != nil && !c.Filter.MatchString(name) {
						continue
					}
					runs = append(runs, c.run(f, name, a, b, k))
				}
			}
		}
	}
	return runs
}

func (c CommScope) run(f CommScopeFamily, name string, a, b, k int) job.Run {
	if f.Managed != "" {
		return c.managedRun(f, name, a, b, k)
	}
	n := int64(1) << k
	var ops []trace.Op
	src, dst := "src", "dst"
	host := hostAlloc
	if f.NonCoherent {
		host = func(name string, numa int, bytes int64) trace.Op {
			return trace.Op{Op: trace.HostMalloc, Buf: name, NUMA: intp(numa), Bytes: bytes, NonCoherent: true}
		}
	}
	if f.Pageable { // malloc on a thread bound to NUMA a (numa::bind_node)
		host = func(name string, numa int, bytes int64) trace.Op {
			return trace.Op{Op: trace.MallocPageable, Buf: name, NUMA: intp(numa), Bytes: bytes}
		}
	}
	switch {
	case f.HostArg && f.ToGPU:
		ops = append(ops, host(src, a, n), alloc(dst, b, n))
	case f.HostArg:
		ops = append(ops, alloc(src, b, n), host(dst, a, n))
	default:
		ops = append(ops, alloc(src, a, n), alloc(dst, b, n))
	}
	work := trace.Op{Op: trace.MemcpyAsync, Dst: dst, Src: src, Bytes: n, Stream: 1}
	switch {
	case f.Blocking:
		for i := 0; i <= c.Iterations; i++ {
			ops = append(ops, trace.Op{Op: trace.Memcpy, Dst: dst, Src: src, Bytes: n})
		}
		return job.Run{Name: name, Ops: ops, Rows: func(r *job.Replay) []report.Row {
			t := 0.0
			for _, o := range r.Ops[3:] { // after the two allocations and the warm-up
				t += float64(o.End - o.Issue)
			}
			return c.rows(f, a, b, n, t/float64(c.Iterations))
		}}
	case f.Kernel == "hostwrite":
		// a host thread on NUMA a stores to GPU b's memory, timed on the host
		ops = []trace.Op{alloc(dst, b, n)}
		for i := 0; i <= c.Iterations; i++ {
			ops = append(ops, trace.Op{Op: trace.HostAccess, NUMA: intp(a),
				Access: []trace.Access{{Buf: dst, Mode: "write", Bytes: n}}})
		}
		return job.Run{Name: name, Ops: ops, Rows: func(r *job.Replay) []report.Row {
			t := 0.0
			for _, o := range r.Ops[2:] { // the first access warms up
				t += float64(o.End - o.Start)
			}
			return c.rows(f, a, b, n, t/float64(c.Iterations))
		}}
	case f.Kernel != "":
		// a kernel on the GPU reads (or writes) the far buffer in place
		gpu, far := b, src
		if !f.HostArg {
			gpu, far = a, dst
		} else if !f.ToGPU {
			far = dst
		}
		work = implicitKernel(f.Kernel, gpu, far, n)
	}
	var setup []trace.Op
	if f.Fill {
		setup = append(setup, trace.Op{Op: trace.HostAccess, NUMA: intp(a), Threads: 1,
			Access: []trace.Access{{Buf: src, Mode: "write", Bytes: n}}})
	}
	return c.eventTimed(f, name, a, b, n, ops, setup, work)
}

// implicitKernel is Comm|Scope's kernel on gpu that reads or writes (mode)
// n bytes of buf in place, on stream 1.
func implicitKernel(mode string, gpu int, buf string, n int64) trace.Op {
	grid, wg := implicitGrid(n)
	return trace.Op{Op: trace.Kernel, Name: "comm_" + mode, GCD: intp(gpu), Stream: 1,
		Grid: grid, Workgroup: wg, Access: []trace.Access{{Buf: buf, Mode: mode, Bytes: n}}}
}

// eventTimed appends c.Iterations+1 iterations to ops, each the untimed
// setup ops then work between events start<i> and stop<i> on stream 1, and
// reports the mean time of all but iteration 0, which warms up.
func (c CommScope) eventTimed(f CommScopeFamily, name string, a, b int, n int64, ops, setup []trace.Op, work trace.Op) job.Run {
	for i := 0; i <= c.Iterations; i++ {
		start, stop := fmt.Sprintf("start%d", i), fmt.Sprintf("stop%d", i)
		ops = append(ops, setup...)
		ops = append(ops, record(start, 1), work, record(stop, 1), trace.Op{Op: trace.EventSync, Event: stop})
	}
	return job.Run{Name: name, Ops: ops, Rows: func(r *job.Replay) []report.Row {
		t := 0.0
		for i := 1; i <= c.Iterations; i++ {
			t += r.Elapsed(fmt.Sprintf("start%d", i), fmt.Sprintf("stop%d", i))
		}
		return c.rows(f, a, b, n, t/float64(c.Iterations))
	}}
}

// rows are a benchmark's bandwidth and time rows; src and dst follow the
// data (GPUToPinned /<numa>/<gpu>/ goes from the GPU to the NUMA domain).
func (c CommScope) rows(f CommScopeFamily, a, b int, n int64, t float64) []report.Row {
	src, dst := report.GCD(a), report.GCD(b)
	switch {
	case f.HostArg && f.ToGPU:
		src = report.NUMA(a)
	case f.HostArg:
		src, dst = report.GCD(b), report.NUMA(a)
	}
	row := report.Row{Workload: "commscope", Case: f.Name, Src: src, Dst: dst, Bytes: n}
	bw, tm := row, row
	bw.Metric, bw.Value, bw.Unit = "bandwidth", gbps(float64(n), t), "GB/s"
	tm.Metric, tm.Value, tm.Unit = "time", t*1e6, "us"
	return []report.Row{bw, tm}
}
