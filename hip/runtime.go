// Package hip models the HIP runtime on the host: it replays an operation
// stream (a trace or a built-in workload) as a host thread making HIP calls,
// keeps streams and events, picks SDMA engines for copies and drives them
// through their queues. Costs of the runtime live in config.Runtime.
package hip

import (
	"fmt"
	"slices"
	"sort"

	"github.com/akisim/akisim/components/cpu"
	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/gcd"
	"github.com/akisim/akisim/components/sdma"
	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/internal/lineset"
	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"
	"github.com/sarchlab/akita/v3/sim"
)

// Device lists one GCD's copy engines as the runtime sees them.
type Device struct {
	HostEngines []*sdma.Engine
	XGMIEngines []*sdma.Engine
	CUs         *gcd.ComputeUnits
	NUMA        int // the NUMA domain nearest the GCD (its host link's)
}

// OpResult is what happened to one operation.
type OpResult struct {
	Index      int
	Op         *ir.Command    // the loaded trace's op
	Issue      sim.VTimeInSec // host called it
	Start, End sim.VTimeInSec // GPU-side work began and ended (copies), or host return
	Done       bool           // it ended (at End, which may be 0: zero-cost calls at the start)
	Begin      sim.VTimeInSec // a kernel's workgroups were dispatched (a profiler's start); 0 otherwise
	Engine     string         // SDMA engine that ran a copy
	// AccessEnd: for a kernel whose accesses are given to some of its
	// workgroups, when each (in Access order) was all moved, as the last
	// block touching it would clock it; nil otherwise.
	AccessEnd []sim.VTimeInSec
}

// Runtime is the HIP runtime as an Akita component on the host.
type Runtime struct {
	*sim.ComponentBase
	engine sim.Engine
	fabric.Senders

	cost      config.Runtime
	rel       config.ROCmRelease // stack.rocm's release
	env       config.Env
	devices   []Device
	ctrl      map[*sdma.Engine]*fabric.Sender
	kctrl     map[*gcd.ComputeUnits]*fabric.Sender
	threads   []*fabric.Sender // to each node's host cores (nil until built); empty without them
	cores     []*cpu.Cores     // each node's host cores (nil until built)
	dirty     dirtyLines       // host lines CCDs' L3s hold modified (hostcache.go)
	demand    func(node int)   // builds a node the run first touches (OnDemand)
	transport Transport        // a library's copies between nodes (AddNICs)
	nicSlots  [][]*slot        // by global NIC id: its DMA engines as queues to send to
	nicLoad   map[*slot]int    // a NIC DMA engine's commands sent and not done
	nicOn     map[int]*slot    // an RDMA copy in flight: the engine it went to
	numaPer   int              // NUMA domains per node

	store   opStore // the operations loaded (all, or a stream's window)
	bufs    map[string]trace.Buffer
	base    map[string]based        // buffer -> its memory and first address there (alloc.go)
	top     map[fabric.Memory]int64 // next free address of each memory
	unified bool                    // host memory is the GCDs' HBM (an APU node; UnifyHostMemory)
	procs   []*thread               // one host thread per rank (process), ranks ascending
	blocked lineset.Set             // bit i: procs[i] waits (unblock looks at these alone)
	// polling are, by host flag not set yet, the threads blocked polling
	// it, and awaiting, by op not done yet, the thread blocked in it: out
	// of blocked until the flag is set or the op done (unblock would find
	// each not done, and in a collective of many ranks most wait so)
	polling       map[string][]*thread
	awaiting      map[int]*thread
	threadOf      map[int]*thread // procs by rank
	streams       map[int]*stream
	streamOrder   []int // the keys of streams (streamKey), ascending
	waiting       []int // the keys of streams with a stream_wait queued, ascending (eventRecorded)
	events        map[eventKey]sim.VTimeInSec
	lastRecord    map[eventKey]int        // event -> its latest record op queued (what waits see)
	recorded      map[int]bool            // record ops that completed
	flags         map[string]bool         // flags the host has set (flag.go)
	flagWaiters   map[string]map[int]bool // flag -> streams held at their head for it (keys)
	gpuFlags      map[string]*gcd.Flag    // flags kernels poll (phased kernels)
	pick          map[[3]int]*slot
	rr            map[[2]int]int
	paging        map[int]*pageCopy // pageable copies in progress, by op
	staging       map[int]int64     // each GCD's staging buffer: its address
	registered    map[string]bool   // pageable buffers registered now (register.go)
	coarseManaged map[string]bool   // managed buffers advised SetCoarseGrain (grain.go)

	Pageable PageableStats

	managed map[string]*managedBuf // managed buffers' residency (managed.go)
	// managedHint: the managed allocations of the loaded commands, to
	// size managed at its first (a run of many would grow it step by step)
	managedHint int
	migrating   map[int]*migration // migrations in progress, by the op waiting for them
	faulted     map[int]bool       // kernels whose faults were taken
	Managed     ManagedStats

	Results []OpResult
	Err     error
}

