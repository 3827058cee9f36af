package mall

import (
	"math"
	"testing"

	"github.com/akisim/akisim/components/dram"
	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/fabric/fabrictest"
	"github.com/sarchlab/akita/v3/sim"
)

var hbm = fabric.Memory{Index: 0}

// rig is a MALL between a test agent and an HBM controller of 1000 GB/s
// and 500 ns; the cache has 4 channels of 1000 GB/s and 100 ns.
type rig struct {
	e   *sim.SerialEngine
	m   *MALL
	mem *dram.Controller
	a   *fabrictest.Agent
}

const blk = 4096

func newRig(bytes int64, ways int, p Policy) *rig {
	e := sim.NewSerialEngine()
	m := MakeBuilder().WithEngine(e).WithCapacity(bytes, ways).WithLine(64, blk).
		WithChannels(4, 1000).WithLatency(100).WithPolicy(p).WithMemory(hbm).Build("MALL")
	mem := dram.MakeBuilder().WithEngine(e).WithBandwidth(1000).WithLatency(500).Build("HBM")
	a := fabrictest.NewAgent("A", e, 4096)
	fabric.Wire(a.Port, m.TopPort)
	fabric.Wire(m.BottomPort, mem.Port)
	return &rig{e: e, m: m, mem: mem, a: a}
}

var wbAlloc = Policy{WriteAllocate: true, WriteBack: true}

// do sends one request at the current time, runs it and returns how long
// its answer took.
func (r *rig) do(t *testing.T, kind fabric.Kind, addr int64, size int) sim.VTimeInSec {
	t.Helper()
	start := r.e.CurrentTime()
	p := fabric.NewRequest(kind, size, hbm, fabric.Route{0}, r.a.Port, nil)
	p.Addr = addr
	r.a.Send(start, p)
	if err := r.e.Run(); err != nil {
		t.Fatal(err)
	}
	return r.a.Last() - start
}

func near(got, want float64) bool { return math.Abs(got-want) <= 1e-9*math.Abs(want)+1e-15 }

// A first read misses and costs the cache's lookup, memory's access and
// transfer; the second hits and costs the cache's latency and transfer.
func TestHitAfterMiss(t *testing.T) {
	r := newRig(1<<20, 4, wbAlloc)
	miss := r.do(t, fabric.ReadReq, 0, blk)
	hit := r.do(t, fabric.ReadReq, 0, blk)
	if r.m.Misses != 1 || r.m.Hits != 1 || r.m.FillBytes != blk || r.m.HitBytes != blk {
		t.Fatalf("misses %d hits %d fill %d hit bytes %d", r.m.Misses, r.m.Hits, r.m.FillBytes, r.m.HitBytes)
	}
	if want := 100e-9 + 500e-9 + blk/1000e9; !near(float64(miss), want) {
		t.Errorf("miss took %g s, want %g", float64(miss), want)
	}
	if want := 100e-9 + blk/4000e9; !near(float64(hit), want) {
		t.Errorf("hit took %g s, want %g", float64(hit), want)
	}
	if r.mem.BytesRead != blk {
		t.Errorf("memory read %d bytes, want %d", r.mem.BytesRead, blk)
	}
}

// A read that finds some of its lines fetches only the others.
func TestPartialMissFetchesMissingLines(t *testing.T) {
	r := newRig(1<<20, 4, wbAlloc)
	r.do(t, fabric.ReadReq, 0, 1024)
	r.do(t, fabric.ReadReq, 0, blk)
	if r.mem.BytesRead != blk || r.m.HitBytes != 1024 || r.m.Misses != 2 {
		t.Errorf("memory read %d, hit bytes %d, misses %d; want %d, 1024, 2", r.mem.BytesRead, r.m.HitBytes, r.m.Misses, blk)
	}
}

