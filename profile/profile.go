// Package profile reads what profilers recorded of a real run (rocprofv3's
// CSV and JSON outputs) and turns it into an akisim trace: kernels held at
// their recorded durations on their GCDs, copies of their recorded sizes
// between the recorded agents, synchronisation, and the host's time
// between calls. What cannot be carried over is counted, never dropped
// silently (Report).
package profile

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/akisim/akisim/trace"
)

// Agent is a profiled agent (a CPU NUMA node or a GPU, one per GCD on
// MI250X), by the id the records use.
type Agent struct {
	ID     uint64 // the records' reference: logical node id (CSV), handle (JSON)
	NodeID int    // KFD node: agents of a type ranked by it give the HIP device (GPUs) or NUMA node (CPUs)
	GPU    bool
}

// Kernel is one kernel dispatch.
type Kernel struct {
	Process         int
	Corr            uint64 // correlation id of the API call that launched it
	Agent           uint64
	Queue, Stream   uint64 // HSA queue and (rocprofv3 7.0) HIP stream handles; 0: none
	Name            string
	Start, End      int64 // ns
	Grid, Workgroup int64 // work-items in all and per workgroup
	// FetchBytes and WriteBytes are the kernel's HBM traffic from its
	// counters (FETCH_SIZE, WRITE_SIZE, in KiB); Counted says they were
	// collected. A counted kernel is costed by the memory model.
	FetchBytes, WriteBytes int64
	Counted                bool
}

// counterBytes sets the kernels' traffic from per-correlation counters:
// name -> value (FETCH_SIZE and WRITE_SIZE in KiB, summed over instances).
func (p *Profile) counterBytes(proc int, byCorr map[uint64]map[string]float64) {
	for i := range p.Kernels {
		k := &p.Kernels[i]
		c, ok := byCorr[k.Corr]
		if k.Process != proc || !ok {
			continue
		}
		f, okF := c["FETCH_SIZE"]
		w, okW := c["WRITE_SIZE"]
		if okF || okW {
			k.FetchBytes, k.WriteBytes, k.Counted = int64(f*1024), int64(w*1024), true
		}
	}
}

// Copy is one memory copy.
type Copy struct {
	Process    int
	Corr       uint64
	Src, Dst   uint64 // agents
	Bytes      int64  // 0: not recorded (rocprofv3's CSV)
	Stream     uint64
	Start, End int64
}

// Call is one HIP API call on a host thread.
type Call struct {
	Process    int
	Thread     uint64
	Corr       uint64
	Name       string
	Start, End int64
	// From rocprofv3 7.0's API records: the call's HIP stream (Stream,
	// when HasStream) and its event argument (Event, a pointer's text).
	Stream    uint64
	HasStream bool
	Event     string
	// RCCL says the call is RCCL's (rocprofv3's RCCL_API records); Args
	// are its arguments by name, where the records hold them.
	RCCL bool
	Args map[string]string
}

// Profile is what a profiler recorded, per process (rank).
type Profile struct {
	Source  string // the file or folder read
	Agents  []Agent
	Kernels []Kernel
	Copies  []Copy
	Calls   []Call
	Report  Report

	processes int // read so far (the next rank)
}

// Report counts what an import carried over and what it did not.
type Report struct {
	Kernels, Copies, Syncs int            // carried over
	RCCL                   int            // RCCL calls carried over as rccl_* ops
	Folded                 map[string]int // what -> records replaced by the ops they belong to
	Dropped                map[string]int // reason -> records left out
	Approximated           map[string]int // what -> records carried over approximately
}

func (r *Report) drop(why string)   { r.count(&r.Dropped, why) }
func (r *Report) approx(why string) { r.count(&r.Approximated, why) }
func (r *Report) count(m *map[string]int, k string) {
	if *m == nil {
		*m = map[string]int{}
	}
	(*m)[k]++
}

// Lines are the report as lines for the user, in a fixed order.
func (r Report) Lines() []string {
	out := []string{fmt.Sprintf("imported %d kernels, %d copies, %d synchronisations", r.Kernels, r.Copies, r.Syncs)}
	if r.RCCL > 0 {
		out[0] += fmt.Sprintf(", %d RCCL calls", r.RCCL)
	}
	for _, k := range slices.Sorted(maps.Keys(r.Folded)) {
		out = append(out, fmt.Sprintf("folded %d: %s", r.Folded[k], k))
	}
	for _, k := range slices.Sorted(maps.Keys(r.Dropped)) {
		out = append(out, fmt.Sprintf("dropped %d: %s", r.Dropped[k], k))
	}
	for _, k := range slices.Sorted(maps.Keys(r.Approximated)) {
		out = append(out, fmt.Sprintf("approximated %d: %s", r.Approximated[k], k))
	}
	return out
}

