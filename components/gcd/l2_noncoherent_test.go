package gcd

import (
	"testing"

	"github.com/akisim/akisim/components/dram"
	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/fabric/fabrictest"
	"github.com/sarchlab/akita/v3/sim"
)

// ncRig is a GCD with an 8 MiB L2 and, behind its hub, a slower far
// memory m (a peer's HBM or a NUMA domain: the hub hands requests for it
// to its controller, standing in for the fabric beyond).
type ncRig struct {
	e      *sim.SerialEngine
	g      *GCD
	q      *fabrictest.Agent
	far    *dram.Controller
	m      fabric.Memory
	dones  []*KernelDone
	issued int
}

func newNCRig(m fabric.Memory) *ncRig {
	e, g, q := gcdRig(110, 2, 64<<10, 1400, 500, 8<<20)
	far := dram.MakeBuilder().WithEngine(e).WithBandwidth(50).WithLatency(2000).Build("Far")
	fabric.Wire(g.Hub.MemoryPort(m.Index), far.Port)
	return &ncRig{e: e, g: g, q: q, far: far, m: m}
}

// run queues commands after everything before has finished and runs them.
func (r *ncRig) run(t *testing.T, cmds ...*KernelCmd) {
	t.Helper()
	for _, k := range cmds {
		r.issued++
		k.ID = r.issued
		r.q.Send(r.e.CurrentTime(), k)
	}
	if err := r.e.Run(); err != nil {
		t.Fatal(err)
	}
	if len(r.q.Got) != r.issued {
		t.Fatalf("%d completions of %d commands", len(r.q.Got), r.issued)
	}
	r.dones = r.dones[:0]
	for _, msg := range r.q.Got {
		r.dones = append(r.dones, msg.(*KernelDone))
	}
}

// took is how long command i (from 0, over the rig's life) ran.
func (r *ncRig) took(i int) sim.VTimeInSec { return r.dones[i].End - r.dones[i].Start }

func readFar(m fabric.Memory, bytes int64, nc bool) *KernelCmd {
	return &KernelCmd{Workgroups: 1024,
		Reads: []MemStream{{Mem: m, Bytes: bytes, NonCoherent: nc}}}
}

func writeFar(m fabric.Memory, addr, bytes int64, nc bool) *KernelCmd {
	return &KernelCmd{Workgroups: 1024,
		Writes: []MemStream{{Mem: m, Addr: addr, Bytes: bytes, NonCoherent: nc}}}
}

var (
	peer = fabric.Memory{Index: 1}
	numa = fabric.Memory{Host: true, Index: 3}
)

// Coarse-grained memory elsewhere (MTYPE NC) stays in the L2: a second pass
// over a 4 MiB buffer hits and runs faster. Fine-grained (UC) never hits.
func TestNonCoherentReadsHit(t *testing.T) {
	const n = 4 << 20
	for _, m := range []fabric.Memory{peer, numa} {
		for _, nc := range []bool{true, false} {
			r := newNCRig(m)
			r.run(t, readFar(m, n, nc), readFar(m, n, nc))
			l2 := r.g.L2
			t.Logf("%+v nc=%v: first %.1f us, second %.1f us, hit %d B, far read %d B",
				m, nc, 1e6*r.took(0), 1e6*r.took(1), l2.HitBytes, r.far.BytesRead)
			if nc {
				if l2.HitBytes != n || r.far.BytesRead != n || r.took(1) >= r.took(0)/2 {
					t.Errorf("%+v coarse: hit %d B, far read %d B, %g s then %g s; want the second pass from the L2",
						m, l2.HitBytes, r.far.BytesRead, r.took(0), r.took(1))
				}
				if l2.NonLocalHits == 0 || l2.NonLocalMisses == 0 || l2.NonLocalHits != l2.Hits {
					t.Errorf("%+v coarse: %d non-local hits of %d, %d non-local misses", m, l2.NonLocalHits, l2.Hits, l2.NonLocalMisses)
				}
			} else if l2.HitBytes != 0 || l2.Hits+l2.Misses != 0 || r.far.BytesRead != 2*n || l2.Resident() != 0 {
				t.Errorf("%+v fine: hit %d B, %d hits, %d misses, far read %d B, %d B resident; want nothing cached",
					m, l2.HitBytes, l2.Hits, l2.Misses, r.far.BytesRead, l2.Resident())
			}
			if r.g.HBM.BytesRead != 0 {
				t.Errorf("%+v: HBM read %d B, want none", m, r.g.HBM.BytesRead)
			}
		}
	}
}

