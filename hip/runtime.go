// Package hip models the HIP runtime on the host: it replays an operation
// stream (a trace or a built-in workload) as a host thread making HIP calls,
// keeps streams and events, picks SDMA engines for copies and drives them
// through their queues. Costs of the runtime live in config.Runtime.
package hip

import (
	"fmt"

	"github.com/akisim/akisim/components/cpu"
	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/gcd"
	"github.com/akisim/akisim/components/sdma"
	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/trace"
	"github.com/sarchlab/akita/v3/sim"
)

// Device lists one GCD's copy engines as the runtime sees them.
type Device struct {
	HostEngines []*sdma.Engine
	XGMIEngines []*sdma.Engine
	CUs         *gcd.ComputeUnits
}

// OpResult is what happened to one operation.
type OpResult struct {
	Index      int
	Op         trace.Op
	Issue      sim.VTimeInSec // host called it
	Start, End sim.VTimeInSec // GPU-side work began and ended (copies), or host return
	Engine     string         // SDMA engine that ran a copy
}

// slot is an SDMA queue of an engine: where a stream's copies go.
type slot struct {
	engine *sdma.Engine
	queue  int
}

type item struct {
	op     int
	engine *slot
	cus    *gcd.ComputeUnits // a kernel's GCD
	blit   bool              // a copy run as a blit kernel
	flush  bool              // a system-scope release on cus before an event
	event  string
	wait   bool
}

type stream struct {
	id       int
	queue    []item
	inflight int
	last     any               // the SDMA queue or CU array running the stream's work
	dirty    *gcd.ComputeUnits // CUs whose kernels ran since the stream's last release
}

type blocker struct {
	kind   string // "op", "event", "stream", "device"
	op     int
	event  string
	stream int
}

// Runtime is the HIP runtime as an Akita component on the host.
type Runtime struct {
	*sim.ComponentBase
	engine sim.Engine
	fabric.Senders

	cost    config.Runtime
	env     config.Env
	devices []Device
	ctrl    map[*sdma.Engine]*fabric.Sender
	kctrl   map[*gcd.ComputeUnits]*fabric.Sender
	threads *fabric.Sender // to the host's cores; nil without them

	ops     []trace.Op
	bufs    map[string]trace.Buffer
	base    map[string]int64        // buffer -> its first address in its memory
	top     map[fabric.Memory]int64 // next free address of each memory
	pc      int
	blocked *blocker
	streams map[int]*stream
	events  map[string]sim.VTimeInSec
	flags   map[string]bool // flags the host has set (flag.go)
	pick    map[[3]int]*slot
	rr      map[[2]int]int

	Results []OpResult
	Err     error
}

type hostEvent struct{ fabric.EventAt }

// NewRuntime makes a runtime for the given devices, costs and environment.
func NewRuntime(name string, engine sim.Engine, cost config.Runtime, env config.Env, devices []Device, cores *cpu.Cores) *Runtime {
	r := &Runtime{ComponentBase: sim.NewComponentBase(name), engine: engine, cost: cost, env: env,
		devices: devices, ctrl: map[*sdma.Engine]*fabric.Sender{},
		kctrl: map[*gcd.ComputeUnits]*fabric.Sender{}}
	for g, d := range devices {
		for i, e := range append(append([]*sdma.Engine{}, d.HostEngines...), d.XGMIEngines...) {
			var p sim.Port
			p, r.ctrl[e] = r.NewPort(engine, r, 1024, name, fmt.Sprintf("Queue[%d][%d]", g, i))
			fabric.Wire(p, e.CtrlPort)
		}
		if d.CUs != nil {
			var p sim.Port
			p, r.kctrl[d.CUs] = r.NewPort(engine, r, 1024, name, fmt.Sprintf("Dispatch[%d]", g))
			fabric.Wire(p, d.CUs.CtrlPort)
		}
	}
	if cores != nil {
		var p sim.Port
		p, r.threads = r.NewPort(engine, r, 1024, name, "Threads")
		fabric.Wire(p, cores.CtrlPort)
	}
	return r
}

// Load sets the operations to replay, starting at time zero.
func (r *Runtime) Load(ops []trace.Op) {
	r.ops = ops
	r.pc = 0
	r.bufs = map[string]trace.Buffer{}
	r.base = map[string]int64{}
	r.top = map[fabric.Memory]int64{}
	r.streams = map[int]*stream{}
	r.events = map[string]sim.VTimeInSec{}
	r.flags = map[string]bool{}
	r.pick = map[[3]int]*slot{}
	r.rr = map[[2]int]int{}
	r.Results = make([]OpResult, len(ops))
	for i := range ops {
		r.Results[i] = OpResult{Index: i, Op: ops[i]}
	}
	r.engine.Schedule(&hostEvent{fabric.EventAt{T: 0, H: r}})
}