// agents maps agent references to GCD ids and NUMA domains: each type's
// agents ranked by KFD node (HIP's device order, the NUMA nodes' order).
type agents struct {
	gcd, numa map[uint64]int
}

func (p *Profile) agentMap() agents {
	a := agents{gcd: map[uint64]int{}, numa: map[uint64]int{}}
	sorted := slices.Clone(p.Agents)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].NodeID < sorted[j].NodeID })
	for _, ag := range sorted {
		if ag.GPU {
			a.gcd[ag.ID] = len(a.gcd)
		} else {
			a.numa[ag.ID] = len(a.numa)
		}
	}
	return a
}

// Limits are the node a trace must fit: GCDs and NUMA domains per node.
type Limits struct{ GCDs, NUMA int }

// Trace turns the profile into trace operations, process p as rank p.
// Per rank, its HIP calls in time order (threads merged: one host thread
// per rank): a kernel launch becomes its dispatches as kernels held at
// their recorded durations, a copy its copies, a device or stream
// synchronise a device_sync; every other call, and the time between calls,
// is host time. Without API records, the device records in start order.
func (p *Profile) Trace(lim Limits) ([]trace.Op, error) {
	am := p.agentMap()
	if len(am.gcd) > lim.GCDs {
		return nil, fmt.Errorf("%s: %d GPU agents, the node has %d GCDs", p.Source, len(am.gcd), lim.GCDs)
	}
	b := &builder{p: p, am: am, lim: lim, streams: map[[3]uint64]int{}, bufs: map[string]*buf{}, byHIP: p.hasStreams()}
	kernels := map[[2]uint64][]Kernel{} // (process, correlation) -> dispatches
	copies := map[[2]uint64][]Copy{}
	for _, k := range p.Kernels {
		key := [2]uint64{uint64(k.Process), k.Corr}
		kernels[key] = append(kernels[key], k)
	}
	for _, c := range p.Copies {
		key := [2]uint64{uint64(c.Process), c.Corr}
		copies[key] = append(copies[key], c)
	}
	procs := map[int]bool{}
	for _, c := range p.Calls {
		procs[c.Process] = true
	}
	if len(p.Calls) == 0 { // device records only: replay them in start order
		return b.deviceOrder()
	}
	calls := slices.Clone(p.Calls)
	slices.SortStableFunc(calls, func(x, y Call) int {
		return cmp.Or(cmp.Compare(x.Process, y.Process), cmp.Compare(x.Start, y.Start), cmp.Compare(x.Corr, y.Corr))
	})
	plan := b.planRCCL(calls, kernels)
	if plan.err != nil {
		return nil, plan.err
	}
	commMade := false
	threads := map[[2]uint64]bool{}
	var last int64
	for i, c := range calls {
		if i == 0 || calls[i-1].Process != c.Process {
			last = c.Start
		}
		threads[[2]uint64{uint64(c.Process), c.Thread}] = true
		if gap := c.Start - last; gap > 0 {
			if gap > int64(trace.MaxDurationNs) { // a timestamp far off: keep an hour
				gap = int64(trace.MaxDurationNs)
				p.Report.approx("gaps between calls of over an hour cut to an hour")
			}
			b.host(c.Process, gap)
		}
		last = max(last, c.End)
		key := [2]uint64{uint64(c.Process), c.Corr}
		ks, cs := kernels[key], copies[key]
		delete(kernels, key)
		delete(copies, key)
		o, isRCCL := plan.ops[i]
		switch {
		case plan.folded[i]: // RCCL's own launches: its call is replayed instead
			p.Report.count(&p.Report.Folded, "HIP calls made inside RCCL calls")
			for range ks {
				p.Report.count(&p.Report.Folded, "RCCL kernels, re-simulated as their calls")
			}
		case isRCCL:
			for range ks {
				p.Report.count(&p.Report.Folded, "RCCL kernels, re-simulated as their calls")
			}
			if !commMade {
				b.op(c.Process, trace.Op{Op: trace.RCCLCommInit, Comm: "rccl", GCDs: plan.gcds})
				commMade = true
			}
			if o.GCD != nil {
				b.finishRCCL(&o, c.Process, len(plan.gcds))
			}
			b.op(c.Process, o)
			p.Report.RCCL++
		case c.RCCL && len(ks) == 0 && len(cs) == 0: // launches nothing itself: host time, unless calls inside it are replayed
			if d := c.End - c.Start; d > 0 && !plan.hasInside[i] {
				b.host(c.Process, min(d, int64(trace.MaxDurationNs)))
			}
		case len(ks) > 0:
			for _, k := range ks {
				b.kernel(k)
			}
		case len(cs) > 0:
			async := strings.Contains(c.Name, "Async")
			for _, cp := range cs {
				b.copy(cp, async)
			}
		case c.Name == "hipDeviceSynchronize" || c.Name == "hipCtxSynchronize":
			b.op(c.Process, trace.Op{Op: trace.DeviceSync})
			p.Report.Syncs++
		case b.streamsAndEvents(c):
			p.Report.Syncs++
		case c.Name == "hipStreamSynchronize" || c.Name == "hipEventSynchronize":
			// the records do not say which stream or event: the
			// device's work so far is waited for
			b.op(c.Process, trace.Op{Op: trace.DeviceSync})
			p.Report.Syncs++
			p.Report.approx(c.Name + " waits for all of its device's work (the records do not name the stream or event)")
		default:
			if d := c.End - c.Start; d > 0 {
				b.host(c.Process, min(d, int64(trace.MaxDurationNs)))
			}
			if c.Name != "" {
				p.Report.approx(c.Name + " kept as host time")
			}
		}
	}
	if n := len(threads) - len(procs); n > 0 {
		p.Report.count(&p.Report.Approximated, fmt.Sprintf("host threads merged into their process's one (%d threads in all)", len(threads)))
	}
	for _, ks := range kernels {
		for range ks {
			p.Report.drop("kernel dispatches with no API call of the same correlation id")
		}
	}
	for _, cs := range copies {
		for range cs {
			p.Report.drop("copies with no API call of the same correlation id")
		}
	}
	return b.finish()
}