// Coarse-grained writes stay dirty in the L2 until a release, which sends
// exactly the dirty bytes to their memory, in one write-back, and leaves
// HBM alone; local dirty lines go to HBM in their own write-back.
func TestReleaseWritesBackNonLocalLines(t *testing.T) {
	const n, local = 3<<20 + 4096, 1 << 20
	r := newNCRig(peer)
	k := writeFar(peer, 12345*64, n, true)
	k.Writes = append(k.Writes, MemStream{Mem: fabric.Memory{Index: 0}, Bytes: local})
	r.run(t, k)
	if r.far.BytesWrite != 0 || r.g.HBM.BytesWrite != 0 {
		t.Fatalf("before the release: far memory got %d B, HBM %d B; want the writes held in the L2",
			r.far.BytesWrite, r.g.HBM.BytesWrite)
	}
	r.run(t, &KernelCmd{Release: true})
	if r.far.BytesWrite != n || r.far.Writes != 1 {
		t.Errorf("release: far memory got %d B in %d writes, want %d B in 1", r.far.BytesWrite, r.far.Writes, n)
	}
	if r.g.HBM.BytesWrite != local || r.g.HBM.Writes != 1 {
		t.Errorf("release: HBM got %d B in %d writes, want %d B in 1", r.g.HBM.BytesWrite, r.g.HBM.Writes, local)
	}
	if l2 := r.g.L2; l2.WriteBackBytes != n+local || l2.NonLocalWriteBacks == 0 || l2.NonLocalWriteBacks >= l2.WriteBacks {
		t.Errorf("release: %d B written back, %d non-local write-backs of %d", l2.WriteBackBytes, l2.NonLocalWriteBacks, l2.WriteBacks)
	}
	// the release also dropped the non-local lines; the local ones stay
	if got := r.g.L2.Resident(); got != local {
		t.Errorf("after the release %d B resident, want the %d local bytes", got, local)
	}
}

// A coarse-grained buffer larger than the L2 is written back to its own
// memory as lines are evicted; nothing is lost or sent to HBM.
func TestEvictionWritesBackToOwnMemory(t *testing.T) {
	const n = 16 << 20
	r := newNCRig(numa)
	r.run(t, writeFar(numa, 0, n, true), &KernelCmd{Release: true})
	if r.far.BytesWrite != n || r.g.HBM.BytesWrite != 0 || r.g.L2.NonLocalWriteBacks < n/(64<<10) {
		t.Errorf("far memory got %d B, HBM %d B, %d non-local write-backs; want %d B to the far memory only",
			r.far.BytesWrite, r.g.HBM.BytesWrite, r.g.L2.NonLocalWriteBacks, n)
	}
}

// After a release or an acquire the L2 holds no non-local lines: the next
// read of a coarse-grained buffer fetches it again. Local lines survive.
func TestReleaseAndAcquireDropNonLocalLines(t *testing.T) {
	const n = 4 << 20
	loc := fabric.Memory{Index: 0}
	acquired := readFar(peer, n, true)
	acquired.Acquire = true
	for name, between := range map[string][]*KernelCmd{
		"release": {{Release: true}, readFar(peer, n, true)},
		"acquire": {acquired},
	} {
		r := newNCRig(peer)
		r.run(t, append([]*KernelCmd{readFar(peer, n, true), readFar(loc, n, false)}, between...)...)
		if r.g.L2.HitBytes != 0 || r.far.BytesRead != 2*n {
			t.Errorf("%s: hit %d B, far read %d B; want the second read to miss", name, r.g.L2.HitBytes, r.far.BytesRead)
		}
		if got := r.g.L2.Resident(); got != 2*n {
			t.Errorf("%s: %d B resident, want the local buffer and the re-read one", name, got)
		}
	}
}

// An acquire writes dirty non-local lines back before dropping them, and
// the kernel after it waits for that; with no non-local lines it is free.
func TestAcquireCost(t *testing.T) {
	const n = 2 << 20
	loc := fabric.Memory{Index: 0}
	for _, dirty := range []*KernelCmd{writeFar(loc, 0, n, false), writeFar(peer, 0, n, true)} {
		plain, acq := readFar(loc, n, false), readFar(loc, n, false)
		acq.Acquire = true
		a, b := newNCRig(peer), newNCRig(peer)
		a.run(t, dirty, plain)
		b.run(t, dirty, acq)
		if dirty.Writes[0].Mem == loc {
			if a.took(1) != b.took(1) || b.far.BytesWrite != 0 {
				t.Errorf("acquire with only local lines took %g s, without %g s; want the same", b.took(1), a.took(1))
			}
			continue
		}
		if a.far.BytesWrite != 0 || b.far.BytesWrite != n || b.g.L2.Resident() != n {
			t.Errorf("acquire: far memory got %d B (%d B without it), %d B resident; want the dirty lines written back and dropped",
				b.far.BytesWrite, a.far.BytesWrite, b.g.L2.Resident())
		}
		// the far memory takes the write-back at 50 GB/s before the kernel starts
		if wb := sim.VTimeInSec(n / 50e9); b.took(1) < a.took(1)+wb {
			t.Errorf("kernel after an acquire with %d dirty bytes took %g s, without %g s; want %g s more",
				n, b.took(1), a.took(1), wb)
		}
	}
}

