package hip

import (
	"github.com/akisim/akisim/components/gcd"
	"github.com/akisim/akisim/components/sdma"
	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"
	"github.com/sarchlab/akita/v3/sim"
)

// Dispatch: a stream's head item goes to its SDMA queue or CU array as a
// copy or dispatch packet, in stream order.

// dispatch starts the work at the head of a stream, in stream order. Copies
// on the engine already running the stream's copies queue behind them; the
// engine keeps their order.
func (r *Runtime) dispatch(now sim.VTimeInSec, s *stream) {
	for len(s.queue) > 0 {
		it := s.queue[0]
		if it.unresolved {
			if !r.flagReady(it) {
				r.holdForFlag(s, it)
				return // resumed by the flag (flag.go)
			}
			if !r.resolve(s) {
				return
			}
			continue
		}
		switch {
		case it.cus != nil:
			if !r.flagReady(it) {
				r.holdForFlag(s, it)
				return // resumed by the flag_set (flag.go)
			}
			if s.inflight > 0 && s.last != it.cus {
				return
			}
			var cmd *gcd.KernelCmd
			switch {
			case it.blit:
				cmd = r.blitCmd(it.op)
			default:
				if r.faulting(now, s, it) {
					return // resumed when its pages are resident (managed.go)
				}
				cmd = r.kernelCmd(it.op)
				cmd.Acquire, s.acquire = s.acquire, false
				s.dirty = it.cus
			}
			if it.blit {
				s.dirty = it.cus
			}
			cmd.Name = kernelName(r.op(it.op), it.blit)
			cmd.Queue = streamKey(s.rank, s.id) // each stream its own hardware queue
			r.kctrl[it.cus].SendAt(now, now+ns(r.cost.DoorbellNs), cmd)
			r.res(it.op).Engine = it.cus.Name()
			s.inflight++
			s.live = append(s.live, it.op)
			s.last = it.cus
		case it.prefetch:
			if s.inflight > 0 {
				return
			}
			r.prefetchStart(now, s, it.op)
			s.acquire = true
		case it.page:
			if s.inflight > 0 {
				return
			}
			r.pageStart(now, s, it.op)
			s.acquire = true // its chunks are SDMA copies
		case it.engine != nil:
			if it.engine.nic > 0 && it.engine.engine == nil {
				it.engine = r.nicEngine(s, it.engine.nic-1)
			}
			if s.inflight > 0 && s.last != it.engine {
				return
			}
			if !r.flagReady(it) {
				r.holdForFlag(s, it)
				return // resumed by the flag (flag.go)
			}
			op := r.op(it.op)
			src, dst := r.bufs[op.Src], r.bufs[op.Dst]
			cmd := &sdma.CopyCmd{ID: it.op, Queue: it.engine.queue, Src: memOf(src), Dst: memOf(dst), Bytes: op.Bytes,
				SrcAddr: r.base[op.Src].addr, DstAddr: r.base[op.Dst].addr}
			if src.Host && op.NIC == nil {
				cmd.SrcLink = r.dirtyLink(r.bufAt(op.Src, op.SrcOff), op.Bytes)
			}
			if dst.Host {
				r.forget(r.bufAt(op.Dst, op.DstOff), op.Bytes)
			}
			doorbell := ns(r.cost.DoorbellNs)
			if op.NIC != nil {
				r.nicCmd(cmd, op)
				doorbell = 0 // the NIC's command cost (nic.command_ns) holds it
			}
			r.ctrl[it.engine.engine].SendAt(now, now+doorbell, cmd)
			if it.engine.nic > 0 {
				r.nicLoad[it.engine]++
				r.nicOn[it.op] = it.engine
			}
			s.acquire = true
			r.res(it.op).Engine = it.engine.engine.Name()
			s.inflight++
			s.live = append(s.live, it.op)
			s.last = it.engine
		case it.wait:
			if s.inflight > 0 {
				return
			}
			if !r.recordDone(it.record) {
				return // resumed when the record completes
			}
			s.acquire = true // a barrier packet
			r.waitDone(s)
		default: // event record
			if s.dirty != nil && (s.inflight == 0 || s.last == s.dirty) {
				// behind the stream's kernels the event is a marker packet
				// in their GCD's queue, so the work queued after it goes on
				// at once; with system scope it is a release: the L2 writes
				// back what the kernels left dirty. Recorded when the GCD
				// reaches it (NotifyRecv).
				release := r.cost.EventRelease == "system"
				cmd := &gcd.KernelCmd{ID: it.op, Queue: streamKey(s.rank, s.id), Release: release, Marker: !release}
				at := now // alone, part of the last kernel's packet stream: no doorbell of its own
				if s.inflight > 0 {
					at += ns(r.cost.DoorbellNs) // behind packets still arriving: keep their order
				}
				r.kctrl[s.dirty].SendAt(now, at, cmd)
				r.res(it.op).Engine = s.dirty.Name()
				s.inflight++
				s.live = append(s.live, it.op)
				s.last = s.dirty
				if release {
					s.dirty = nil
				}
				s.acquire = true // the marker has system scope
				break
			}
			if s.inflight > 0 {
				return
			}
			t := now + ns(r.cost.EventRecordNs)
			s.acquire = true // the marker has system scope
			r.events[eventKey{s.rank, it.event}] = t
			r.recorded[it.op] = true
			r.res(it.op).Start, r.res(it.op).End, r.res(it.op).Done = t, t, true
			r.finished(it.op)
			r.eventRecorded(now)
		}
		s.queue = s.queue[1:]
		r.streamWent(s)
	}
}

