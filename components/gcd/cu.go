package gcd

import (
	"math/bits"
	"slices"
	"sync"

	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// ComputeUnits are a GCD's CUs and the dispatcher that hands them a
// kernel's workgroups. Each CU works through its share of the kernel's
// memory in steps: it reads a piece of each input, computes, writes a piece
// of each output, and keeps a bounded number of bytes of each stream in
// flight (its memory-level parallelism). Bandwidth then follows from
// Little's law over the real path: a slower or narrower memory shows up as
// on hardware. Steps are sized to fill the in-flight limit exactly, so the
// simulation's step size does not change results.
type ComputeUnits struct {
	*sim.ComponentBase
	engine sim.Engine
	fabric.Senders

	hub       int
	routes    KernelRoutes
	spray     bool // tied routes: alternate per transaction, else one per stream
	gatherOn  bool // a step's pieces of one memory go as one request (sim.stream_gather)
	n         int
	slots     int
	txnBytes  int64                    // simulation granularity: bytes of a stream per step
	line      int64                    // bytes memory moves per access
	maxBytes  int64                    // bytes of each stream a CU keeps in flight
	loadMax   int64                    // if > 0, bytes in flight of a command with uncached loads (host cores: miss buffers)
	uncached  func(fabric.Memory) bool // which memories loadMax applies to
	issueBPS  float64
	launch    sim.VTimeInSec
	end       sim.VTimeInSec
	waveStart sim.VTimeInSec // a refilled slot's new workgroup, to its first load (KernelCmd.OneLoad)
	idle      sim.VTimeInSec // wake-up and packet fetch, paid by a kernel reaching an idle queue
	poll      sim.VTimeInSec // a spinning workgroup's load of a flag: how late it sees a store (phased kernels)
	tlb       *TLB           // translation of page-by-page mappings; nil: not modelled

	CtrlPort, MemPort sim.Port
	ctrl, mem         *fabric.Sender
	xcds              int              // CU i is on XCD i mod xcds
	MemPorts          []sim.Port       // by XCD, into its L2 (MemPort is XCD 0's)
	mems              []*fabric.Sender // by XCD

	queues   map[int][]*KernelCmd // per hardware queue, commands not started yet
	qorder   []int                // the queues, ascending: the order they are scanned in
	busy     map[int]bool         // queues running a command
	running  int                  // commands running
	maxRun   int                  // commands (from different queues) running at once
	pipes    []fabric.Server      // each CU's memory pipe, shared by the kernels on it
	rr       int
	toMem    []memRoutes    // kernel routes to each memory used so far
	packets  fabric.Packets // answered transactions, for reuse
	steps    []*step        // finished steps, for reuse
	cuts     []streamCut    // dispatch's, kept for the next kernel
	gathered []gather       // a step's requests being gathered, kept for the next step

	Kernels, Workgroups, Transactions uint64
	IdleStarts                        uint64 // kernels that found the queue idle and paid the wake-up
	BytesRead, BytesWritten           uint64
}

type kernelRun struct {
	cmd     *KernelCmd
	start   sim.VTimeInSec
	begin   sim.VTimeInSec // its workgroups were dispatched (after wake-up and launch)
	cus     []*cuState
	left    int            // CUs not finished
	max     int64          // bytes of each stream a CU keeps in flight for this command
	lastAck sim.VTimeInSec // when the kernel's last acknowledged byte is in
	parent  *chanRun       // the channel whose phase this run is, if any
	preload *chanRun       // the channel whose phase's preloads this run is, if any
	syncs   int            // L2s yet to answer a release or acquire
	task    string         // its tracing task, when a tracer is hooked (tasks.go)
}

// cuState is one CU's share of a kernel. Progress is counted in bytes of
// its largest stream; the other streams move in proportion.
type cuState struct {
	run        *kernelRun
	id         int // the first CU
	span       int // CUs simulated as one (at least 1)
	workgroups int64
	base       []int64        // per share (stream, reads then writes): first address of this CU's share
	bytes      []int64        // per share: bytes of this CU's share
	streams    []int32        // the stream of each share, ascending; nil: share j is stream j
	total      int64          // bytes of the largest stream
	issued     int64          // of total, issued
	inFlight   int64          // of total, issued and not finished
	open       int            // steps in flight
	lastAck    sim.VTimeInSec // its steps' last acknowledgement so far
	doneAt     sim.VTimeInSec // its share was all moved and acknowledged
	compute    fabric.Server  // its workgroups' compute, as a rate over its bytes
	computed   sim.VTimeInSec // a share without memory: when its compute is done
	task       string         // its tracing task, when a tracer is hooked (tasks.go)
	steps      int            // steps started, to name their tasks
}

// step is one step of a CU in flight: how many reads and writes it awaits.
type step struct {
	cu           *cuState
	from, to     int64 // progress range of the step
	reads, write int
	lastIn       sim.VTimeInSec // when the last byte of the step's reads is in
	ackEnd       sim.VTimeInSec // when the last byte of its writes is acknowledged
	ackSpread    sim.VTimeInSec // over how long its acknowledgements stream in
	spread       sim.VTimeInSec // how long the writes' data follows their first byte
	ev           cuEvent        // its write phase's event: a step waits for one at a time
	task         string         // its tracing task, when its CU's share has one
}

type cuEvent struct {
	fabric.EventAt
	phase int
	s     *step
	run   *kernelRun
	ch    *chanRun
}

const (
	phaseStart = iota
	phaseWrite
	phaseDone
	phaseChannel // a channel's flags are seen: its phase starts
	phaseNext    // a channel's phase is acknowledged: its flags, then the next phase
	phaseTry     // a channel's send credits are seen: its preloads, then its waits for data
	phaseLoaded  // a channel's preloads are in: its phase may compute
	phaseRefill  // a OneLoad kernel's step is acknowledged and its slots hold new workgroups
)

// NotifyRecv takes kernel dispatches and memory responses.
func (c *ComputeUnits) NotifyRecv(now sim.VTimeInSec, port sim.Port) {
	for {
		msg := port.Retrieve(now)
		if msg == nil {
			return
		}
		c.Take(now, port, msg)
	}
}

// Take handles a kernel dispatch or memory response as it arrives.
func (c *ComputeUnits) Take(now sim.VTimeInSec, _ sim.Port, msg sim.Msg) {
	switch m := msg.(type) {
	case *fabric.Packet:
		c.response(now, m)
	case *KernelCmd:
		c.enqueue(now, m)
	}
}

func (c *ComputeUnits) at(t sim.VTimeInSec, phase int, s *step, run *kernelRun) {
	c.engine.Schedule(&cuEvent{EventAt: fabric.EventAt{T: t, H: c}, phase: phase, s: s, run: run})
}

// enqueue takes a command into its hardware queue. One that reaches an
// idle GCD (nothing running, nothing queued) will first wait for the
// command processor to wake and fetch its packet; one queued behind other
// work has its packet prefetched.
func (c *ComputeUnits) enqueue(now sim.VTimeInSec, cmd *KernelCmd) {
	idle := c.running == 0
	for _, q := range c.qorder {
		idle = idle && len(c.queues[q]) == 0
	}
	if k, found := slices.BinarySearch(c.qorder, cmd.Queue); !found {
		c.qorder = slices.Insert(c.qorder, k, cmd.Queue)
	}
	c.queues[cmd.Queue] = append(c.queues[cmd.Queue], cmd)
	c.startNext(now, idle)
}

// startNext starts the head command of every queue not running one, in
// queue order, while fewer than maxRun commands run: commands of one
// queue run in order, those of different queues side by side. idle: the
// GCD was idle, so the one command there is (the first started) pays the
// wake-up.
func (c *ComputeUnits) startNext(now sim.VTimeInSec, idle bool) {
	for _, q := range c.qorder {
		if c.running >= c.maxRun {
			return
		}
		if c.busy[q] || len(c.queues[q]) == 0 {
			continue
		}
		cmd := c.queues[q][0]
		c.queues[q] = c.queues[q][1:]
		c.busy[q] = true
		c.running++
		run := &kernelRun{cmd: cmd, start: now}
		wake := idle
		idle = false
		if cmd.Release {
			c.release(now, run)
			continue
		}
		if cmd.Marker {
			c.at(now, phaseDone, nil, run)
			continue
		}
		c.Kernels++
		if c.NumHooks() > 0 { // Akita's tracing (Daisen): the kernel is a task from its start to its signal
			c.startKernelTask(now, run)
		}
		at := now + c.launch
		if wake {
			c.IdleStarts++
			at += c.idle
		}
		c.at(at, phaseStart, nil, run)
	}
}

// mulDiv is a*b/c without overflow for a, b, c >= 0 and b <= c.
func mulDiv(a, b, c int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, _ := bits.Div64(hi, lo, uint64(c))
	return int64(q)
}

// split is where part x of n of a stream of bytes begins: shares start on
// a line, as the hardware's accesses do, so no line is fetched twice.
func (c *ComputeUnits) split(bytes, x, n int64) int64 {
	if x >= n {
		return bytes
	}
	o := mulDiv(bytes, x, n)
	return o - o%c.line
}

// streamCut is where a kernel's stream stands as dispatch deals its
// workgroups [from, from+count) to the CUs in turn: the CU dealt next
// gets q of them, and one more while its offset r from the stream's first
// is below rem; given of them went to earlier CUs, whose shares end at
// byte at of the stream's traffic.
type streamCut struct {
	addr, traffic    int64 // traffic: of one pass
	passes           int64
	count, q, rem, r int64
	given, at        int64
}

// cutOf is stream m's cut before the first CU, for wg workgroups over n CUs.
func (c *ComputeUnits) cutOf(m *MemStream, wg, n int64) streamCut {
	from, end := int64(0), wg
	if m.End > 0 {
		from, end = m.First, min(m.End, wg)
	}
	s := streamCut{addr: m.Addr, traffic: m.pass(c.line), passes: max(1, m.Passes), count: end - from, r: (n - from%n) % n}
	if s.count > 0 {
		s.q, s.rem = s.count/n, s.count%n
	}
	s.at = c.split(s.traffic, 0, s.count)
	return s
}

// give gives cu (its index in the kernel's streams j) mine more of the
// stream's workgroups, and so the next run of its traffic. A stream of
// several passes gives the CU its run of one pass that many times over
// (sendPasses wraps at its end): each CU goes over its own part of the
// bytes again, as a loop in the kernel does, so an XCD's L2 needs only the
// parts of its CUs.
func (s *streamCut) give(c *ComputeUnits, cu *cuState, j int, mine int64) {
	lo := s.at
	s.given += mine
	s.at = c.split(s.traffic, s.given, s.count)
	cu.base[j], cu.bytes[j] = s.addr+lo, (s.at-lo)*s.passes
	cu.total = max(cu.total, cu.bytes[j])
}

// deal deals the stream's workgroups to the CUs in turn, workgroup w to
// CU w mod n (cus[i] is CU i). With fewer workgroups than CUs only a run
// of rem CUs, from the one the first workgroup goes to, gets one each:
// the others are passed over, their shares left empty.
func (s *streamCut) deal(c *ComputeUnits, cus []cuState, j int, n int64) {
	used := int64(len(cus))
	if s.q > 0 {
		for i := range cus {
			mine := s.q
			if (s.r+int64(i))%n < s.rem {
				mine++
			}
			s.give(c, &cus[i], j, mine)
		}
		return
	}
	first := (n - s.r) % n // the CU at offset 0
	end := first + s.rem
	for i := int64(0); i < min(end-n, used); i++ { // the run wrapped past CU n-1
		s.give(c, &cus[i], j, 1)
	}
	for i := first; i < min(end, n, used); i++ {
		s.give(c, &cus[i], j, 1)
	}
}

// dispatch spreads kernel k's workgroups over the CUs and starts each CU.
func (c *ComputeUnits) dispatch(now sim.VTimeInSec, k *kernelRun) {
	if len(k.cmd.Channels) > 0 {
		c.dispatchPhased(now, k)
		return
	}
	k.begin = now
	wg := k.cmd.Workgroups
	c.Workgroups += uint64(wg)
	if k.cmd.DurationNs > 0 { // a recorded kernel: its time as measured, no memory traffic
		c.at(now+fabric.Ns(k.cmd.DurationNs)+c.end, phaseDone, nil, k)
		return
	}
	k.max = c.maxBytes
	for _, r := range k.cmd.Reads {
		if c.loadMax > 0 && c.uncached(r.Mem) {
			k.max = c.loadMax
		}
	}
	if k.cmd.InFlight > 0 { // the kernel's own loads in flight: its threads x loads each (a benchmark's copy kernel)
		k.max = min(k.max, k.cmd.InFlight)
	}
	// the streams are the reads, then the writes
	reads, writes := k.cmd.Reads, k.cmd.Writes
	ns := len(reads) + len(writes)
	n := int64(c.n)
	used := min(wg, n)
	c.cuts = c.cuts[:0]
	for j := range ns {
		if j < len(reads) {
			c.cuts = append(c.cuts, c.cutOf(&reads[j], wg, n))
		} else {
			c.cuts = append(c.cuts, c.cutOf(&writes[j-len(reads)], wg, n))
		}
	}
	// Workgroups go to the CUs in turn (workgroup w to CU w mod n), as the
	// dispatcher hands them out: a stream's workgroups [from, end), and so
	// its traffic, spread over the CUs even when it is a few rows of a
	// batched kernel's grid whose other blocks exit at once. The CUs with
	// work (the first min(wg, n)) are dealt in a scratch slab the CUs
	// keep, then only the CUs (or groups) that run are copied out: a
	// batched kernel's hundreds of streams over 110 CUs took 0.4 MB a
	// kernel, most of it shares of CUs a group stands for.
	scratch := dealing.Get().(*dealScratch)
	scratch.shares = slices.Grow(scratch.shares[:0], 2*ns*int(used))[:2*ns*int(used)]
	clear(scratch.shares)
	scratch.states = slices.Grow(scratch.states[:0], int(used))[:used]
	shares, states := scratch.shares, scratch.states
	cus := scratch.cus[:0]
	for i := int64(0); i < used; i++ {
		mine := wg / n
		if i < wg%n {
			mine++
		}
		cu := &states[i]
		*cu = cuState{run: k, id: int(i), span: 1, workgroups: mine}
		sh := shares[2*i*int64(ns) : 2*(i+1)*int64(ns) : 2*(i+1)*int64(ns)] // capped: an append may not reach the next CU's
		cu.base, cu.bytes = sh[:ns:ns], sh[ns:]
		cus = append(cus, cu)
	}
	for j := range c.cuts { // a stream's cut depends on its CUs alone
		c.cuts[j].deal(c, states, j, n)
	}
	cus = c.gather(cus, min(k.max, c.txnBytes))
	k.cus = keep(cus, ns)
	clear(states) // nothing of this kernel stays in the scratch
	clear(cus)
	scratch.cus = cus[:0]
	dealing.Put(scratch)
	k.left = len(k.cus)
	if k.left == 0 {
		c.at(now+c.end, phaseDone, nil, k)
		return
	}
	if k.task != "" {
		c.startShareTasks(now, k)
	}
	for _, cu := range k.cus {
		c.start(now, cu)
	}
}

// dealScratch is dispatch's slabs to deal a kernel's shares in. One set
// serves every GCD of a run (and runs side by side, through the pool): a
// set per GCD held 0.6 MB each, a fifth of a 64-GCD MHD step's heap.
type dealScratch struct {
	shares []int64
	states []cuState
	cus    []*cuState
}

var dealing = sync.Pool{New: func() any { return new(dealScratch) }}

// keep copies the CUs that run, each with its shares, out of the scratch
// they were dealt in, into one slab the kernel holds. Only shares with
// bytes are kept, with their streams: a batched kernel's CU touches a
// third of its segments, and its shares were most of an MHD step's CU
// state.
func keep(cus []*cuState, ns int) []*cuState {
	n := 0
	for _, cu := range cus {
		for _, b := range cu.bytes[:ns] {
			if b != 0 {
				n++
			}
		}
	}
	states := make([]cuState, len(cus))
	bases, sizes, streams := make([]int64, n), make([]int64, n), make([]int32, n)
	out := make([]*cuState, len(cus))
	at := 0
	for i, cu := range cus {
		from := at
		for j, b := range cu.bytes[:ns] {
			if b != 0 {
				bases[at], sizes[at], streams[at] = cu.base[j], b, int32(j)
				at++
			}
		}
		states[i] = *cu
		states[i].base, states[i].bytes, states[i].streams = bases[from:at:at], sizes[from:at:at], streams[from:at:at]
		out[i] = &states[i]
	}
	return out
}

// gather simulates neighbouring CUs as one while their shares together
// fit one step (limit: the step size within the in-flight window), so
// each would issue all of its share at once anyway: a batched kernel's
// many segments would otherwise cost a packet per CU and stream. The
// CUs' shares are contiguous, so the group moves their sum through their
// pipes, with their slots and windows. No packet grows beyond a step, so
// the L2 sees hits and misses at the grain it always did.
func (c *ComputeUnits) gather(cus []*cuState, limit int64) []*cuState {
	var largest int64
	for _, cu := range cus {
		largest = max(largest, cu.total)
	}
	g := 1
	if largest > 0 && c.xcds == 1 { // neighbouring CUs of several XCDs are on different dies: never one
		g = int(min(limit/largest, int64(len(cus))))
	}
	if g <= 1 {
		return cus
	}
	var out []*cuState
	for x := 0; x < len(cus); x += g {
		grp := cus[x:min(x+g, len(cus))]
		head := grp[0] // the CUs with work are 0, 1, ...: grp is adjacent CUs
		for _, cu := range grp[1:] {
			head.span++
			head.workgroups += cu.workgroups
			bytes := head.bytes
			base, from, more := head.base[:len(bytes)], cu.base[:len(bytes)], cu.bytes[:len(bytes)]
			for j, b := range bytes {
				if b == 0 {
					base[j] = from[j]
				}
				bytes[j] = b + more[j]
			}
		}
		head.total = 0
		for _, b := range head.bytes {
			head.total = max(head.total, b)
		}
		out = append(out, head)
	}
	return out
}

// start sets a CU's share of a run going: its steps, or one step of
// compute when it has no memory to move.
func (c *ComputeUnits) start(now sim.VTimeInSec, cu *cuState) {
	if cu.total > 0 {
		c.issue(now, cu, 0)
		return
	}
	cu.open++
	if ch := cu.run.parent; ch != nil {
		ch.unwritten++
	}
	s := c.newStep(cu, 0, 0)
	if cu.task != "" {
		c.startStepTask(now, s)
	}
	c.compute(now, s)
}

// newStep is a step of cu over progress [from, to), reusing a finished
// one when it can: a step (and its event) per transaction was the most a
// kernel allocated once its packets were reused.
func (c *ComputeUnits) newStep(cu *cuState, from, to int64) *step {
	n := len(c.steps)
	if n == 0 {
		return &step{cu: cu, from: from, to: to}
	}
	s := c.steps[n-1]
	c.steps = c.steps[:n-1]
	*s = step{cu: cu, from: from, to: to}
	return s
}

// issue starts steps of a CU while it has room: each step is as large as
// the room left, up to the simulation's step size, but at least a line.
//
// A step finished by acknowledgements that stream in frees its bytes as
// they come, so the next reads are requested over the same spread.
func (c *ComputeUnits) issue(now sim.VTimeInSec, cu *cuState, spread sim.VTimeInSec) {
	k := cu.run
	for cu.issued < cu.total {
		window := k.max * int64(max(1, cu.span))
		n := min(c.txnBytes, cu.total-cu.issued, window-cu.inFlight)
		if cu.total > window {
			// more work than the window holds: a step never fills it, so
			// the next one's requests go out while a step's data streams
			// in, as the hardware's lines do
			n = min(n, max(c.line, window/2))
		}
		if cu.open > 0 && n < min(c.line, cu.total-cu.issued) {
			return
		}
		s := c.newStep(cu, cu.issued, cu.issued+n)
		if cu.task != "" {
			c.startStepTask(now, s)
		}
		if k.parent != nil {
			k.parent.unwritten++
		}
		cu.issued += n
		cu.inFlight += n
		cu.open++
		s.reads += c.sendStreams(now, fabric.ReadReq, 0, k.cmd.Reads, s, spread)
		if s.reads == 0 {
			c.compute(now, s)
		}
	}
}

// piece is the address and size of share n's part of step s.
func (c *ComputeUnits) piece(cu *cuState, n int, s *step) (int64, int) {
	lo, hi := c.split(cu.bytes[n], s.from, cu.total), c.split(cu.bytes[n], s.to, cu.total)
	return cu.base[n] + lo, int(hi - lo)
}

// stream is share n's stream.
func (cu *cuState) stream(n int) int {
	if cu.streams == nil {
		return n
	}
	return int(cu.streams[n])
}

// sharesOf are the CU's shares [lo, hi) of streams [j0, j0+m).
func (cu *cuState) sharesOf(j0, m int) (lo, hi int) {
	if cu.streams == nil {
		return j0, j0 + m
	}
	lo, _ = slices.BinarySearch(cu.streams, int32(j0))
	hi, _ = slices.BinarySearch(cu.streams, int32(j0+m))
	return lo, hi
}

// gather is a step's pieces bound for one memory, sent as one request.
type gather struct {
	ms      *MemStream // the first stream's
	j       int
	extents []fabric.Extent
	size    int
}

// gathers says whether a plain kernel's stream may send its pieces with
// others of its memory: each piece going where it alone would (one
// route) in one pass and needing no TLB walk.
func (c *ComputeUnits) gathers(ms *MemStream) bool {
	return ms.Passes <= 1 && (ms.PageBytes == 0 || c.tlb == nil) && len(c.kernelRoutes(ms.Mem)) == 1
}

// sendStreams sends step s's pieces of streams (stream indexes from j0):
// the pieces a gather may hold go as one request per memory, with their
// ranges (a batched kernel's step touches hundreds of segments, each
// once a request), the others one by one. It returns the requests sent.
func (c *ComputeUnits) sendStreams(now sim.VTimeInSec, kind fabric.Kind, j0 int, streams []MemStream, s *step, spread sim.VTimeInSec) int {
	sent := 0
	// the list is the CUs' to reuse, taken while in use: a send may
	// answer at once and so start another step
	gs := c.gathered[:0]
	c.gathered = nil
	k := s.cu.run
	plain := c.gatherOn && k.parent == nil && k.preload == nil // a phased kernel's steps watch their own stores
	lo, hi := s.cu.sharesOf(j0, len(streams))
	for n := lo; n < hi; n++ {
		j := s.cu.stream(n)
		ms := &streams[j-j0]
		off, b := c.piece(s.cu, n, s)
		if b == 0 {
			continue
		}
		if !plain || !c.gathers(ms) {
			sent += c.sendPasses(now, kind, b, ms, off, j, n, s, spread)
			continue
		}
		var g *gather
		gs, g = gatherOf(gs, ms, j)
		g.extents = append(g.extents, fabric.Extent{Addr: off, Size: b})
		g.size += b
	}
	for i := range gs {
		g := &gs[i]
		var ext []fabric.Extent
		if len(g.extents) > 1 {
			ext = g.extents
		}
		c.send(now, kind, g.size, g.ms, g.extents[0].Addr, g.j, s, spread, ext)
		sent++
	}
	c.gathered = gs
	return sent
}

// gatherOf is the gather in gs for stream ms's memory, added if there is
// none yet.
func gatherOf(gs []gather, ms *MemStream, j int) ([]gather, *gather) {
	for i := range gs {
		if g := &gs[i]; g.ms.Mem == ms.Mem && g.ms.NonCoherent == ms.NonCoherent {
			return gs, g
		}
	}
	n := len(gs)
	if n < cap(gs) {
		gs = gs[:n+1]
		gs[n].ms, gs[n].j, gs[n].extents, gs[n].size = ms, j, gs[n].extents[:0], 0
	} else {
		gs = append(gs, gather{ms: ms, j: j})
	}
	return gs, &gs[n]
}

// sendPasses sends a piece of stream j (share n) of a CU whose share goes over its
// part of the bytes Passes times: the piece's place in the share, modulo
// the part, is where it reads or writes, so a piece that runs past the
// part's end goes on from its start. It returns the requests sent.
func (c *ComputeUnits) sendPasses(now sim.VTimeInSec, kind fabric.Kind, size int, ms *MemStream, addr int64, j, n int, s *step, spread sim.VTimeInSec) int {
	if ms.Passes <= 1 {
		c.send(now, kind, size, ms, addr, j, s, spread, nil)
		return 1
	}
	base := s.cu.base[n]
	w := s.cu.bytes[n] / ms.Passes
	at, left, sent := (addr-base)%w, int64(size), 0
	for left > 0 {
		b := min(left, w-at)
		c.send(now, kind, int(b), ms, base+at, j, s, spread, nil)
		left -= b
		at = 0
		sent++
	}
	return sent
}

// send issues a request through the CU's memory pipe (bytes per clock),
// once the TLB has its pages' translations; extents, if any, are the
// ranges of a gather.
func (c *ComputeUnits) send(now sim.VTimeInSec, kind fabric.Kind, size int, ms *MemStream, addr int64, stream int, s *step, spread sim.VTimeInSec, extents []fabric.Extent) {
	cu, m, at := s.cu, ms.Mem, now
	if ms.PageBytes > 0 && c.tlb != nil {
		ready, after := c.tlb.Translate(now, m, addr, size, ms.PageBytes)
		at, spread = max(at, ready), max(spread, after)
	}
	rs := c.kernelRoutes(m)
	pick := stream + cu.id
	if c.spray {
		c.rr++
		pick = c.rr
	}
	c.Transactions++
	x := cu.id % c.xcds // the CU's XCD: its L2 and port into the fabric
	p := c.packets.Request(kind, size, m, rs[pick%len(rs)], c.MemPorts[x], s)
	p.Addr, p.NonCoherent = addr, ms.NonCoherent
	if s.task != "" { // a new or reissued packet has none
		p.Task = &s.task
	}
	if extents != nil {
		p.Extents = append(p.Extents[:0], extents...)
	}
	if ch := cu.run.parent; ch != nil && kind == fabric.WriteReq && ch.inData {
		c.watchWrite(p, ch)
	}
	// the CU issues the request's lines at its pace, handing each on as it
	// goes (cut-through): the request streams out over its issue time
	first, after := c.stream(cu, now, at, size, spread)
	p.Lag, p.Spread = first-now, after
	c.mems[x].Send(now, p)
}

// memRoutes are the kernel routes from the CUs' hub to a memory.
type memRoutes struct {
	mem    fabric.Memory
	routes []fabric.Route
}

// kernelRoutes are the routes of the CUs' traffic to memory m. The node
// works them out once (node.Routes keeps them); the CUs keep the few they
// use in a list, searched faster than the node's table of all pairs is.
func (c *ComputeUnits) kernelRoutes(m fabric.Memory) []fabric.Route {
	for i := range c.toMem {
		if c.toMem[i].mem == m {
			return c.toMem[i].routes
		}
	}
	rs := c.routes.KernelRoutes(c.hub, c.routes.HubOf(m))
	if len(c.toMem) < 16 { // a kernel touches a few memories: past that the list would only cost
		c.toMem = append(c.toMem, memRoutes{m, rs})
	}
	return rs
}

// stream issues size bytes through the pipes of the CUs the state
// stands for, in equal shares: when the first byte leaves and how long
// after it the last follows.
func (c *ComputeUnits) stream(cu *cuState, now, at sim.VTimeInSec, size int, spread sim.VTimeInSec) (first, after sim.VTimeInSec) {
	if cu.span <= 1 {
		return c.pipes[cu.id].Stream(now, at, size, spread)
	}
	var last sim.VTimeInSec
	first = -1
	for x := 0; x < cu.span; x++ {
		b := (size*(x+1))/cu.span - (size*x)/cu.span
		f, a := c.pipes[cu.id+x].Stream(now, at, b, spread)
		if first < 0 || f < first {
			first = f
		}
		last = max(last, f+a)
	}
	return first, last - first
}

// compute runs the step's share of workgroup compute, then its writes.
//
// The CU's workgroups compute through their data in order, up to slots
// of them at once: their compute is a rate, the CU's bytes over its
// workgroups' compute time (a lone workgroup takes all of compute_ns).
// The data streams through it like through any resource: it starts on a
// step's first byte, serves the steps in turn, and results stream out as
// they are computed. Steps in flight together overlap their memory, not
// their compute, and the time does not depend on how large the steps are.
func (c *ComputeUnits) compute(now sim.VTimeInSec, s *step) {
	cu := s.cu
	k := cu.run
	if ch := k.parent; ch != nil && ch.loading {
		ch.gated = append(ch.gated, s) // its other operand is still on its way
		return
	}
	wgs := float64(cu.workgroups)
	d := fabric.Ns(k.cmd.ComputeNs * wgs / min(wgs, float64(c.slots*max(1, cu.span))))
	// the wavefronts work on data as it streams in: results stream out as
	// long after the first as the reads' last byte followed theirs
	s.spread = max(0, s.lastIn-now)
	t := now
	switch {
	case d <= 0:
	case cu.total == 0: // compute alone, nothing to stream
		t = max(now, cu.computed) + d
		cu.computed = t
	default:
		if cu.compute.BytesPerSec == 0 {
			cu.compute.BytesPerSec = float64(cu.total) / float64(d)
		}
		t, s.spread = cu.compute.Stream(now, now, int(s.to-s.from), s.spread)
	}
	if t > now {
		s.ev = cuEvent{EventAt: fabric.EventAt{T: t, H: c}, phase: phaseWrite, s: s}
		c.engine.Schedule(&s.ev)
		return
	}
	c.writes(now, s)
}

func (c *ComputeUnits) writes(now sim.VTimeInSec, s *step) {
	cu := s.cu
	nr := len(cu.run.cmd.Reads)
	if ch := cu.run.parent; ch != nil {
		defer c.dataFlags(ch)
		ch.unwritten--
		// a phased kernel's window holds its loads: stores are posted
		cu.inFlight -= s.to - s.from
	}
	if cu.total > 0 { // a compute-only step writes nothing
		s.write += c.sendStreams(now, fabric.WriteReq, nr, cu.run.cmd.Writes, s, s.spread)
	}
	if s.write == 0 {
		// no writes: the step's bytes are done as the data streams in
		s.ackEnd, s.ackSpread = now+s.spread, s.spread
		c.stepDone(now, s)
		return
	}
	if ch := cu.run.parent; ch != nil {
		// posted stores: the next loads go out now; the phase still ends
		// on the acks
		c.issue(now, cu, 0)
		if ch.state == cu && cu.issued == cu.total && ch.unwritten == 0 {
			c.preloadNext(now, ch)
		}
	}
}

// response takes memory answers in time order (as events when they lag).
func (c *ComputeUnits) response(now sim.VTimeInSec, p *fabric.Packet) {
	if p.Lag > 0 {
		c.engine.Schedule(p.Event(p.TakeLag(now), c, 0))
		return
	}
	switch t := p.Tag.(type) {
	case releaseTag:
		if t.run.syncs--; t.run.syncs == 0 {
			c.done(now, t.run)
		}
		return
	case acquireTag:
		if t.run.syncs--; t.run.syncs == 0 {
			c.dispatch(now, t.run)
		}
		return
	case flagTag:
		return
	}
	s := p.Tag.(*step)
	switch p.Kind {
	case fabric.ReadRsp:
		if n := len(p.Extents); n > 1 {
			// a gather's ranges stand for requests answered in turn:
			// the step may start once its last range starts coming in
			before := p.Size - p.Extents[n-1].Size
			p.Extents = p.Extents[:0]
			if lag := p.Spread * sim.VTimeInSec(before) / sim.VTimeInSec(p.Size); lag > 0 {
				p.Lag, p.Spread = lag, p.Spread-lag
				c.engine.Schedule(p.Event(p.TakeLag(now), c, 0))
				return
			}
		}
		// work starts on the first byte; the last follows Spread later
		s.lastIn = max(s.lastIn, now+p.Spread)
		c.BytesRead += uint64(p.Size)
		c.packets.Put(p)
		if s.reads--; s.reads == 0 {
			c.compute(now, s)
		}
	case fabric.WriteAck:
		// the first bytes are acknowledged now, the last Spread later
		s.ackEnd = max(s.ackEnd, now+p.Spread)
		s.ackSpread = max(s.ackSpread, p.Spread)
		c.BytesWritten += uint64(p.Size)
		c.packets.Put(p)
		if s.write--; s.write == 0 {
			if cu := s.cu; cu.run.cmd.OneLoad && c.waveStart > 0 && cu.issued < cu.total {
				// the step's waves ended; new ones take their slots and
				// load only after their start
				s.ev = cuEvent{EventAt: fabric.EventAt{T: now + c.waveStart, H: c}, phase: phaseRefill, s: s}
				c.engine.Schedule(&s.ev)
				return
			}
			c.stepDone(now, s)
		}
	}
}

func (c *ComputeUnits) stepDone(now sim.VTimeInSec, s *step) {
	cu := s.cu
	if cu.run.parent == nil { // a phased kernel's step left the window at its writes
		cu.inFlight -= s.to - s.from
	}
	cu.open--
	k := cu.run
	k.lastAck = max(k.lastAck, s.ackEnd)
	cu.lastAck = max(cu.lastAck, s.ackEnd)
	spread := s.ackSpread
	if s.task != "" {
		fabric.EndTask(c, s.task, max(now, s.ackEnd))
	}
	c.steps = append(c.steps, s) // done with: nothing holds a step past its last acknowledgement
	if cu.open == 0 && cu.issued == cu.total {
		cu.doneAt = max(now, cu.lastAck)
		if cu.task != "" && k.parent == nil { // a phase's task ends with the phase
			fabric.EndTask(c, cu.task, cu.doneAt)
		}
		if k.left--; k.left == 0 {
			c.finish(max(now, k.lastAck), k)
		}
		return
	}
	c.issue(now, cu, spread)
}

// finish ends kernel k once its last byte is acknowledged, at t.
func (c *ComputeUnits) finish(t sim.VTimeInSec, k *kernelRun) {
	if k.parent != nil { // a channel's phase: no kernel end
		c.engine.Schedule(&cuEvent{EventAt: fabric.EventAt{T: t, H: c}, phase: phaseNext, ch: k.parent})
		return
	}
	if k.preload != nil {
		c.engine.Schedule(&cuEvent{EventAt: fabric.EventAt{T: t, H: c}, phase: phaseLoaded, ch: k.preload})
		return
	}
	c.at(t+c.end, phaseDone, nil, k)
}

// release is a system-scope release and acquire: the L2 writes back its
// dirty lines, so results are visible beyond the GCD, then drops its
// non-local lines; done when every memory has its lines.
func (c *ComputeUnits) release(now sim.VTimeInSec, run *kernelRun) {
	c.syncL2(now, fabric.FlushReq, releaseTag{run}, run)
}

// acquire is a system-scope acquire before a kernel's first workgroup: the
// L2 drops its non-local lines, so the kernel reads what others wrote.
func (c *ComputeUnits) acquire(now sim.VTimeInSec, run *kernelRun) {
	c.syncL2(now, fabric.InvalidateReq, acquireTag{run}, run)
}

// syncL2 asks every XCD's L2 (through its own hub) for a cache
// operation; the run goes on when all have answered.
func (c *ComputeUnits) syncL2(now sim.VTimeInSec, kind fabric.Kind, tag any, run *kernelRun) {
	m := fabric.Memory{Index: c.hub}
	run.syncs = c.xcds
	for x, s := range c.mems {
		s.Send(now, fabric.NewRequest(kind, 0, m, fabric.Route{c.hub}, c.MemPorts[x], tag))
	}
}

// done signals command k's completion and starts what may run now.
func (c *ComputeUnits) done(now sim.VTimeInSec, k *kernelRun) {
	if k.task != "" {
		fabric.EndTask(c, k.task, now)
	}
	c.ctrl.Send(now, &KernelDone{ID: k.cmd.ID, Start: k.start, Begin: max(k.begin, k.start), End: now, StreamEnds: k.streamEnds()})
	c.busy[k.cmd.Queue] = false
	c.running--
	c.startNext(now, false)
}

// streamEnds is when each of the kernel's memory streams (reads, then
// writes) was all moved: the last of the CUs that had a share of it. Only
// streams given to some of the workgroups end apart from the kernel; a
// kernel without such streams gets nil (no allocation per kernel).
func (k *kernelRun) streamEnds() []sim.VTimeInSec {
	ranged := func(ms []MemStream) bool {
		return slices.ContainsFunc(ms, func(m MemStream) bool { return m.End > 0 })
	}
	if len(k.cus) == 0 || k.parent != nil || !ranged(k.cmd.Reads) && !ranged(k.cmd.Writes) {
		return nil
	}
	ends := make([]sim.VTimeInSec, len(k.cmd.Reads)+len(k.cmd.Writes))
	for _, cu := range k.cus {
		for n, b := range cu.bytes {
			if b > 0 {
				j := cu.stream(n)
				ends[j] = max(ends[j], cu.doneAt)
			}
		}
	}
	return ends
}

// releaseTag marks the flush request of a release command, acquireTag
// the invalidate before a kernel with Acquire.
type (
	releaseTag struct{ run *kernelRun }
	acquireTag struct{ run *kernelRun }
)

// Handle runs dispatch, delayed writes, completion and held sends.
func (c *ComputeUnits) Handle(e sim.Event) error {
	now := e.Time()
	switch ev := e.(type) {
	case *fabric.PacketEvent:
		if fabric.IsSendEvent(e) {
			fabric.HandleSendEvent(e)
			return nil
		}
		c.response(now, ev.Pkt)
	case *cuEvent:
		switch ev.phase {
		case phaseStart:
			if ev.run.cmd.Acquire {
				c.acquire(now, ev.run)
				break
			}
			c.dispatch(now, ev.run)
		case phaseWrite:
			c.writes(now, ev.s)
		case phaseRefill:
			c.stepDone(now, ev.s)
		case phaseDone:
			if ev.run.cmd.SystemRelease && !ev.run.cmd.Release {
				c.release(now, ev.run) // done when the L2 has written back
				break
			}
			c.done(now, ev.run)
		case phaseChannel:
			c.startPhase(now, ev.ch)
		case phaseNext:
			c.phaseEnd(now, ev.ch)
		case phaseTry:
			c.tryPhase(now, ev.ch)
		case phaseLoaded:
			c.loaded(now, ev.ch)
		}
	default:
		fabric.HandleSendEvent(e)
	}
	return nil
}

// NotifyPortFree retries held messages.
func (c *ComputeUnits) NotifyPortFree(now sim.VTimeInSec, _ sim.Port) { c.RetryAll(now) }

// WaveLanes is the work-items of a wavefront (CDNA's wave64).
const WaveLanes = 64

// WaveSlots is the wavefronts a CU holds at once: its workgroup slots
// count 128-thread workgroups, two waves each (gcd.workgroup_slots).
func (c *ComputeUnits) WaveSlots() int { return 2 * c.slots }

// Count is the number of CUs.
func (c *ComputeUnits) Count() int { return c.n }

// PipeBusy is the longest any CU's memory pipe was busy.
func (c *ComputeUnits) PipeBusy() sim.VTimeInSec {
	var b sim.VTimeInSec
	for i := range c.pipes {
		b = max(b, c.pipes[i].Busy)
	}
	return b
}