// Block ids keep memories apart: the same address in a GCD's HBM, a NUMA
// domain of the same index and another GCD's HBM are different blocks,
// and an id gives back its memory.
func TestBlockIDsByMemory(t *testing.T) {
	const last = 1<<addrBits - 1
	seen := map[int64]fabric.Memory{}
	for _, m := range []fabric.Memory{{Index: 0}, {Host: true, Index: 0}, {Index: 1}, {Host: true, Index: 1}, {Index: 7}} {
		for _, b := range []int64{0, last} {
			id := blockID(m, b)
			if o, dup := seen[id]; dup {
				t.Errorf("block %d of %+v and of %+v share id %d", b, m, o, id)
			}
			if got := memOf(id); got != m {
				t.Errorf("block %d of %+v: its id says memory %+v", b, m, got)
			}
			seen[id] = m
		}
	}
}

// A kernel launched with a stop event (SystemRelease) writes back its
// dirty lines before it signals completion, as a separate release would.
func TestSystemReleaseAtKernelEnd(t *testing.T) {
	const local = 1 << 20
	r := newNCRig(peer)
	k := &KernelCmd{Workgroups: 64, Writes: []MemStream{{Mem: fabric.Memory{Index: 0}, Bytes: local}}, SystemRelease: true}
	r.run(t, k)
	if r.g.HBM.BytesWrite != local || r.g.L2.WriteBackBytes != local {
		t.Errorf("kernel with a stop event: HBM got %d B, L2 wrote back %d B; want %d B before it completed",
			r.g.HBM.BytesWrite, r.g.L2.WriteBackBytes, local)
	}
}

// Releases and acquires from kernels of different queues may reach the L2
// while one is still writing back: they wait their turn, and every one is
// answered (a second one used to replace the first, which never completed).
func TestOverlappingReleasesAllComplete(t *testing.T) {
	e := sim.NewSerialEngine()
	g := testBuilder().WithEngine(e).WithHBM(100, 1000).WithKernelRoutes(localKernel{}).
		WithL2(4<<20, 64<<10, 6960, 300).WithComputeUnits(4, 16, 64<<10, 64<<10).WithKernelTimings(0, 0).
		WithConcurrentKernels(4).Build("GCD", 0)
	q := fabrictest.NewAgent("Queue", e, 4)
	fabric.Wire(q.Port, g.CUs.CtrlPort)
	q.Send(0, &KernelCmd{ID: 1, Queue: 1, Workgroups: 16, Writes: []MemStream{{Mem: fabric.Memory{Index: 0}, Bytes: 1 << 20}}})
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	now := e.CurrentTime()
	q.Send(now, &KernelCmd{ID: 2, Queue: 1, Release: true})
	q.Send(now, &KernelCmd{ID: 3, Queue: 2, Release: true})
	q.Send(now, &KernelCmd{ID: 4, Queue: 3, Acquire: true, Workgroups: 1, Reads: []MemStream{{Mem: fabric.Memory{Index: 0}, Bytes: 4096}}})
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if len(q.Got) != 4 {
		t.Fatalf("%d of 4 commands completed", len(q.Got))
	}
	if g.L2.WriteBackBytes != 1<<20 {
		t.Errorf("%d B written back, want the 1 MiB once", g.L2.WriteBackBytes)
	}
}

// The L2 counts its resident blocks of other memories (an acquire walks
// its LRU only up to the last of them) and its blocks holding dirty lines
// (a release walks up to the last of those): both counts match a walk
// through fills, evictions past the 8 MiB capacity, an acquire, which
// leaves no non-local block, and a release, which leaves no dirty one.
func TestL2CountsItsNonLocalAndDirtyBlocks(t *testing.T) {
	r := newNCRig(peer)
	l2 := r.g.L2
	local := fabric.Memory{Index: 0}
	walk := func(when string) {
		far, dirty := 0, 0
		for bl := l2.lru.head; bl != nil; bl = bl.next {
			if !l2.isLocal(memOf(bl.id)) {
				far++
			}
			if _, d := l2.sets(bl); lines(d) > 0 {
				dirty++
			}
		}
		if far != l2.nonLocal || dirty != l2.dirty {
			t.Errorf("%s: %d non-local and %d dirty blocks resident, the L2 counts %d and %d", when, far, dirty, l2.nonLocal, l2.dirty)
		}
	}
	r.run(t, writeFar(peer, 0, 3<<20, true), writeFar(local, 0, 3<<20, false))
	walk("after 3 MiB of each")
	if l2.nonLocal == 0 || l2.dirty == 0 {
		t.Fatal("no non-local or no dirty block resident after coarse-grained peer and local writes")
	}
	r.run(t, writeFar(local, 3<<20, 6<<20, false))
	walk("after evictions")
	r.run(t, &KernelCmd{Acquire: true, Workgroups: 1, Reads: []MemStream{{Mem: local, Bytes: 4096}}})
	walk("after an acquire")
	if l2.nonLocal != 0 {
		t.Errorf("%d non-local blocks after an acquire, want none", l2.nonLocal)
	}
	r.run(t, writeFar(local, 0, 1<<20, false), &KernelCmd{Release: true})
	walk("after a release")
	if l2.dirty != 0 {
		t.Errorf("%d dirty blocks after a release, want none", l2.dirty)
	}
}