// streamsAndEvents turns a call that names its stream or event (rocprofv3
// 7.0's API records) into the trace's stream and event operations; false
// if the records do not say enough.
func (b *builder) streamsAndEvents(c Call) bool {
	if !b.byHIP || !c.HasStream && c.Event == "" {
		return false
	}
	ev := func() string { return fmt.Sprintf("r%d.%s", c.Process, c.Event) }
	recorded := b.events[[2]string{fmt.Sprint(c.Process), c.Event}]
	s := b.stream(c.Process, 0, c.Stream, 0)
	switch {
	case c.Name == "hipStreamSynchronize" && c.HasStream:
		b.op(c.Process, trace.Op{Op: trace.StreamSync, Stream: s})
	case (c.Name == "hipEventRecord" || c.Name == "hipEventRecordWithFlags") && c.HasStream && c.Event != "":
		b.op(c.Process, trace.Op{Op: trace.EventRecord, Event: ev(), Stream: s})
		if b.events == nil {
			b.events = map[[2]string]bool{}
		}
		b.events[[2]string{fmt.Sprint(c.Process), c.Event}] = true
	case c.Name == "hipStreamWaitEvent" && c.HasStream && recorded:
		b.op(c.Process, trace.Op{Op: trace.StreamWait, Stream: s, Event: ev()})
	case c.Name == "hipEventSynchronize" && recorded:
		b.op(c.Process, trace.Op{Op: trace.EventSync, Event: ev()})
	default:
		return false
	}
	return true
}

// builder collects a trace's operations per rank.
type builder struct {
	p       *Profile
	am      agents
	lim     Limits
	ops     [][]trace.Op
	streams map[[3]uint64]int  // (process, gcd, stream or queue handle) -> stream number
	next    map[int]int        // process -> its next stream number
	bufs    map[string]*buf    // buffer -> where it is and the bytes it needs
	byHIP   bool               // the records carry HIP stream ids (rocprofv3 7.0), not only queues
	events  map[[2]string]bool // (rank, event) recorded so far
}

// buf is a buffer the copies need: its rank, GCD or NUMA domain, and the
// largest copy through it.
type buf struct {
	proc, gcd, numa int
	bytes           int64
}

func (b *builder) op(proc int, o trace.Op) {
	for len(b.ops) <= proc {
		b.ops = append(b.ops, nil)
	}
	o.Rank = proc
	b.ops[proc] = append(b.ops[proc], o)
}