// In a set of two ways the least recently used block is the one replaced.
func TestLRUWithinSet(t *testing.T) {
	r := newRig(4*blk, 2, wbAlloc) // 2 sets of 2 ways: even blocks share set 0
	for _, b := range []int64{0, 2, 0, 4} {
		r.do(t, fabric.ReadReq, b*blk, blk)
	}
	// 0 was used after 2, so 4 replaced 2
	before := r.m.Misses
	r.do(t, fabric.ReadReq, 0, blk)
	r.do(t, fabric.ReadReq, 4*blk, blk)
	if r.m.Misses != before {
		t.Errorf("blocks 0 and 4 should hit: %d new misses", r.m.Misses-before)
	}
	r.do(t, fabric.ReadReq, 2*blk, blk)
	if r.m.Misses != before+1 {
		t.Errorf("block 2 should have been replaced")
	}
	// odd blocks use set 1, untouched by all this
	if r.do(t, fabric.ReadReq, blk, blk); r.m.Misses != before+2 {
		t.Errorf("block 1 should miss once")
	}
}

// Streaming twice the capacity leaves only the second half: the first
// block misses again, and the cache never holds more than its capacity.
func TestCapacity(t *testing.T) {
	r := newRig(64*blk, 4, wbAlloc)
	for b := int64(0); b < 128; b++ {
		r.do(t, fabric.ReadReq, b*blk, blk)
	}
	if got := r.m.Resident(); got != r.m.Capacity() || got != 64*blk {
		t.Errorf("resident %d bytes, capacity %d", got, r.m.Capacity())
	}
	misses := r.m.Misses
	r.do(t, fabric.ReadReq, 127*blk, blk)
	if r.m.Misses != misses {
		t.Errorf("the last block streamed should hit")
	}
	r.do(t, fabric.ReadReq, 0, blk)
	if r.m.Misses != misses+1 {
		t.Errorf("the first block streamed should have been replaced")
	}
}

// Write-back: a write is acknowledged by the cache and reaches memory
// only when its block is replaced.
func TestWriteBack(t *testing.T) {
	r := newRig(4*blk, 2, wbAlloc)
	ack := r.do(t, fabric.WriteReq, 0, blk)
	if want := 100e-9 + blk/4000e9; !near(float64(ack), want) {
		t.Errorf("write acknowledged after %g s, want %g (the cache's)", float64(ack), want)
	}
	if r.mem.BytesWrite != 0 || r.m.Dirty() != blk {
		t.Fatalf("memory wrote %d bytes, cache holds %d dirty; want 0 and %d", r.mem.BytesWrite, r.m.Dirty(), blk)
	}
	if r.do(t, fabric.ReadReq, 0, blk); r.m.Hits != 1 {
		t.Errorf("a read of written lines should hit")
	}
	r.do(t, fabric.ReadReq, 2*blk, blk)
	r.do(t, fabric.ReadReq, 4*blk, blk) // replaces block 0 (set 0's LRU)
	if r.mem.BytesWrite != blk || r.m.WriteBackBytes != blk || r.m.WriteBacks != 1 || r.m.Dirty() != 0 {
		t.Errorf("after replacement: memory wrote %d, written back %d in %d, dirty %d; want %d, %d in 1, 0",
			r.mem.BytesWrite, r.m.WriteBackBytes, r.m.WriteBacks, r.m.Dirty(), blk, blk)
	}
}

// Write-through: every write goes on to memory and is acknowledged from
// there; with write-allocate the cache keeps a clean copy, without it a
// later read misses.
func TestWriteThrough(t *testing.T) {
	for _, alloc := range []bool{true, false} {
		r := newRig(4*blk, 2, Policy{WriteAllocate: alloc})
		ack := r.do(t, fabric.WriteReq, 0, blk)
		if r.mem.BytesWrite != blk || r.m.Dirty() != 0 {
			t.Errorf("allocate %v: memory wrote %d, dirty %d; want %d and 0", alloc, r.mem.BytesWrite, r.m.Dirty(), blk)
		}
		if want := 100e-9 + 500e-9 + blk/1000e9; !near(float64(ack), want) {
			t.Errorf("allocate %v: acknowledged after %g s, want %g (memory's)", alloc, float64(ack), want)
		}
		r.do(t, fabric.ReadReq, 0, blk)
		if hit := r.m.Hits == 1; hit != alloc {
			t.Errorf("allocate %v: read after write hit %v", alloc, hit)
		}
	}
}