// Event returns when a recorded event completed.
func (r *Runtime) Event(name string) (sim.VTimeInSec, bool) {
	t, ok := r.events[name]
	return t, ok
}

func ns(v float64) sim.VTimeInSec { return fabric.Ns(v) }

// Handle runs the host thread and delayed sends.
func (r *Runtime) Handle(e sim.Event) error {
	if fabric.IsSendEvent(e) {
		fabric.HandleSendEvent(e)
		return nil
	}
	r.step(e.Time())
	return nil
}

// step performs the next host call at now.
func (r *Runtime) step(now sim.VTimeInSec) {
	if r.pc >= len(r.ops) || r.blocked != nil || r.Err != nil {
		return
	}
	i := r.pc
	op := &r.ops[i]
	res := &r.Results[i]
	res.Issue = now
	r.pc++
	next := now + ns(r.cost.APICallNs)
	switch op.Op {
	case trace.Malloc:
		r.allocate(trace.Buffer{Name: op.Buf, GCD: *op.GCD, Bytes: op.Bytes})
	case trace.HostMalloc:
		r.allocate(trace.Buffer{Name: op.Buf, Host: true, NUMA: *op.NUMA, Bytes: op.Bytes})
	case trace.Memcpy, trace.MemcpyPeer, trace.MemcpyAsync, trace.MemcpyPeerAsy:
		it, err := r.copyItem(i, op)
		if err != nil {
			r.Err = fmt.Errorf("op %d (line %d): %v", i, op.Line, err)
			return
		}
		s := r.stream(op.Stream)
		s.queue = append(s.queue, it)
		r.dispatch(now, s)
		if !op.IsAsync() {
			r.blocked = &blocker{kind: "op", op: i}
		}
	case trace.Kernel:
		s := r.stream(op.Stream)
		s.queue = append(s.queue, item{op: i, cus: r.devices[*op.GCD].CUs})
		r.dispatch(now, s)
	case trace.EventRecord:
		s := r.stream(op.Stream)
		delete(r.events, op.Event)
		s.queue = append(s.queue, item{op: i, event: op.Event})
		r.dispatch(now, s)
	case trace.StreamWait:
		s := r.stream(op.Stream)
		s.queue = append(s.queue, item{op: i, event: op.Event, wait: true})
		r.dispatch(now, s)
	case trace.HostAccess:
		// the host thread itself loads or stores: it waits until done
		if r.threads == nil {
			r.Err = fmt.Errorf("op %d (line %d): the node has no host cores", i, op.Line)
			return
		}
		k := r.accessCmd(i)
		k.Workgroups = int64(max(1, op.Threads))
		r.threads.Send(now, k)
		r.blocked = &blocker{kind: "op", op: i}
	case trace.FlagSet:
		r.setFlag(now, op.Flag)
	case trace.SetEnv:
		// applied to the config before the run (the resolved config has it)
	case trace.EventSync:
		r.blocked = &blocker{kind: "event", event: op.Event}
	case trace.StreamSync:
		r.blocked = &blocker{kind: "stream", stream: op.Stream}
	case trace.DeviceSync:
		r.blocked = &blocker{kind: "device"}
	default:
		r.Err = fmt.Errorf("op %d (line %d): %s is not supported by this model", i, op.Line, op.Op)
		return
	}
	if r.blocked != nil {
		r.unblock(now)
		return
	}
	res.Start, res.End = now, next
	r.engine.Schedule(&hostEvent{fabric.EventAt{T: next, H: r}})
}

// unblock resumes the host thread if what it waits for is done.
func (r *Runtime) unblock(now sim.VTimeInSec) {
	b := r.blocked
	if b == nil {
		return
	}
	done := false
	switch b.kind {
	case "op":
		done = r.Results[b.op].End > 0
	case "event":
		_, done = r.events[b.event]
	case "stream":
		s := r.stream(b.stream)
		done = len(s.queue) == 0 && s.inflight == 0
	case "device":
		done = true
		for _, s := range r.streams {
			done = done && len(s.queue) == 0 && s.inflight == 0
		}
	}
	if !done {
		return
	}
	r.blocked = nil
	i := r.pc - 1
	t := now + ns(r.cost.SyncCallNs)
	if b.kind != "op" {
		r.Results[i].Start, r.Results[i].End = r.Results[i].Issue, t
	}
	r.engine.Schedule(&hostEvent{fabric.EventAt{T: t, H: r}})
}

