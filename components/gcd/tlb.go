package gcd

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// TLB is the GCD's shared (UTCL2) translation cache as kernels see it.
// VRAM and hipHostMalloc memory are mapped in large physically contiguous
// fragments, so one entry covers megabytes and translation never limits;
// memory mapped page by page (managed memory in host DRAM, registered
// user pages) needs an entry per page. A miss takes a page-table walk; the
// walkers serve walks at a bounded rate, so a stream over more pages than
// the TLB holds runs at the walkers' pace.
type TLB struct {
	entries int
	walk    sim.VTimeInSec
	walkers fabric.Server   // in walks: BytesPerSec is walks per second
	pages   blockMap[block] // resident pages, keyed as L2 blocks are (blockID)
	lru     lru

	Lookups, Misses uint64
}

// NewTLB returns a TLB of entries pages whose walks take walkNs each,
// walkers at a time.
func NewTLB(entries, walkers int, walkNs float64) *TLB {
	return &TLB{entries: entries, walk: fabric.Ns(walkNs),
		walkers: fabric.Server{BytesPerSec: float64(walkers) / (walkNs * 1e-9)},
		pages:   newBlockMap[block](entries)}
}

// Translate looks up the pages of bytes at addr in m, mapped in pages of
// pageBytes, for a request issued at now. It returns when the first
// page's translation is ready and how long after it the last one follows
// (now, 0 when all hit): requests stream out as their pages translate.
func (t *TLB) Translate(now sim.VTimeInSec, m fabric.Memory, addr int64, bytes int, pageBytes int64) (ready, spread sim.VTimeInSec) {
	misses := 0
	for p := addr / pageBytes; p <= (addr+int64(bytes)-1)/pageBytes; p++ {
		t.Lookups++
		id := blockID(m, p)
		if e := t.pages.get(id); e != nil {
			t.lru.moveToFront(e)
			continue
		}
		misses++
		e := &block{id: id}
		if t.lru.n >= t.entries { // evict the least recent page, reusing its entry
			e = t.lru.tail
			t.lru.remove(e)
			t.pages.remove(e.id)
			e.id = id
		}
		t.pages.put(e.id, e)
		t.lru.pushFront(e)
	}
	if misses == 0 {
		return now, 0
	}
	t.Misses += uint64(misses)
	first, after := t.walkers.Stream(now, now, misses, 0)
	return first + t.walk, after
}
