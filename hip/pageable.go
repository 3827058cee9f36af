package hip

import (
	"fmt"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/gcd"
	"github.com/akisim/akisim/components/sdma"
	"github.com/akisim/akisim/ir"
	"github.com/sarchlab/akita/v3/sim"
)

// Copies from or to pageable (malloc) memory, as ROCclr makes them
// (ROCm/clr rocm-6.2.0, rocblit.cpp; shared docs host-memory.md section 1).
// The GPUs cannot reach pageable pages, so the calling host thread moves
// the data itself, and the call returns only when the copy is done, even
// for hipMemcpyAsync:
//
//   - up to runtime.pin_min_bytes (hsaCopyStaged): in chunks of
//     runtime.staging_bytes, a CPU memcpy between the user buffer and the
//     GCD's pinned staging buffer (on the GCD's nearest NUMA domain, where
//     ROCclr's system pool is), then an SDMA copy between the staging
//     buffer and the GCD, and the host waits for it before the next chunk:
//     no double buffering (device-to-host: SDMA first, then memcpy).
//   - above it (pinHostMemory): in chunks of the release's pin_chunk_bytes, the
//     user pages are locked (pinNs: runtime.pin_ns + pin_page_ns per 4 KiB
//     page, unlocking included, more for a buffer glibc mmapped and for
//     pages the device writes), copied by SDMA straight from or to them,
//     and unlocked; with direct dispatch every call pins again.
//
// The CPU memcpy runs on the host's cores (one thread, the caller) over
// the NUMA domains' DDR4, so it contends with everything else there.

// pageBytes is the page the driver's per-page costs are counted in.
const pageBytes = 4096

// pages is the 4 KiB pages bytes span.
func pages(bytes int64) int64 { return (bytes + pageBytes - 1) / pageBytes }

// pageCopy is a copy from or to pageable memory in progress.
type pageCopy struct {
	op     int
	s      *stream
	toGPU  bool
	staged bool       // through the staging buffer, else by pinning
	done   int64      // bytes copied so far
	chunk  int64      // bytes of the chunk in flight
	steps  []pageStep // the chunk's steps still to take
}

// pageStep is one step of a chunk.
type pageStep int

const (
	stepPin    pageStep = iota // the host locks (and later unlocks) the chunk's pages: time only
	stepMemcpy                 // the host copies the chunk between the user and staging buffers
	stepDMA                    // SDMA copies the chunk, from or to the staging buffer or the pinned pages
)

// pageEvent resumes a pageable copy after host work that costs only time
// (pinning pages).
type pageEvent struct {
	fabric.EventAt
	pc *pageCopy
}

// PageableStats counts what pageable copies did.
type PageableStats struct {
	StagedChunks uint64 // chunks through a staging buffer
	StagedBytes  uint64 // bytes the host's CPU memcpy moved through them
	PinnedChunks uint64 // chunks copied from or to pinned user pages
	PinnedBytes  uint64
}

// copyItem decides how a copy runs: a pageable copy is the host thread's
// work (pageStart); any other goes to an SDMA queue or runs as a blit.
func (r *Runtime) copyItem(i int, op *ir.Command) (item, error) {
	if r.pageable(op) {
		return item{op: i, page: true}, nil
	}
	return r.directItem(i, op)
}

// pageable reports whether a copy touches pageable memory.
func (r *Runtime) pageable(op *ir.Command) bool {
	return r.pageableNow(op.Src) || r.pageableNow(op.Dst)
}

// pinNs is the host time to lock and unlock bytes of user buffer buf's
// pages: runtime.pin_ns plus pin_page_ns per 4 KiB page, plus
// pin_mapped_page_ns per page if buf is a mapping of its own (a malloc of
// at least mmap_bytes: glibc mmaps it afresh and never raises its
// threshold past that) and pin_written_page_ns if the device writes them.
func (r *Runtime) pinNs(buf string, bytes int64, written bool) float64 {
	perPage := r.cost.PinPageNs
	if r.bufs[buf].Bytes >= r.cost.MmapBytes {
		perPage += r.cost.PinMappedPageNs
	}
	if written {
		perPage += r.cost.PinWrittenPageNs
	}
	return r.cost.PinNs + float64(pages(bytes))*perPage
}

// pageStart begins a pageable copy that reached the head of its stream.
func (r *Runtime) pageStart(now sim.VTimeInSec, s *stream, i int) {
	op := r.op(i)
	pc := &pageCopy{op: i, s: s, toGPU: r.pageableNow(op.Src), staged: op.Bytes <= r.cost.PinMinBytes}
	r.paging[i] = pc
	r.res(i).Start = now
	s.inflight++
	s.last = pc
	r.pageNext(now, pc)
}

// pageChunk starts the next chunk of a pageable copy: its size and steps.
func (r *Runtime) pageChunk(pc *pageCopy) {
	left := r.op(pc.op).Bytes - pc.done
	switch {
	case !pc.staged:
		pc.chunk, pc.steps = min(r.rel.PinChunkBytes, left), []pageStep{stepPin, stepDMA}
		r.Pageable.PinnedChunks++
		r.Pageable.PinnedBytes += uint64(pc.chunk)
	case pc.toGPU:
		pc.chunk, pc.steps = min(r.cost.StagingBytes, left), []pageStep{stepMemcpy, stepDMA}
	default:
		pc.chunk, pc.steps = min(r.cost.StagingBytes, left), []pageStep{stepDMA, stepMemcpy}
	}
	if pc.staged {
		r.Pageable.StagedChunks++
		r.Pageable.StagedBytes += uint64(pc.chunk)
	}
}

