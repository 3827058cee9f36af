package gcd

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// ComputeUnits are a GCD's CUs and the dispatcher that hands them a
// kernel's workgroups. Each CU works through its share of the kernel's
// memory in steps: it reads a transaction of each input, computes, writes a
// transaction of each output, and keeps a bounded number of steps in flight
// (its memory-level parallelism). Bandwidth then follows from Little's law
// over the real path: a slower or narrower memory shows up as on hardware.
type ComputeUnits struct {
	*sim.ComponentBase
	engine sim.Engine
	fabric.Senders

	hub      int
	routes   KernelRoutes
	n        int
	slots    int
	txnBytes int64
	line     int64 // bytes memory moves per access
	maxOut   int
	launch   sim.VTimeInSec
	end      sim.VTimeInSec

	CtrlPort, MemPort sim.Port
	ctrl, mem         *fabric.Sender

	queue  []*KernelCmd
	active *kernelRun
	rr     int

	Kernels, Workgroups, Transactions uint64
	BytesRead, BytesWritten           uint64
}

type kernelRun struct {
	cmd   *KernelCmd
	start sim.VTimeInSec
	cus   []*cuState
	left  int // CUs not finished
}

// cuState is one CU's share of a kernel.
type cuState struct {
	id          int
	workgroups  int64
	reads       []int64 // bytes of each read stream still to issue
	writes      []int64
	steps, done int64 // steps in total, steps finished
	issued      int64
	inFlight    int
	stepBytes   []int64 // per stream (reads then writes): bytes per step
	addr        []int64 // per stream: next address
}

// step is one step of a CU in flight: how many reads and writes it awaits.
type step struct {
	cu           *cuState
	reads, write int
	writeSizes   []int
	writeAddrs   []int64
}

type cuEvent struct {
	fabric.EventAt
	phase int
	s     *step
}

const (
	phaseStart = iota
	phaseWrite
	phaseDone
)

// NotifyRecv takes kernel dispatches and memory responses.
func (c *ComputeUnits) NotifyRecv(now sim.VTimeInSec, port sim.Port) {
	for {
		msg := port.Retrieve(now)
		if msg == nil {
			return
		}
		switch m := msg.(type) {
		case *KernelCmd:
			c.queue = append(c.queue, m)
			if c.active == nil {
				c.startNext(now)
			}
		case *fabric.Packet:
			c.response(now, m)
		}
	}
}

func (c *ComputeUnits) at(t sim.VTimeInSec, phase int, s *step) {
	c.engine.Schedule(&cuEvent{EventAt: fabric.EventAt{T: t, H: c}, phase: phase, s: s})
}

func (c *ComputeUnits) startNext(now sim.VTimeInSec) {
	if len(c.queue) == 0 {
		c.active = nil
		return
	}
	cmd := c.queue[0]
	c.queue = c.queue[1:]
	c.active = &kernelRun{cmd: cmd, start: now}
	c.Kernels++
	c.at(now+c.launch, phaseStart, nil)
}

// dispatch spreads the workgroups over the CUs and starts each CU.
func (c *ComputeUnits) dispatch(now sim.VTimeInSec) {
	k := c.active
	wg := k.cmd.Workgroups
	c.Workgroups += uint64(wg)
	var first int64 // first workgroup of CU i
	for i := 0; i < c.n; i++ {
		mine := wg / int64(c.n)
		if int64(i) < wg%int64(c.n) {
			mine++
		}
		if mine == 0 {
			continue
		}
		cu := &cuState{id: i, workgroups: mine}
		largest := int64(0)
		// CU i covers workgroups [first, first+mine) of every stream
		share := func(m MemStream) int64 {
			t := m.Traffic(c.line)
			lo, hi := t*first/wg, t*(first+mine)/wg
			cu.addr = append(cu.addr, m.Addr+lo)
			return hi - lo
		}
		for _, r := range k.cmd.Reads {
			b := share(r)
			cu.reads = append(cu.reads, b)
			largest = max(largest, b)
		}
		for _, w := range k.cmd.Writes {
			b := share(w)
			cu.writes = append(cu.writes, b)
			largest = max(largest, b)
		}
		first += mine
		cu.steps = max(1, (largest+c.txnBytes-1)/c.txnBytes)
		for _, b := range append(append([]int64{}, cu.reads...), cu.writes...) {
			cu.stepBytes = append(cu.stepBytes, (b+cu.steps-1)/cu.steps)
		}
		k.cus = append(k.cus, cu)
		k.left++
	}
	if k.left == 0 {
		c.at(now+c.end, phaseDone, nil)
		return
	}
	for _, cu := range k.cus {
		c.issue(now, cu)
	}
}