// host is host time of a rank, in ns, added to the rank's last op if it
// is host time too, in pieces of at most a second.
func (b *builder) host(proc int, ns int64) {
	if proc < len(b.ops) && len(b.ops[proc]) > 0 {
		if last := &b.ops[proc][len(b.ops[proc])-1]; last.Op == trace.HostCompute && last.ComputeNs < trace.MaxComputeNs {
			add := min(ns, int64(trace.MaxComputeNs-last.ComputeNs))
			last.ComputeNs += float64(add)
			ns -= add
		}
	}
	for ns > 0 {
		d := min(ns, int64(trace.MaxComputeNs))
		b.op(proc, trace.Op{Op: trace.HostCompute, ComputeNs: float64(d)})
		ns -= d
	}
}

// stream numbers a rank's streams (or, before rocprofv3 7.0, its queues)
// on a GCD from 1; handle 0 with a stream id is the null stream.
func (b *builder) stream(proc, gcd int, stream, queue uint64) int {
	if b.byHIP && stream == 0 {
		return 0
	}
	h := stream
	if !b.byHIP {
		h = queue
	}
	key := [3]uint64{uint64(proc), uint64(gcd), h} // a queue is its GPU's
	if b.byHIP {
		key[1] = 0 // a HIP stream is the process's, whatever it runs on
	}
	if s, ok := b.streams[key]; ok {
		return s
	}
	if b.next == nil {
		b.next = map[int]int{}
	}
	b.next[proc]++
	b.streams[key] = b.next[proc]
	return b.next[proc]
}

func (b *builder) kernel(k Kernel) {
	g, ok := b.am.gcd[k.Agent]
	if !ok {
		b.p.Report.drop("kernel dispatches on an agent that is not a GPU of the profile")
		return
	}
	wg := max(1, min(k.Workgroup, trace.MaxWorkgroup))
	grid := max(wg, (k.Grid+wg-1)/wg*wg)
	if grid != k.Grid || wg != k.Workgroup {
		b.p.Report.approx("kernel grids rounded up to whole workgroups")
	}
	name := k.Name
	if name == "" {
		name = "kernel"
	}
	o := trace.Op{Op: trace.Kernel, Name: name, GCD: &g, Stream: b.stream(k.Process, g, k.Stream, k.Queue),
		Grid: grid, Workgroup: int(wg), DurationNs: float64(max(1, k.End-k.Start))}
	if k.Counted && k.FetchBytes+k.WriteBytes > 0 { // its bytes drive the memory model, so what-ifs change it
		buf, _ := b.buffer(k.Process, k.Agent, "kernel", max(k.FetchBytes, k.WriteBytes))
		o.DurationNs = 0
		if k.FetchBytes > 0 {
			o.Access = append(o.Access, trace.Access{Buf: buf, Mode: "read", Bytes: k.FetchBytes})
		}
		if k.WriteBytes > 0 {
			o.Access = append(o.Access, trace.Access{Buf: buf, Mode: "write", Bytes: k.WriteBytes})
		}
		b.p.Report.approx("kernels costed from their counters (FETCH_SIZE, WRITE_SIZE) as streams over one buffer of their GCD")
	}
	b.op(k.Process, o)
	b.p.Report.Kernels++
}

// copy is a copy between two agents' buffers of the rank, one buffer per
// agent and direction, as large as the largest copy through it. Host
// memory is taken to be pinned (hipHostMalloc): the records do not say.
func (b *builder) copy(c Copy, async bool) {
	if c.Bytes <= 0 {
		b.p.Report.drop("copies without a byte count (rocprofv3's CSV has none: import its JSON or rocpd output)")
		return
	}
	src, ok1 := b.buffer(c.Process, c.Src, "src", c.Bytes)
	dst, ok2 := b.buffer(c.Process, c.Dst, "dst", c.Bytes)
	if !ok1 || !ok2 {
		b.p.Report.drop("copies from or to an unknown agent")
		return
	}
	sg, srcGPU := b.am.gcd[c.Src]
	dg, dstGPU := b.am.gcd[c.Dst]
	if !srcGPU && !dstGPU {
		b.p.Report.drop("host-to-host copies (not modelled)")
		return
	}
	o := trace.Op{Op: trace.Memcpy, Src: src, Dst: dst, Bytes: c.Bytes}
	if async {
		g := dg
		if srcGPU {
			g = sg
		}
		o.Op, o.Stream = trace.MemcpyAsync, b.stream(c.Process, g, c.Stream, 0)
	}
	if srcGPU && dstGPU && sg != dg {
		o.Op = map[trace.Kind]trace.Kind{trace.Memcpy: trace.MemcpyPeer, trace.MemcpyAsync: trace.MemcpyPeerAsy}[o.Op]
	}
	if !srcGPU || !dstGPU {
		b.p.Report.approx("host buffers taken as pinned (hipHostMalloc)")
	}
	b.op(c.Process, o)
	b.p.Report.Copies++
}