// pageNext takes the next step of a pageable copy at now, when the
// previous one is done. The host waits for each step: ROCclr neither
// overlaps a chunk's memcpy with another's SDMA copy nor pins ahead.
func (r *Runtime) pageNext(now sim.VTimeInSec, pc *pageCopy) {
	op := r.op(pc.op)
	if len(pc.steps) == 0 { // the chunk is done
		pc.done += pc.chunk
		if pc.done == op.Bytes {
			r.pageDone(now, pc)
			return
		}
		r.pageChunk(pc)
	}
	step := pc.steps[0]
	pc.steps = pc.steps[1:]
	user, dev, g := r.bufAt(op.Src, op.SrcOff+pc.done), r.bufAt(op.Dst, op.DstOff+pc.done), r.bufs[op.Dst].GCD
	if !pc.toGPU {
		user, dev, g = dev, user, r.bufs[op.Src].GCD
	}
	far := user // where SDMA reads or writes the host side
	if pc.staged {
		far = r.stagingBuffer(g)
	}
	switch step {
	case stepPin:
		buf := op.Src
		if !pc.toGPU {
			buf = op.Dst
		}
		t := now + ns(r.pinNs(buf, pc.chunk, !pc.toGPU))
		r.engine.Schedule(&pageEvent{fabric.EventAt{T: t, H: r}, pc})
	case stepMemcpy:
		if len(r.threads) == 0 {
			r.Err = fmt.Errorf("op %d (line %d): the node has no host cores to copy pageable memory", pc.op, op.Line)
			return
		}
		from, to := user, far
		if !pc.toGPU {
			from, to = far, user
		}
		r.cpuWrote(r.gcdNode(g), op.Rank, 1, to, pc.chunk)
		r.coresOfGCD(g).Send(now, &gcd.KernelCmd{ID: pc.op, Queue: op.Rank, Workgroups: 1, // the calling thread's memcpy
			Reads:  []gcd.MemStream{{Mem: from.mem, Addr: from.addr, Bytes: pc.chunk}},
			Writes: []gcd.MemStream{{Mem: to.mem, Addr: to.addr, Bytes: pc.chunk}}})
	case stepDMA:
		from, to := far, dev
		if !pc.toGPU {
			from, to = dev, far
		}
		r.pageDMA(now, pc, from, to)
	}
}

// place is an address in a memory.
type place struct {
	mem  fabric.Memory
	addr int64
}

// bufAt is where byte off of buf is; a managed buffer's block may have
// migrated (managed.go).
func (r *Runtime) bufAt(buf string, off int64) place {
	b := r.base[buf]
	if b.managed {
		return r.managedAt(buf, off)
	}
	return place{b.mem, b.addr + off}
}

// stagingBuffer is GCD g's staging buffer, allocated at first use on its
// nearest NUMA domain (ROCclr allocates it once per device from the
// coarse-grained pool of the CPU agent nearest the GPU).
func (r *Runtime) stagingBuffer(g int) place {
	m := fabric.Memory{Host: true, Index: r.devices[g].NUMA}
	if a, ok := r.staging[g]; ok {
		return place{m, a}
	}
	a := r.reserve(m, r.cost.StagingBytes)
	r.staging[g] = a
	return place{m, a}
}

// pageDMA copies the chunk in flight from src to dst on the copy's SDMA
// queue, or as a blit kernel without SDMA.
func (r *Runtime) pageDMA(now sim.VTimeInSec, pc *pageCopy, src, dst place) {
	op := r.op(pc.op)
	it, err := r.directItem(pc.op, op)
	if err != nil {
		r.Err = err
		return
	}
	at := now + ns(r.cost.DoorbellNs)
	if it.blit {
		k := r.copyKernel(pc.op, src, dst, pc.chunk)
		k.Queue = streamKey(pc.s.rank, pc.s.id)
		r.kctrl[it.cus].SendAt(now, at, k)
		r.res(pc.op).Engine = it.cus.Name()
		return
	}
	r.forget(dst, pc.chunk)
	r.ctrl[it.engine.engine].SendAt(now, at, &sdma.CopyCmd{ID: pc.op, Queue: it.engine.queue,
		Src: src.mem, Dst: dst.mem, Bytes: pc.chunk, SrcLink: r.dirtyLink(src, pc.chunk)})
	r.res(pc.op).Engine = it.engine.engine.Name()
}

// pageDone ends a pageable copy: its stream goes on, and so does the host.
func (r *Runtime) pageDone(now sim.VTimeInSec, pc *pageCopy) {
	delete(r.paging, pc.op)
	r.res(pc.op).End, r.res(pc.op).Done = now, true
	r.finished(pc.op)
	pc.s.inflight--
	r.streamWent(pc.s)
	if pc.s.inflight == 0 {
		r.dispatch(now, pc.s)
	}
}