func (r *Runtime) stream(id int) *stream {
	s, ok := r.streams[id]
	if !ok {
		s = &stream{id: id}
		r.streams[id] = s
	}
	return s
}

// dispatch starts the work at the head of a stream, in stream order. Copies
// on the engine already running the stream's copies queue behind them; the
// engine keeps their order.
func (r *Runtime) dispatch(now sim.VTimeInSec, s *stream) {
	for len(s.queue) > 0 {
		it := s.queue[0]
		switch {
		case it.cus != nil:
			if !r.flagReady(it) {
				return // resumed by the flag_set (flag.go)
			}
			if s.inflight > 0 && s.last != it.cus {
				return
			}
			var cmd *gcd.KernelCmd
			switch {
			case it.flush:
				cmd = &gcd.KernelCmd{ID: it.op, Release: true}
				s.dirty = nil
			case it.blit:
				cmd = r.blitCmd(it.op)
			default:
				cmd = r.kernelCmd(it.op)
				s.dirty = it.cus
			}
			if it.blit {
				s.dirty = it.cus
			}
			at := now + ns(r.cost.DoorbellNs)
			if it.flush { // the release is part of the event's packet: no doorbell of its own
				at = now
			}
			r.kctrl[it.cus].SendAt(now, at, cmd)
			r.Results[it.op].Engine = it.cus.Name()
			s.inflight++
			s.last = it.cus
		case it.engine != nil:
			if s.inflight > 0 && s.last != it.engine {
				return
			}
			op := &r.ops[it.op]
			src, dst := r.bufs[op.Src], r.bufs[op.Dst]
			cmd := &sdma.CopyCmd{ID: it.op, Queue: it.engine.queue, Src: memOf(src), Dst: memOf(dst), Bytes: op.Bytes}
			r.ctrl[it.engine.engine].SendAt(now, now+ns(r.cost.DoorbellNs), cmd)
			r.Results[it.op].Engine = it.engine.engine.Name()
			s.inflight++
			s.last = it.engine
		case it.wait:
			if s.inflight > 0 {
				return
			}
			if _, ok := r.events[it.event]; !ok {
				return // resumed when the event is recorded
			}
		default: // event record
			if s.inflight > 0 {
				return
			}
			if s.dirty != nil && r.cost.EventRelease == "system" {
				// the event is a system-scope release: the GCD's L2
				// writes back what the stream's kernels left dirty
				s.queue = append([]item{{op: it.op, cus: s.dirty, flush: true}}, s.queue...)
				continue
			}
			t := now + ns(r.cost.EventRecordNs)
			r.events[it.event] = t
			r.Results[it.op].Start, r.Results[it.op].End = t, t
			r.eventRecorded(now)
		}
		s.queue = s.queue[1:]
	}
}

func (r *Runtime) eventRecorded(now sim.VTimeInSec) {
	for _, id := range r.streamIDs() {
		s := r.streams[id]
		if len(s.queue) > 0 && s.queue[0].wait && s.inflight == 0 {
			r.dispatch(now, s)
		}
	}
}

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

// kernelCmd turns a kernel launch into the GCD's dispatch packet: its
// workgroups and the memory streams of its accesses.
func (r *Runtime) kernelCmd(i int) *gcd.KernelCmd {
	op := &r.ops[i]
	k := r.accessCmd(i)
	k.Workgroups, k.ComputeNs = op.Grid/int64(op.Workgroup), op.ComputeNs
	return k
}

// accessCmd is the dispatch packet of an op's memory accesses.
func (r *Runtime) accessCmd(i int) *gcd.KernelCmd {
	op := &r.ops[i]
	k := &gcd.KernelCmd{ID: i}
	for _, a := range op.Access {
		m := gcd.MemStream{Mem: memOf(r.bufs[a.Buf]), Addr: r.base[a.Buf] + a.Offset, Bytes: a.Bytes,
			Pattern: a.Pattern, Stride: a.Stride, Element: a.Element}
		if a.Mode == "write" {
			k.Writes = append(k.Writes, m)
		} else {
			k.Reads = append(k.Reads, m)
		}
	}
	return k
}