// buffer names rank proc's buffer on agent a for side ("src", "dst").
func (b *builder) buffer(proc int, a uint64, side string, bytes int64) (string, bool) {
	var name string
	at := &buf{proc: proc, gcd: -1, numa: -1}
	if g, ok := b.am.gcd[a]; ok {
		name, at.gcd = fmt.Sprintf("r%d.gcd%d.%s", proc, g, side), g
	} else if n, ok := b.am.numa[a]; ok && n < b.lim.NUMA {
		name, at.numa = fmt.Sprintf("r%d.numa%d.%s", proc, n, side), n
	} else {
		return "", false
	}
	if b.bufs[name] == nil {
		b.bufs[name] = at
	}
	b.bufs[name].bytes = max(b.bufs[name].bytes, bytes)
	return name, true
}

// deviceOrder replays kernels and copies in start order, asynchronously on
// their streams, each rank ending with a device synchronise; the time
// between starts is host time.
func (b *builder) deviceOrder() ([]trace.Op, error) {
	type rec struct {
		proc  int
		start int64
		k     *Kernel
		c     *Copy
	}
	var rs []rec
	for i := range b.p.Kernels {
		k := &b.p.Kernels[i]
		rs = append(rs, rec{k.Process, k.Start, k, nil})
	}
	for i := range b.p.Copies {
		c := &b.p.Copies[i]
		rs = append(rs, rec{c.Process, c.Start, nil, c})
	}
	slices.SortStableFunc(rs, func(x, y rec) int { return cmp.Or(cmp.Compare(x.proc, y.proc), cmp.Compare(x.start, y.start)) })
	b.p.Report.approx("records without API calls replayed in start order, asynchronously (no HIP API trace)")
	for i, r := range rs {
		if i > 0 && rs[i-1].proc == r.proc {
			b.host(r.proc, min(r.start-rs[i-1].start, int64(trace.MaxDurationNs)))
		}
		if r.k != nil {
			b.kernel(*r.k)
		} else {
			b.copy(*r.c, true)
		}
	}
	for p := range b.ops {
		b.op(p, trace.Op{Op: trace.DeviceSync})
	}
	return b.finish()
}

// finish puts each rank's allocations first and the ranks one after another.
func (b *builder) finish() ([]trace.Op, error) {
	var out []trace.Op
	names := make([]string, 0, len(b.bufs))
	for n := range b.bufs {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		x := b.bufs[name]
		o := trace.Op{Op: trace.HostMalloc, Buf: name, Bytes: x.bytes, Rank: x.proc, NUMA: &x.numa}
		if x.gcd >= 0 {
			o = trace.Op{Op: trace.Malloc, Buf: name, Bytes: x.bytes, Rank: x.proc, GCD: &x.gcd}
		}
		out = append(out, o)
	}
	for _, ops := range b.ops {
		out = append(out, ops...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no kernels, copies or HIP calls to import", b.p.Source)
	}
	return out, nil
}

// hasStreams says whether the records carry HIP stream ids (rocprofv3 7.0).
func (p *Profile) hasStreams() bool {
	for _, k := range p.Kernels {
		if k.Stream != 0 {
			return true
		}
	}
	return false
}

// maxWorkItems is the most work-items a kernel may have (trace.Check's
// MaxWorkgroups workgroups of MaxWorkgroup): a profile's larger grid is
// refused before its product could wrap int64.
const maxWorkItems = trace.MaxWorkgroups * trace.MaxWorkgroup

// workItems is the product of a grid's or workgroup's sizes per axis,
// each at least 1, refused past maxWorkItems.
func workItems(xyz ...int64) (int64, error) {
	n := int64(1)
	for _, v := range xyz {
		if v < 1 {
			return 0, fmt.Errorf("size %d is not positive", v)
		}
		if n > maxWorkItems/v {
			return 0, fmt.Errorf("%s work-items: more than a kernel may have (%d)", axes(xyz), int64(maxWorkItems))
		}
		n *= v
	}
	return n, nil
}

// axes writes sizes per axis as AxBxC.
func axes(xyz []int64) string {
	s := make([]string, len(xyz))
	for i, v := range xyz {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, "x")
}
