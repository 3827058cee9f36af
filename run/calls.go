package run

import (
	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/profile"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// Option changes what Execute keeps of the runs.
type Option func(*execOptions)

type execOptions struct {
	calls, timeline bool
	workers         int                                      // runs at once (WithWorkers); 0: GOMAXPROCS
	tasks           bool                                     // record Akita tasks (WithTasks)
	check           bool                                     // check invariants after each run (WithCheck)
	stop            func() bool                              // asked to stop early (WithStop)
	progress        func(done, total int, simulated float64) // after each run (WithProgress)
	rows            func([]report.Row) error                 // each run's rows as they come (WithRows)
}

// WithTimeline keeps the runs' copies and kernels on the engines and CUs
// that ran them (Result.Timeline): for akisim -timeline.
func WithTimeline() Option { return func(o *execOptions) { o.timeline = true } }

// WithCalls keeps every run's HIP calls and the GPU work they made, as a
// profiler would record them (Result.Calls): for akisim -rocprof.
func WithCalls() Option { return func(o *execOptions) { o.calls = true } }

// hipNames are the HIP functions the trace's ops stand for.
var hipNames = map[trace.Kind]string{
	trace.Malloc: "hipMalloc", trace.HostMalloc: "hipHostMalloc", trace.MallocManaged: "hipMallocManaged",
	trace.Memcpy: "hipMemcpy", trace.MemcpyAsync: "hipMemcpyAsync", trace.MemcpyPeer: "hipMemcpyPeer", trace.MemcpyPeerAsy: "hipMemcpyPeerAsync",
	trace.EventRecord: "hipEventRecord", trace.EventSync: "hipEventSynchronize", trace.StreamWait: "hipStreamWaitEvent",
	trace.StreamSync: "hipStreamSynchronize", trace.DeviceSync: "hipDeviceSynchronize", trace.Kernel: "hipLaunchKernel",
	trace.Prefetch: "hipMemPrefetchAsync", trace.MemAdvise: "hipMemAdvise", trace.HostRegister: "hipHostRegister", trace.Memset: "hipMemset",
	trace.HostUnregister: "hipHostUnregister", trace.Free: "hipFree",
}

// recorded turns a run's op results into what rocprofv3 would record of
// it, process = rank: a HIP call per op that is one (from its issue to
// the rank's next call, or to its work's end if it blocked), and the
// kernel dispatches and copies with their simulated times (ns).
func recorded(ops []hip.OpResult, gcdsPerNode, numaPerNode int) *profile.Profile {
	p := &profile.Profile{}
	var allocs []trace.Op
	for i := range ops {
		if o := ops[i].Op; o.IsAlloc() {
			allocs = append(allocs, o.Call)
		}
	}
	bufs := trace.Buffers(allocs)
	for n := range numaPerNode {
		p.Agents = append(p.Agents, profile.Agent{ID: uint64(n), NodeID: n})
	}
	for g := range gcdsPerNode {
		p.Agents = append(p.Agents, profile.Agent{ID: uint64(numaPerNode + g), NodeID: numaPerNode + g, GPU: true})
	}
	agent := func(buf string) uint64 {
		b := bufs[buf]
		if b.Host {
			return uint64(b.NUMA % numaPerNode)
		}
		return uint64(numaPerNode + b.GCD%gcdsPerNode)
	}
	ns := func(t float64) int64 { return int64(t * 1e9) }
	next := make([]int, len(ops)) // the rank's next op
	last := map[int]int{}
	for i := len(ops) - 1; i >= 0; i-- {
		r := ops[i].Op.Rank
		next[i] = -1
		if j, ok := last[r]; ok {
			next[i] = j
		}
		last[r] = i
	}
	for i, res := range ops {
		o := res.Op
		name, ok := hipNames[o.Op]
		if !ok || o.NIC != nil {
			continue // host time, flags, a library's own work
		}
		corr := uint64(i + 1)
		end := ns(float64(res.Issue))
		if j := next[i]; j >= 0 {
			end = max(end, ns(float64(ops[j].Issue)))
		}
		call := profile.Call{Process: o.Rank, Thread: uint64(o.Rank), Corr: corr, Name: name, Start: ns(float64(res.Issue)), End: end, Event: o.Event}
		switch o.Op { // the calls that take a stream name it, as rocprofv3 7.0 records it
		case trace.Kernel, trace.MemcpyAsync, trace.MemcpyPeerAsy, trace.EventRecord, trace.StreamWait, trace.StreamSync, trace.Prefetch:
			call.Stream, call.HasStream = uint64(o.Stream), true
		}
		p.Calls = append(p.Calls, call)
		switch {
		case o.Op == trace.Kernel && o.GCD != nil:
			wg := int64(max(1, o.Workgroup))
			p.Kernels = append(p.Kernels, profile.Kernel{Process: o.Rank, Corr: corr, Agent: uint64(numaPerNode + *o.GCD%gcdsPerNode),
				Stream: uint64(o.Stream), Queue: uint64(o.Stream), Name: o.Name, Start: ns(float64(max(res.Begin, res.Start))), End: ns(float64(res.End)),
				Grid: max(o.Grid, wg), Workgroup: wg})
		case o.IsCopy():
			p.Copies = append(p.Copies, profile.Copy{Process: o.Rank, Corr: corr, Src: agent(o.Src), Dst: agent(o.Dst), Bytes: o.Bytes,
				Stream: uint64(o.Stream), Start: ns(float64(res.Start)), End: ns(float64(res.End))})
		}
	}
	return p
}