// blitCmd is the copy kernel the runtime launches instead of an SDMA copy.
func (r *Runtime) blitCmd(i int) *gcd.KernelCmd {
	op := &r.ops[i]
	per := r.cost.BlitWorkgroupBytes
	wgs := (op.Bytes + per - 1) / per
	return &gcd.KernelCmd{ID: i, Workgroups: wgs,
		Reads:  []gcd.MemStream{{Mem: memOf(r.bufs[op.Src]), Addr: r.base[op.Src] + op.SrcOff, Bytes: op.Bytes}},
		Writes: []gcd.MemStream{{Mem: memOf(r.bufs[op.Dst]), Addr: r.base[op.Dst] + op.DstOff, Bytes: op.Bytes}}}
}

// copyItem decides how a copy runs: on an SDMA queue, or as a blit kernel
// on the CUs of the GCD whose memory it touches (the source GCD for peer
// copies) when it stays within one GCD, or with HSA_ENABLE_SDMA=0
// (HSA_ENABLE_PEER_SDMA=0 for peer copies).
func (r *Runtime) copyItem(i int, op *trace.Op) (item, error) {
	src, ok1 := r.bufs[op.Src]
	dst, ok2 := r.bufs[op.Dst]
	if !ok1 || !ok2 {
		return item{}, fmt.Errorf("copy names an unallocated buffer")
	}
	peer := !src.Host && !dst.Host
	local := peer && src.GCD == dst.GCD // ROCm copies within one GCD with a kernel
	if local || r.env.EnableSDMA == 0 || (peer && r.env.EnablePeerSDMA == 0) {
		g := src.GCD
		if src.Host {
			g = dst.GCD
		}
		if src.Host && dst.Host {
			return item{}, fmt.Errorf("host-to-host copies are not modelled")
		}
		return item{op: i, cus: r.devices[g].CUs, blit: true}, nil
	}
	eng, err := r.engineFor(op)
	return item{op: i, engine: eng}, err
}

func memOf(b trace.Buffer) fabric.Memory {
	if b.Host {
		return fabric.Memory{Host: true, Index: b.NUMA}
	}
	return fabric.Memory{Index: b.GCD}
}

// engineFor picks the SDMA engine and queue for a copy: host copies use the
// host engines of the GCD holding the device buffer, peer copies the xGMI
// engines of the source GCD. Each stream keeps its queue; streams spread
// over engines first, then over each engine's queues.
func (r *Runtime) engineFor(op *trace.Op) (*slot, error) {
	src, ok1 := r.bufs[op.Src]
	dst, ok2 := r.bufs[op.Dst]
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("copy names an unallocated buffer")
	}
	var gcd, class int
	switch {
	case src.Host && dst.Host:
		return nil, fmt.Errorf("host-to-host copies are not modelled")
	case src.Host:
		gcd, class = dst.GCD, 0
	case dst.Host:
		gcd, class = src.GCD, 0
	default:
		gcd, class = src.GCD, 1
	}
	key := [3]int{op.Stream, gcd, class}
	if e, ok := r.pick[key]; ok {
		return e, nil
	}
	list := r.devices[gcd].HostEngines
	if class == 1 {
		list = r.devices[gcd].XGMIEngines
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("GCD %d has no SDMA engine for this copy", gcd)
	}
	n := r.rr[[2]int{gcd, class}]
	r.rr[[2]int{gcd, class}] = n + 1
	e := list[n%len(list)]
	sl := &slot{engine: e, queue: (n / len(list)) % e.Queues()}
	r.pick[key] = sl
	return sl, nil
}

// NotifyRecv takes completion signals.
func (r *Runtime) NotifyRecv(now sim.VTimeInSec, port sim.Port) {
	for {
		msg := port.Retrieve(now)
		if msg == nil {
			break
		}
		var id int
		var start sim.VTimeInSec
		switch d := msg.(type) {
		case *sdma.CopyDone:
			id, start = d.ID, d.Start
		case *gcd.KernelDone:
			id, start = d.ID, d.Start
		}
		res := &r.Results[id]
		res.Start, res.End = start, now
		if res.Op.Op == trace.HostAccess {
			continue // the host's own work, in no stream
		}
		s := r.stream(res.Op.Stream)
		s.inflight--
		if s.inflight == 0 {
			r.dispatch(now, s)
		}
	}
	r.unblock(now)
}

// NotifyPortFree retries held commands.
func (r *Runtime) NotifyPortFree(now sim.VTimeInSec, _ sim.Port) { r.RetryAll(now) }

func (r *Runtime) streamIDs() []int {
	ids := make([]int, 0, len(r.streams))
	for id := range r.streams {
		ids = append(ids, id)
	}
	for i := 1; i < len(ids); i++ { // deterministic order
		for j := i; j > 0 && ids[j] < ids[j-1]; j-- {
			ids[j], ids[j-1] = ids[j-1], ids[j]
		}
	}
	return ids
}