// hostEvent resumes a host thread.
type hostEvent struct {
	fabric.EventAt
	th *thread
}

// thread is one host process (an MPI rank) making its HIP calls in order;
// ranks run side by side and share the node.
type thread struct {
	rank    int
	idx     int       // its index in procs: its bit in the runtime's blocked set
	ops     []int     // its ops, as indices into the trace
	next    int       // index into ops of its next call
	cur     int       // the op of its current call
	blocked *blocker  // what it waits for (nil: running); points to wait
	parked  bool      // blocked in a sync not over, out of the runtime's blocked set
	wait    blocker   // its wait, kept in the thread: a call that waits makes no allocation
	streams []*stream // its streams, as made (hipDeviceSynchronize checks them)
	// its own two host events, taken in turn (resume): a thread makes one
	// call at a time, so at most one is pending, and the engine may still
	// hold the other, just handled
	events  [2]hostEvent
	turn    int
	pending int // its host events scheduled and not handled yet
}

// block holds th until b is over (unblockThread).
func (r *Runtime) block(th *thread, b blocker) {
	th.wait, th.blocked = b, &th.wait
	switch {
	case b.kind == "flag" && !r.flags[b.event]:
		r.polling[b.event] = append(r.polling[b.event], th)
	case b.kind == "op" && !r.res(b.op).Done:
		r.awaiting[b.op] = th
	case (b.kind == "stream" || b.kind == "device") && !r.synced(th):
		th.parked = true // until one of its streams moves (streamWent)
	default:
		r.blocked.Add(th.idx, th.idx+1)
	}
}

// finished notes that op i is done: the thread blocked in it, if any, is
// one for unblock to look at.
func (r *Runtime) finished(i int) {
	if th := r.awaiting[i]; th != nil {
		r.blocked.Add(th.idx, th.idx+1)
		delete(r.awaiting, i)
	}
}

// resume schedules thread th's next step at t. A call at a time, without
// an allocation per call: th's own events in turn, or, should one still
// be pending, a new one.
func (r *Runtime) resume(th *thread, t sim.VTimeInSec) {
	var ev *hostEvent
	if th.pending == 0 {
		th.turn ^= 1
		ev = &th.events[th.turn]
	} else {
		ev = new(hostEvent)
	}
	*ev = hostEvent{fabric.EventAt{T: t, H: r}, th}
	th.pending++
	r.engine.Schedule(ev)
}