// Write-back without write-allocate takes only writes whose lines are
// all there; the others go on to memory.
func TestWriteBackNoAllocate(t *testing.T) {
	r := newRig(4*blk, 2, Policy{WriteBack: true})
	r.do(t, fabric.WriteReq, 0, blk)
	if r.mem.BytesWrite != blk || r.m.Resident() != 0 {
		t.Errorf("a write of absent lines: memory wrote %d, resident %d; want %d, 0", r.mem.BytesWrite, r.m.Resident(), blk)
	}
	r.do(t, fabric.ReadReq, 0, blk)
	r.do(t, fabric.WriteReq, 0, blk)
	if r.mem.BytesWrite != blk || r.m.Dirty() != blk {
		t.Errorf("a write of present lines: memory wrote %d, dirty %d; want %d, %d", r.mem.BytesWrite, r.m.Dirty(), blk, blk)
	}
}

// closedLoop keeps k reads of size bytes in flight, each answer followed
// at once by the next read, until n are issued (left counts those not
// yet scheduled).
type closedLoop struct {
	*sim.ComponentBase
	fabric.Senders
	engine     sim.Engine
	port       sim.Port
	out        *fabric.Sender
	size, left int
	addr, wrap int64
	bytes      int64
	arrivals   []sim.VTimeInSec
}

func newLoop(e sim.Engine, size, n int, wrap int64) *closedLoop {
	c := &closedLoop{ComponentBase: sim.NewComponentBase("Loop"), engine: e, size: size, left: n, wrap: wrap}
	c.port, c.out = c.NewPort(e, c, 4096, "Loop", "Port")
	return c
}

func (c *closedLoop) issue(now sim.VTimeInSec) {
	p := fabric.NewRequest(fabric.ReadReq, c.size, hbm, fabric.Route{0}, c.port, nil)
	p.Addr = c.addr % c.wrap
	c.addr += int64(c.size)
	c.out.SendAt(now, now, p)
}

type issueEvent struct{ fabric.EventAt }

func (c *closedLoop) NotifyRecv(now sim.VTimeInSec, port sim.Port) {
	for {
		msg := port.Retrieve(now)
		if msg == nil {
			return
		}
		p := msg.(*fabric.Packet)
		t := p.TakeLag(now) + p.Spread // its last byte is in
		c.bytes += int64(p.Size)
		c.arrivals = append(c.arrivals, t)
		if c.left > 0 {
			c.left--
			c.engine.Schedule(&issueEvent{fabric.EventAt{T: t, H: c}})
		}
	}
}

func (c *closedLoop) Handle(e sim.Event) error {
	if _, ok := e.(*issueEvent); ok {
		c.issue(e.Time())
		return nil
	}
	fabric.HandleSendEvent(e)
	return nil
}

func (c *closedLoop) NotifyPortFree(now sim.VTimeInSec, _ sim.Port) { c.RetryAll(now) }

// With k hits in flight a requester gets k x size per response time (a
// hit's latency and transfer) until the channels are the limit: Little's law.
func TestLittlesLaw(t *testing.T) {
	const size, n = blk, 2000
	peak := 4 * 1000e9
	for _, k := range []int{1, 4, 64} {
		e := sim.NewSerialEngine()
		m := MakeBuilder().WithEngine(e).WithCapacity(1<<20, 4).WithLine(64, blk).
			WithChannels(4, 1000).WithLatency(100).WithMemory(hbm).Build("MALL")
		mem := dram.MakeBuilder().WithEngine(e).WithBandwidth(1000).WithLatency(500).Build("HBM")
		c := newLoop(e, size, n, 64*blk)
		fabric.Wire(c.port, m.TopPort)
		fabric.Wire(m.BottomPort, mem.Port)
		// warm the 64 blocks the loop cycles over one at a time, then
		// measure hits only
		for phase, w := range []int{1, k} {
			c.left, c.bytes, c.arrivals = n-w, 0, nil
			if phase == 0 {
				c.left = 63
			}
			for i := 0; i < w; i++ {
				c.issue(e.CurrentTime())
			}
			if err := e.Run(); err != nil {
				t.Fatal(err)
			}
		}
		if int(c.bytes) != n*size || m.Hits != n || m.Misses != 64 {
			t.Fatalf("k=%d: %d bytes back, %d hits and %d misses; want %d, %d, 64", k, c.bytes, m.Hits, m.Misses, n*size, n)
		}
		// skip the first answers, while the k in flight get into step
		t0, t1 := c.arrivals[n-1001], c.arrivals[n-1]
		got := 1000 * size / float64(t1-t0)
		r := 100e-9 + size/peak // a lone hit's response time
		want := min(peak, float64(k*size)/r)
		if math.Abs(got-want) > 0.01*want {
			t.Errorf("k=%d: %.1f GB/s, Little's law with %.0f ns gives %.1f (peak %.0f)", k, got/1e9, r*1e9, want/1e9, peak/1e9)
		}
	}
}