// issue starts steps of a CU while it has room.
func (c *ComputeUnits) issue(now sim.VTimeInSec, cu *cuState) {
	k := c.active
	for cu.inFlight < c.maxOut && cu.issued < cu.steps {
		cu.issued++
		cu.inFlight++
		s := &step{cu: cu}
		for i, r := range k.cmd.Reads {
			n := min(cu.stepBytes[i], cu.reads[i])
			cu.reads[i] -= n
			if n > 0 {
				s.reads++
				c.send(now, fabric.ReadReq, int(n), r.Mem, cu.addr[i], s)
				cu.addr[i] += n
			}
		}
		for i := range k.cmd.Writes {
			n := min(cu.stepBytes[len(k.cmd.Reads)+i], cu.writes[i])
			cu.writes[i] -= n
			j := len(k.cmd.Reads) + i
			s.writeSizes = append(s.writeSizes, int(n))
			s.writeAddrs = append(s.writeAddrs, cu.addr[j])
			cu.addr[j] += n
		}
		if s.reads == 0 {
			c.compute(now, s)
		}
	}
}

func (c *ComputeUnits) send(now sim.VTimeInSec, kind fabric.Kind, size int, m fabric.Memory, addr int64, s *step) {
	rs := c.routes.KernelRoutes(c.hub, c.routes.HubOf(m))
	c.rr++
	c.Transactions++
	p := fabric.NewRequest(kind, size, m, rs[c.rr%len(rs)], c.MemPort, s)
	p.Addr = addr
	c.mem.Send(now, p)
}

// compute runs the step's share of workgroup compute, then its writes.
func (c *ComputeUnits) compute(now sim.VTimeInSec, s *step) {
	k := c.active
	cu := s.cu
	wgPerStep := float64(cu.workgroups) / float64(cu.steps)
	t := now + fabric.Ns(k.cmd.ComputeNs*wgPerStep/float64(c.slots))
	if t > now {
		c.at(t, phaseWrite, s)
		return
	}
	c.writes(now, s)
}

func (c *ComputeUnits) writes(now sim.VTimeInSec, s *step) {
	for i, w := range c.active.cmd.Writes {
		if n := s.writeSizes[i]; n > 0 {
			s.write++
			c.send(now, fabric.WriteReq, n, w.Mem, s.writeAddrs[i], s)
		}
	}
	if s.write == 0 {
		c.stepDone(now, s)
	}
}

// response takes memory answers in time order (as events when they lag).
func (c *ComputeUnits) response(now sim.VTimeInSec, p *fabric.Packet) {
	if p.Lag > 0 {
		c.engine.Schedule(p.Event(p.TakeLag(now), c, 0))
		return
	}
	s := p.Tag.(*step)
	switch p.Kind {
	case fabric.ReadRsp:
		c.BytesRead += uint64(p.Size)
		if s.reads--; s.reads == 0 {
			c.compute(now, s)
		}
	case fabric.WriteAck:
		c.BytesWritten += uint64(p.Size)
		if s.write--; s.write == 0 {
			c.stepDone(now, s)
		}
	}
}

func (c *ComputeUnits) stepDone(now sim.VTimeInSec, s *step) {
	cu := s.cu
	cu.inFlight--
	cu.done++
	if cu.done == cu.steps {
		if c.active.left--; c.active.left == 0 {
			c.at(now+c.end, phaseDone, nil)
		}
		return
	}
	c.issue(now, cu)
}

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
			c.dispatch(now)
		case phaseWrite:
			c.writes(now, ev.s)
		case phaseDone:
			k := c.active
			c.ctrl.Send(now, &KernelDone{ID: k.cmd.ID, Start: k.start, End: now})
			c.startNext(now)
		}
	default:
		fabric.HandleSendEvent(e)
	}
	return nil
}

// NotifyPortFree retries held messages.
func (c *ComputeUnits) NotifyPortFree(now sim.VTimeInSec, _ sim.Port) { c.RetryAll(now) }

// Count is the number of CUs.
func (c *ComputeUnits) Count() int { return c.n }