// NewRuntime makes a runtime for the given devices, costs, ROCm release
// and environment.
// cores are each node's host cores, in node order: a cluster's devices
// are its nodes' GCDs, node by node.
func NewRuntime(name string, engine sim.Engine, cost config.Runtime, rel config.ROCmRelease, env config.Env, devices []Device, cores []*cpu.Cores) *Runtime {
	r := &Runtime{ComponentBase: sim.NewComponentBase(name), engine: engine, cost: cost, rel: rel, env: env,
		devices: devices, ctrl: map[*sdma.Engine]*fabric.Sender{},
		kctrl: map[*gcd.ComputeUnits]*fabric.Sender{}}
	for g, d := range devices {
		r.wireDevice(g, d)
	}
	r.threads = make([]*fabric.Sender, len(cores))
	r.cores = make([]*cpu.Cores, len(cores))
	for k, c := range cores {
		if c != nil {
			r.wireCores(k, c)
		}
	}
	return r
}

// wireDevice gives the runtime a port to each SDMA engine and the CUs of
// GCD g (none for a GCD not built yet).
func (r *Runtime) wireDevice(g int, d Device) {
	for i, e := range append(append([]*sdma.Engine{}, d.HostEngines...), d.XGMIEngines...) {
		var p sim.Port
		p, r.ctrl[e] = r.NewPort(r.engine, r, 1024, r.Name(), fmt.Sprintf("Queue[%d][%d]", g, i))
		fabric.Wire(p, e.CtrlPort)
	}
	if d.CUs != nil {
		var p sim.Port
		p, r.kctrl[d.CUs] = r.NewPort(r.engine, r, 1024, r.Name(), fmt.Sprintf("Dispatch[%d]", g))
		fabric.Wire(p, d.CUs.CtrlPort)
	}
}

// wireCores gives the runtime a port to node k's host cores.
func (r *Runtime) wireCores(k int, c *cpu.Cores) {
	portName := "Threads"
	if len(r.threads) > 1 {
		portName = fmt.Sprintf("Threads[%d]", k)
	}
	p, s := r.NewPort(r.engine, r, 1024, r.Name(), portName)
	fabric.Wire(p, c.CtrlPort)
	r.threads[k], r.cores[k] = s, c
}

// Load sets a trace's operations to replay, starting at time zero.
func (r *Runtime) Load(ops []trace.Op) { r.LoadCommands(ir.FromTrace(ops)) }

// LoadCommands sets the commands to replay, starting at time zero.
func (r *Runtime) LoadCommands(ops []ir.Command) {
	r.reset()
	r.Results = make([]OpResult, len(ops))
	for i := range ops {
		r.Results[i] = OpResult{Index: i, Op: &ops[i]}
	}
	r.store = opStore{chunks: []*opChunk{{ops: ops, res: r.Results}}, chunkLen: max(1, len(ops)), loaded: len(ops), srcDone: true}
	// the ranks in order of first call, each one's calls counted, and the
	// buffers: the threads' lists and the buffer maps are made at their
	// size, not grown (a run of many ranks has hundreds of thousands)
	var ranks []int
	calls := map[int]int{}
	allocs := 0
	for i := range ops {
		if calls[ops[i].Rank]++; calls[ops[i].Rank] == 1 {
			ranks = append(ranks, ops[i].Rank)
		}
		if ops[i].IsAlloc() {
			allocs++
		}
		if ops[i].Op == trace.MallocManaged {
			r.managedHint++
		}
	}
	r.bufs, r.base = make(map[string]trace.Buffer, allocs), make(map[string]based, allocs)
	r.startThreads(ranks)
	var th *thread
	for i := range ops {
		if th == nil || th.rank != ops[i].Rank { // a rank's calls mostly come together
			th = r.threadOf[ops[i].Rank]
			if th.ops == nil {
				th.ops = make([]int, 0, calls[th.rank])
			}
		}
		th.ops = append(th.ops, i)
	}
}