// After a mix of reads and writes under every policy the cache holds no
// more than it was filled with, serves no more than it was asked, and its
// dirty lines and write-backs are what writes made dirty.
func TestNeverServesMoreThanFilled(t *testing.T) {
	for _, p := range []Policy{wbAlloc, {WriteAllocate: true}, {WriteBack: true}, {}} {
		r := newRig(16*blk, 4, p)
		x := uint64(12345)
		for i := 0; i < 400; i++ {
			x = x*6364136223846793005 + 1442695040888963407
			addr, size := int64(x>>20%(64*blk)), int(x>>44%(2*blk))+1
			kind := fabric.ReadReq
			if x>>10%3 == 0 {
				kind = fabric.WriteReq
			}
			r.do(t, kind, addr, size)
		}
		m := r.m
		if err := m.Audit(); err != "" {
			t.Errorf("%+v: %s", p, err)
		}
		if m.Hits == 0 || m.Misses == 0 {
			t.Errorf("%+v: the mix should both hit and miss (%d, %d)", p, m.Hits, m.Misses)
		}
	}
}

// The audit catches a cache that serves lines it never filled.
func TestAuditCatchesOverServing(t *testing.T) {
	r := newRig(16*blk, 4, wbAlloc)
	r.do(t, fabric.ReadReq, 0, blk)
	r.m.FillBytes = 0
	if r.m.Audit() == "" {
		t.Error("a cache holding lines it never filled passed its audit")
	}
}

// A gather request's ranges are looked up, filled and written range by
// range: a read of two ranges brings in both (and not the bytes between
// them), so reading each alone then hits; a gathered write absorbs both.
func TestGatherRanges(t *testing.T) {
	r := newRig(1<<20, 4, wbAlloc)
	gather := func(kind fabric.Kind, a, b int64) {
		p := fabric.NewRequest(kind, 2*blk, hbm, fabric.Route{0}, r.a.Port, nil)
		p.Addr, p.Extents = a, []fabric.Extent{{Addr: a, Size: blk}, {Addr: b, Size: blk}}
		r.a.Send(r.e.CurrentTime(), p)
		if err := r.e.Run(); err != nil {
			t.Fatal(err)
		}
	}
	gather(fabric.ReadReq, 0, 64*blk)
	if r.m.FillBytes != 2*blk {
		t.Errorf("a gathered read of two blocks filled %d B, want %d", r.m.FillBytes, 2*blk)
	}
	hits := r.m.Hits
	r.do(t, fabric.ReadReq, 64*blk, blk)
	r.do(t, fabric.ReadReq, 0, blk)
	if r.m.Hits != hits+2 {
		t.Errorf("reads of the gathered ranges: %d hits, want 2", r.m.Hits-hits)
	}
	if r.do(t, fabric.ReadReq, blk, blk); r.m.Hits != hits+2 {
		t.Error("the block between the ranges hit: a gather filled it")
	}
	gather(fabric.WriteReq, 128*blk, 256*blk)
	if r.m.AbsorbedBytes != 2*blk || r.m.DirtyBytes != 2*blk {
		t.Errorf("a gathered write of two blocks: %d B absorbed, %d B dirty, want %d each", r.m.AbsorbedBytes, r.m.DirtyBytes, 2*blk)
	}
}