// kernelName names a kernel for tracing: by the name the trace or library
// gives it, else its label; a blit kernel by the copy it runs.
func kernelName(op *ir.Command, blit bool) string {
	switch {
	case blit:
		return string(op.Op) + " blit kernel"
	case op.Name != "":
		return op.Name
	case op.Label != "":
		return op.Label
	}
	return string(op.Op)
}

// kernelCmd turns a kernel launch into the GCD's dispatch packet: its
// workgroups and the memory streams of its accesses.
func (r *Runtime) kernelCmd(i int) *gcd.KernelCmd {
	op := r.op(i)
	if len(op.Channels) > 0 {
		return r.phasedCmd(i)
	}
	k := r.accessCmd(i)
	k.Workgroups, k.ComputeNs, k.DurationNs, k.InFlight = op.Grid/int64(op.Workgroup), op.ComputeNs, op.DurationNs, op.InFlight
	return k
}

// accessCmd is the dispatch packet of an op's memory accesses.
func (r *Runtime) accessCmd(i int) *gcd.KernelCmd {
	op := r.op(i)
	k := &gcd.KernelCmd{ID: i}
	k.Reads, k.Writes = r.memStreams(op, op.Access)
	return k
}

// memStreams are the memory streams of op's accesses, reads and writes.
// Both are cut from one allocation sized to the accesses: a batched
// kernel's dozens of accesses would otherwise grow two slices.
func (r *Runtime) memStreams(op *ir.Command, access []trace.Access) (reads, writes []gcd.MemStream) {
	if len(access) == 0 {
		return nil, nil
	}
	nr := 0
	for i := range access {
		if access[i].Mode != "write" {
			nr++
		}
	}
	all := make([]gcd.MemStream, 0, len(access))
	reads, writes = all[:0:nr], all[nr:nr]
	for _, a := range access {
		p := r.bufAt(a.Buf, a.Offset)
		m := gcd.MemStream{Mem: p.mem, Addr: p.addr, Bytes: a.Bytes,
			Pattern: a.Pattern, Stride: a.Stride, Element: a.Element, Passes: a.Passes,
			NonCoherent: r.nonCoherent(op, a.Buf, p)}
		if len(a.Workgroups) == 2 {
			m.First, m.End = a.Workgroups[0], a.Workgroups[1]
		}
		if p.mem.Host && (r.managed[a.Buf] != nil || r.Registered(a.Buf)) {
			// managed pages in host DRAM and registered user pages are
			// anonymous memory, mapped page by page
			m.PageBytes = r.cost.HostPageBytes
		}
		if a.Mode == "write" {
			writes = append(writes, m)
		} else {
			reads = append(reads, m)
		}
	}
	if len(reads) == 0 { // none: nil, as before the slab
		reads = nil
	}
	if len(writes) == 0 {
		writes = nil
	}
	return reads, writes
}