// reset clears what a run leaves behind.
func (r *Runtime) reset() {
	r.bufs = map[string]trace.Buffer{}
	r.base = map[string]based{}
	r.top = map[fabric.Memory]int64{}
	r.streams, r.streamOrder, r.waiting = map[int]*stream{}, nil, nil
	r.events = map[eventKey]sim.VTimeInSec{}
	r.lastRecord = map[eventKey]int{}
	r.recorded = map[int]bool{}
	r.flags, r.gpuFlags, r.flagWaiters = map[string]bool{}, map[string]*gcd.Flag{}, map[string]map[int]bool{}
	r.polling, r.awaiting = map[string][]*thread{}, map[int]*thread{}
	r.pick = map[[3]int]*slot{}
	r.nicLoad, r.nicOn = map[*slot]int{}, map[int]*slot{}
	r.rr = map[[2]int]int{}
	r.paging = map[int]*pageCopy{}
	r.staging = map[int]int64{}
	r.registered = map[string]bool{}
	r.coarseManaged = map[string]bool{}
	r.Pageable = PageableStats{}
	r.managed, r.managedHint, r.migrating, r.faulted, r.Managed = nil, 0, map[int]*migration{}, map[int]bool{}, ManagedStats{}
	r.Results = nil
}

// startThreads makes a host thread for each rank, all starting at time
// zero, in rank order.
func (r *Runtime) startThreads(ranks []int) {
	r.procs = nil
	r.threadOf = map[int]*thread{}
	for _, k := range ranks {
		if r.threadOf[k] == nil {
			th := &thread{rank: k}
			r.threadOf[k] = th
			r.procs = append(r.procs, th)
		}
	}
	sort.Slice(r.procs, func(a, b int) bool { return r.procs[a].rank < r.procs[b].rank })
	r.blocked = lineset.New(len(r.procs))
	for i, th := range r.procs {
		th.idx = i
		r.resume(th, 0)
	}
}

// Ranks is the number of host threads (ranks) of the loaded operations.
func (r *Runtime) Ranks() int { return len(r.procs) }

// Event returns when rank 0's recorded event completed.
func (r *Runtime) Event(name string) (sim.VTimeInSec, bool) { return r.EventOf(0, name) }

// EventOf returns when rank's recorded event completed: each process has
// its own events.
func (r *Runtime) EventOf(rank int, name string) (sim.VTimeInSec, bool) {
	t, ok := r.events[eventKey{rank, name}]
	return t, ok
}

// eventKey names an event of a rank.
type eventKey struct {
	rank int
	name string
}

func ns(v float64) sim.VTimeInSec { return fabric.Ns(v) }

// Handle runs the host thread and delayed sends.
func (r *Runtime) Handle(e sim.Event) error {
	if fabric.IsSendEvent(e) {
		fabric.HandleSendEvent(e)
		return nil
	}
	if me, ok := e.(*migrateEvent); ok {
		r.migrateHop(me.T, me.m)
		r.unblock(me.T)
		return nil
	}
	if pe, ok := e.(*pageEvent); ok {
		r.pageNext(pe.T, pe.pc)
		return nil
	}
	if fe, ok := e.(*flagEvent); ok {
		switch {
		case fe.gpu:
			r.gpuFlag(fe.flag).Store(fe.T)
		case fe.flag != "":
			r.setFlag(fe.T, fe.flag)
		}
		r.unblock(fe.T)
		return nil
	}
	th := e.(*hostEvent).th
	th.pending--
	r.step(e.Time(), th)
	return nil
}

