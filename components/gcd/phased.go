package gcd

import (
	"slices"

	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// chanRun is one channel (workgroup) of a phased kernel in progress.
type chanRun struct {
	k      *kernelRun
	phases []Phase
	next   int // the phase running or to run
	cu     int // the CU the workgroup is on

	// flags riding in the data (no fence): whether the phase has any, its
	// writes not yet issued or not yet landed, and when the last landed
	state               *cuState // the phase's run on the CU
	inData              bool
	unwritten, unlanded int
	lastLand            sim.VTimeInSec
	signalled           bool

	// the phase's preloads: started for phase preloaded, not yet all in
	// (loading), and the steps whose compute waits for them
	preloaded int
	loading   bool
	gated     []*step

	task, phaseTask string // the channel's tracing task and its phase's, when traced (tasks.go)
}

// dispatchPhased starts every channel of a phased kernel on its CU, as the
// dispatcher places workgroup i on CU i mod n.
func (c *ComputeUnits) dispatchPhased(now sim.VTimeInSec, k *kernelRun) {
	c.Workgroups += uint64(len(k.cmd.Channels))
	k.max = c.maxBytes
	if k.cmd.InFlight > 0 {
		k.max = k.cmd.InFlight
	}
	var chans []*chanRun
	for i, ps := range k.cmd.Channels {
		if len(ps) > 0 {
			ch := &chanRun{k: k, phases: ps, cu: i % c.n, preloaded: -1}
			if k.task != "" {
				c.startChannelTask(now, ch, i)
			}
			chans = append(chans, ch)
		}
	}
	k.left = len(chans)
	if k.left == 0 {
		c.at(now+c.end, phaseDone, nil, k)
		return
	}
	for _, ch := range chans {
		c.tryPhase(now, ch)
	}
}

// tryPhase starts the channel's next phase once its flags have their
// counts: the poll that sees the last of them costs a load of the flag's
// memory. A flag short of its count parks the channel until a store lands.
// A phase with preloads issues them once its other flags (send credits)
// are seen, before it waits for the data it receives.
func (c *ComputeUnits) tryPhase(now sim.VTimeInSec, ch *chanRun) {
	c.startPhaseTask(now, ch)
	ph := &ch.phases[ch.next]
	preload := len(ph.Preload) > 0 && ch.preloaded != ch.next
	at := now
	for _, w := range ph.Waits {
		if preload && w.Recv {
			continue
		}
		t, ok := w.Flag.readyAt(w.Count)
		if !ok {
			w.Flag.wait(c, ch)
			return
		}
		if !w.InData {
			t += c.poll
		}
		at = max(at, t)
	}
	if preload {
		if at > now {
			c.engine.Schedule(&cuEvent{EventAt: fabric.EventAt{T: at, H: c}, phase: phaseTry, ch: ch})
			return
		}
		c.startPreload(now, ch, ch.next)
		c.tryPhase(now, ch)
		return
	}
	if at > now {
		c.engine.Schedule(&cuEvent{EventAt: fabric.EventAt{T: at, H: c}, phase: phaseChannel, ch: ch})
		return
	}
	c.startPhase(now, ch)
}

// startPreload issues the phase's preloads as a run of their own on the
// channel's CU (with the kernel's in-flight window): the phase's compute
// waits until their last byte is in.
func (c *ComputeUnits) startPreload(now sim.VTimeInSec, ch *chanRun, n int) {
	ch.preloaded, ch.loading = n, true
	sub := &shareRun{cmd: KernelCmd{ID: ch.k.cmd.ID, Workgroups: 1, Reads: ch.phases[n].Preload},
		run: kernelRun{start: now, max: ch.k.max, preload: ch}}
	cu := c.channelShare(ch, sub)
	c.startPreloadTask(now, ch, n, cu)
	c.start(now, cu)
}

// preloadNext issues the next phase's preloads once every store of this
// one is issued, if its send credits are already in: RCCL's next step
// loads its input right after its stores go out, without waiting for
// their acknowledgements, which the model's phase end does.
func (c *ComputeUnits) preloadNext(now sim.VTimeInSec, ch *chanRun) {
	n := ch.next + 1
	if n >= len(ch.phases) || len(ch.phases[n].Preload) == 0 || ch.preloaded == n {
		return
	}
	for _, w := range ch.phases[n].Waits {
		if w.Recv {
			continue
		}
		t, ok := w.Flag.readyAt(w.Count)
		if !w.InData {
			t += c.poll
		}
		if !ok || t > now {
			return // the phase's start issues them once its credits are in
		}
	}
	c.startPreload(now, ch, n)
}

// loaded ends the channel's preloads: the steps that have their received
// data compute now.
func (c *ComputeUnits) loaded(now sim.VTimeInSec, ch *chanRun) {
	ch.loading = false
	gated := ch.gated
	ch.gated = nil
	for _, s := range gated {
		c.compute(now, s)
	}
}

// startPhase moves the phase's memory as a one-workgroup run on the
// channel's CU, with the kernel's in-flight window.
func (c *ComputeUnits) startPhase(now sim.VTimeInSec, ch *chanRun) {
	ph := &ch.phases[ch.next]
	cu := c.channelShare(ch, &shareRun{cmd: KernelCmd{ID: ch.k.cmd.ID, Workgroups: 1, ComputeNs: ph.ComputeNs, Reads: ph.Reads, Writes: ph.Writes},
		run: kernelRun{start: now, max: ch.k.max, parent: ch}})
	ch.state, ch.unwritten, ch.unlanded, ch.lastLand, ch.signalled = cu, 0, 0, 0, false
	ch.inData = len(ph.Writes) > 0 && slices.ContainsFunc(ph.Signals, func(s Signal) bool { return s.InData })
	cu.task = ch.phaseTask
	c.start(now, cu)
}

// shareRun is a one-workgroup run of a channel (a phase, or its
// preloads): its command, the run, its CU's share and the share's slices
// for up to four streams, in one allocation rather than one each.
type shareRun struct {
	cmd   KernelCmd
	run   kernelRun
	cu    cuState
	cus   [1]*cuState
	slots [8]int64
}

// channelShare is sr's run as the share of the channel's CU that moves
// its reads and writes.
func (c *ComputeUnits) channelShare(ch *chanRun, sr *shareRun) *cuState {
	run := &sr.run
	run.cmd = &sr.cmd
	ns := len(run.cmd.Reads) + len(run.cmd.Writes)
	sh := sr.slots[:]
	if 2*ns > len(sh) {
		sh = make([]int64, 2*ns)
	}
	cu := &sr.cu
	*cu = cuState{run: run, id: ch.cu, span: 1, workgroups: 1, base: sh[:0:ns], bytes: sh[ns : ns : 2*ns]} // each capped
	for _, ms := range [...][]MemStream{run.cmd.Reads, run.cmd.Writes} {
		for _, m := range ms {
			b := m.Traffic(c.line)
			cu.base, cu.bytes = append(cu.base, m.Addr), append(cu.bytes, b)
			cu.total = max(cu.total, b)
		}
	}
	sr.cus[0] = cu
	run.cus, run.left = sr.cus[:], 1
	return cu
}

// watchWrite has a phase's data store tell the channel when it lands, for
// flags that ride in the data: they count once the last store is in.
func (c *ComputeUnits) watchWrite(p *fabric.Packet, ch *chanRun) {
	ch.unlanded++
	p.Landed = func(t sim.VTimeInSec) {
		ch.unlanded--
		ch.lastLand = max(ch.lastLand, t)
		c.dataFlags(ch)
	}
}

// dataFlags raises the phase's flags once every write is issued and landed.
func (c *ComputeUnits) dataFlags(ch *chanRun) {
	if ch.signalled || !ch.inData || ch.unwritten > 0 || ch.unlanded > 0 || ch.state.issued < ch.state.total {
		return
	}
	ch.signalled = true
	for _, s := range ch.phases[ch.next].Signals {
		if s.InData {
			s.Flag.land(ch.lastLand)
		}
	}
}

// phaseEnd ends the channel's phase at t, when its last write is
// acknowledged: flags not carried in the data are stored now, then the
// next phase may start.
func (c *ComputeUnits) phaseEnd(now sim.VTimeInSec, ch *chanRun) {
	for _, s := range ch.phases[ch.next].Signals {
		if !s.InData || !ch.inData {
			rs := c.routes.KernelRoutes(c.hub, c.routes.HubOf(s.Mem))
			p := fabric.NewRequest(fabric.WriteReq, FlagStoreBytes, s.Mem, rs[0], c.MemPort, flagTag{})
			p.Addr, p.Landed = s.Addr, s.Flag.landing()
			if ch.phaseTask != "" { // the store lands after the phase: its own copy of the ID
				id := ch.phaseTask
				p.Task = &id
			}
			c.Transactions++
			c.mem.Send(now, p)
		}
	}
	c.endPhaseTask(now, ch)
	if ch.next++; ch.next < len(ch.phases) {
		c.tryPhase(now, ch)
		return
	}
	k := ch.k
	if k.left--; k.left == 0 {
		c.at(now+c.end, phaseDone, nil, k)
	}
}

// flagTag marks the acknowledgement of a flag store: nothing waits for it.
type flagTag struct{}