// phasedCmd is a library's phased kernel: its flags are the runtime's
// GPU flags by name, shared by every kernel that names them.
func (r *Runtime) phasedCmd(i int) *gcd.KernelCmd {
	op := r.op(i)
	k := &gcd.KernelCmd{ID: i, InFlight: op.InFlight, SystemRelease: op.StopEvent, Channels: make([][]gcd.Phase, len(op.Channels))}
	for c, phases := range op.Channels {
		for _, ph := range phases {
			g := gcd.Phase{ComputeNs: ph.ComputeNs}
			g.Reads, g.Writes = r.memStreams(op, ph.Access)
			g.Preload, _ = r.memStreams(op, ph.Preload)
			for _, w := range ph.Waits {
				g.Waits = append(g.Waits, gcd.FlagWait{Flag: r.gpuFlag(w.Flag), Count: w.Count, InData: w.InData, Recv: w.Recv})
			}
			for _, s := range ph.Signals {
				p := r.bufAt(s.Buf, s.Offset)
				g.Signals = append(g.Signals, gcd.Signal{Flag: r.gpuFlag(s.Flag), Mem: p.mem, Addr: p.addr, InData: s.InData})
			}
			k.Channels[c] = append(k.Channels[c], g)
		}
	}
	return k
}

// blitCmd is the copy kernel the runtime launches instead of an SDMA copy.
// A copy within one GCD is ROCclr's own kernel; the others (no SDMA, or a
// library's copy) are ROCr's, left at runtime.blit_workgroup_bytes.
func (r *Runtime) blitCmd(i int) *gcd.KernelCmd {
	op := r.op(i)
	src, dst := r.base[op.Src], r.base[op.Dst]
	k := r.copyKernel(i, place{src.mem, src.addr + op.SrcOff}, place{dst.mem, dst.addr + op.DstOff}, op.Bytes)
	sb, db := r.bufs[op.Src], r.bufs[op.Dst]
	if op.CopyGCD == nil && !sb.Host && !db.Host {
		switch {
		case sb.GCD == db.GCD:
			r.rocclrCopy(k, r.device(sb.GCD).CUs, op.Bytes)
		case r.p2pBlit(op, true): // ROCclr's own choice of a kernel for a small peer copy
			r.rocclrCopy(k, r.device(sb.GCD).CUs, op.Bytes)
			k.Workgroups = min(k.Workgroups, p2pBlitWorkgroups)
		}
	}
	return k
}

// rocclrCopy gives copy kernel k the geometry of ROCclr's copy kernel
// (KernelBlitManager::copyBuffer) in the run's ROCm release, on cus:
// work-items of copy_item_bytes in workgroups of copy_workgroup.
//
// With copy_loop one workgroup per CU loops over the copy. Each wave's
// store and its next load are in flight together (gfx9's vmcnt counts
// both; the loop waits only to use the load), so the CU's window, which
// holds a piece from its load to its store's acknowledgement, is two
// iterations. Without, a work-item moves one piece and ends: a CU keeps
// as many pieces in flight as it holds waves, refilled as workgroups end
// (gcd.wave_start_ns).
func (r *Runtime) rocclrCopy(k *gcd.KernelCmd, cus *gcd.ComputeUnits, bytes int64) {
	item, wg := r.rel.CopyItemBytes, r.rel.CopyWorkgroup
	if item <= 0 || wg <= 0 {
		return // the release does not say: the default copy kernel
	}
	per := item * wg // bytes of one workgroup's iteration
	groups := max(1, (bytes+per-1)/per)
	if r.rel.CopyLoop {
		k.Workgroups = min(groups, int64(cus.Count())) // limit_blit_wg_: the CU count
		k.InFlight = 2 * per
		return
	}
	k.Workgroups, k.OneLoad = groups, true
	k.InFlight = int64(cus.WaveSlots()) * gcd.WaveLanes * item
}

// copyKernel is a blit kernel copying bytes from src to dst for op i: one
// workgroup per runtime.blit_workgroup_bytes.
func (r *Runtime) copyKernel(i int, src, dst place, bytes int64) *gcd.KernelCmd {
	per := r.cost.BlitWorkgroupBytes
	return &gcd.KernelCmd{ID: i, Workgroups: (bytes + per - 1) / per,
		Reads:  []gcd.MemStream{{Mem: src.mem, Addr: src.addr, Bytes: bytes}},
		Writes: []gcd.MemStream{{Mem: dst.mem, Addr: dst.addr, Bytes: bytes}}}
}