// step performs thread th's next host call at now.
func (r *Runtime) step(now sim.VTimeInSec, th *thread) {
	if th.blocked != nil || r.Err != nil {
		return
	}
	for th.next >= len(th.ops) {
		if !r.pull() { // a streamed trace: its next chunk, if any
			return
		}
	}
	i := th.ops[th.next]
	th.cur = i
	op := r.op(i)
	filled := op.Op == trace.Memset
	if filled { // ROCclr fills on the host or with a kernel (memset.go)
		r.lowerMemset(op)
	}
	res := r.res(i)
	res.Issue = now
	th.next++
	next := now + ns(r.cost.APICallNs)
	if op.NIC != nil || op.Op == trace.FlagSet || op.Op == trace.FlagWait {
		// not HIP calls: a library's NIC command costs the NIC's time
		// (nic.command_ns); a host thread's store to a flag or a poll of one
		// costs no more than its own loads and stores
		next = now
	}
	switch op.Op {
	case trace.Malloc:
		r.allocate(trace.Buffer{Name: op.Buf, GCD: *op.GCD, Bytes: op.Bytes, Coarse: !op.Fine})
	case trace.HostMalloc, trace.MallocPageable:
		r.allocate(trace.Buffer{Name: op.Buf, Host: true, Pageable: op.Op == trace.MallocPageable, NUMA: *op.NUMA, Bytes: op.Bytes,
			Coarse: op.NonCoherent})
	case trace.MallocManaged:
		if err := r.managedAlloc(trace.Buffer{Name: op.Buf, Host: true, Managed: true, NUMA: *op.NUMA, Bytes: op.Bytes}); err != nil {
			r.Err = fmt.Errorf("op %d (line %d): %w", i, op.Line, err)
			return
		}
	case trace.MemAdvise: // an ioctl that sets the range's attributes
		r.advise(op)
	case trace.HostRegister: // the host locks the pages itself (register.go)
		r.registered[op.Buf] = true
		next += ns(r.pinNs(op.Buf, r.bufs[op.Buf].Bytes, false))
	case trace.HostUnregister: // ROCclr waits for the device first
		r.block(th, blocker{kind: "device", unregister: op.Buf})
	case trace.Prefetch: // in stream order; ROCclr blocks the caller until it is done
		s := r.stream(op)
		s.queue = append(s.queue, item{op: i, prefetch: true})
		r.dispatch(now, s)
		r.block(th, blocker{kind: "op", op: i})
	case trace.Memcpy, trace.MemcpyPeer, trace.MemcpyAsync, trace.MemcpyPeerAsy:
		it, err := r.copyItem(i, op)
		if err != nil && r.awaitsPeer(op) {
			it, err = item{op: i, unresolved: true}, nil // decided when its flag is set (dispatch)
		}
		if err != nil {
			r.Err = fmt.Errorf("op %d (line %d): %v", i, op.Line, err)
			return
		}
		s := r.stream(op)
		s.queue = append(s.queue, it)
		r.dispatch(now, s)
		if !op.IsAsync() || it.page { // a pageable copy returns when done
			r.block(th, blocker{kind: "op", op: i})
		}
	case trace.Kernel:
		s := r.stream(op)
		s.queue = append(s.queue, item{op: i, cus: r.device(*op.GCD).CUs})
		r.dispatch(now, s)
	case trace.EventRecord:
		s := r.stream(op)
		r.lastRecord[eventKey{op.Rank, op.Event}] = i
		s.queue = append(s.queue, item{op: i, event: op.Event})
		r.dispatch(now, s)
	case trace.StreamWait:
		s := r.stream(op)
		r.queueWait(s, item{op: i, event: op.Event, wait: true, record: r.recordOf(op.Rank, op.Event)})
		r.dispatch(now, s)
	case trace.HostAccess:
		// the host thread itself loads or stores: it waits until done
		if len(r.threads) == 0 {
			r.Err = fmt.Errorf("op %d (line %d): the node has no host cores", i, op.Line)
			return
		}
		if !r.cpuFaulting(now, i) { // managed pages on a GCD come back first (managed.go)
			r.hostAccess(now, i)
		}
		r.block(th, blocker{kind: "op", op: i})
	case trace.FlagSet:
		r.setFlag(now, op.Flag)
	case trace.FlagWait: // a poll of shared host memory
		if op.GPUCount > 0 {
			r.waitGPUFlag(now, th, op.Flag, op.GPUCount)
			break
		}
		if !r.flags[op.Flag] {
			r.block(th, blocker{kind: "flag", event: op.Flag})
		}
	case trace.HostCompute: // the host's own work, not a HIP call
		next = now + ns(op.ComputeNs)
	case trace.SetEnv:
		// applied to the config before the run (the resolved config has it)
	case trace.EventSync:
		r.block(th, blocker{kind: "event", event: op.Event, op: r.recordOf(op.Rank, op.Event)})
	case trace.StreamSync:
		r.block(th, blocker{kind: "stream", stream: op.Stream})
	case trace.DeviceSync, trace.Free: // hipFree synchronizes the device before it frees
		r.block(th, blocker{kind: "device"})
	default:
		r.Err = fmt.Errorf("op %d (line %d): %s is not supported by this model", i, op.Line, op.Op)
		return
	}
	if filled && op.Op == trace.Kernel { // hipMemset returns when its fill kernel is done
		r.block(th, blocker{kind: "op", op: i})
	}
	if th.blocked != nil {
		r.unblockThread(now, th)
		return
	}
	res.Start, res.End, res.Done = now, next, true
	r.resume(th, next)
}

// NotifyRecv takes completion signals.
func (r *Runtime) NotifyRecv(now sim.VTimeInSec, port sim.Port) {
	for {
		msg := port.Retrieve(now)
		if msg == nil {
			break
		}
		var id int
		var start, begin sim.VTimeInSec
		var streamEnds []sim.VTimeInSec
		switch d := msg.(type) {
		case *sdma.CopyDone:
			id, start = d.ID, d.Start
			if sl, ok := r.nicOn[id]; ok {
				r.nicLoad[sl]--
				delete(r.nicOn, id)
			}
		case *gcd.KernelDone:
			id, start, begin, streamEnds = d.ID, d.Start, d.Begin, d.StreamEnds
		}
		if m := r.migrating[id]; m != nil {
			r.migrateHop(now, m)
			continue
		}
		if pc := r.paging[id]; pc != nil {
			r.pageNext(now, pc)
			continue
		}
		res := r.res(id)
		res.Start, res.End, res.Begin, res.Done = start, now, begin, true
		r.finished(id)
		if res.Op.Op == trace.Kernel && len(res.Op.Channels) == 0 && len(streamEnds) == len(res.Op.Access) {
			res.AccessEnd = accessEnds(res.Op.Access, streamEnds)
		}
		if res.Op.Op == trace.EventRecord { // its marker reached: recorded
			t := now + ns(r.cost.EventRecordNs)
			r.events[eventKey{res.Op.Rank, res.Op.Event}] = t
			r.recorded[id] = true
			res.Start, res.End = t, t
			r.eventRecorded(now)
		}
		if res.Op.SetFlag != "" && (res.Op.Op == trace.Kernel || res.Op.IsCopy()) {
			r.setFlag(now, res.Op.SetFlag) // its last store, seen with the completion signal
		}
		if res.Op.SetGPUFlag != "" {
			r.gpuFlag(res.Op.SetGPUFlag).Store(now)
		}
		if res.Op.Op == trace.HostAccess {
			continue // the host's own work, in no stream
		}
		s := r.stream(res.Op)
		s.inflight--
		r.streamWent(s)
		if k := slices.Index(s.live, id); k >= 0 {
			s.live = slices.Delete(s.live, k, k+1)
		}
		if s.inflight == 0 {
			r.dispatch(now, s)
		}
	}
	r.unblock(now)
}

// accessEnds orders a kernel's stream ends (its reads, then its writes,
// as memStreams made them) by access.
func accessEnds(access []trace.Access, streamEnds []sim.VTimeInSec) []sim.VTimeInSec {
	reads := 0
	for _, a := range access {
		if a.Mode != "write" {
			reads++
		}
	}
	out := make([]sim.VTimeInSec, len(access))
	r, w := 0, reads
	for i, a := range access {
		if a.Mode == "write" {
			out[i], w = streamEnds[w], w+1
		} else {
			out[i], r = streamEnds[r], r+1
		}
	}
	return out
}

// NotifyPortFree retries held commands.
func (r *Runtime) NotifyPortFree(now sim.VTimeInSec, _ sim.Port) { r.RetryAll(now) }
