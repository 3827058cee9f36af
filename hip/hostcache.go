package hip

import (
	"slices"

	"github.com/akisim/akisim/components/fabric"
)

// Host lines dirty in a CCD's L3. A host thread's stores to host memory
// leave their lines modified in its CCD's L3 when they fit there
// (host.l3_bytes). A device that then reads them (an SDMA copy from host
// memory) gets them from that L3, not from DRAM, so the data leaves the
// CCD over its link to the IO die (host.ccd_link_gbps): 16 B per fabric
// clock, below the host link's rate. A device write to the lines takes them
// out of the cache. Each L3 drops its least recently written ranges first.

// dirtyRange is a range of host memory a CCD's L3 holds modified.
type dirtyRange struct {
	place
	bytes int64
	link  *fabric.Server // the CCD's link to the IO die
	gone  bool           // dropped; still in its L3's queue until popped
}

func (d *dirtyRange) end() int64 { return d.addr + d.bytes }

// dirtyLines are the dirty ranges, found by memory and address (each
// memory's sorted and disjoint: a write drops what it overlaps first) and
// kept per L3 in the order written. Every copy asks them, so neither a
// look-up nor a drop scans them all.
type dirtyLines struct {
	byMem map[fabric.Memory][]*dirtyRange
	l3    map[*fabric.Server]*l3Lines
}

// l3Lines is one CCD's L3: its ranges oldest first (from head) and the
// bytes of those not gone.
type l3Lines struct {
	queue []*dirtyRange
	head  int
	held  int64
}

// firstEnding is the index of the first of rs (one memory's) ending after addr.
func firstEnding(rs []*dirtyRange, addr int64) int {
	i, _ := slices.BinarySearchFunc(rs, addr, func(d *dirtyRange, a int64) int {
		if d.end() <= a {
			return -1
		}
		return 1
	})
	return i
}

// forget drops every dirty range overlapping bytes at p.
func (r *Runtime) forget(p place, bytes int64) {
	rs := r.dirty.byMem[p.mem]
	i := firstEnding(rs, p.addr)
	j := i
	for j < len(rs) && rs[j].addr < p.addr+bytes {
		rs[j].gone = true
		r.dirty.l3[rs[j].link].held -= rs[j].bytes
		j++
	}
	if j > i {
		r.dirty.byMem[p.mem] = slices.Delete(rs, i, j)
	}
}

// cpuWrote records that rank's host thread(s) on node stored bytes at p.
// One thread's stores stay in its CCD's L3 if they fit; older ranges in
// that L3 go (least recently written first). Several threads' stores
// spread over several CCDs, whose links together pass the host link's
// rate, so they are left to DRAM's path.
func (r *Runtime) cpuWrote(node, rank, threads int, p place, bytes int64) {
	if !p.mem.Host || bytes <= 0 {
		return
	}
	r.forget(p, bytes)
	c := r.cores[node]
	link := c.CCDLink(rank)
	if link == nil || threads > 1 || bytes > c.L3Bytes() {
		return
	}
	d := &r.dirty
	if d.byMem == nil {
		d.byMem, d.l3 = map[fabric.Memory][]*dirtyRange{}, map[*fabric.Server]*l3Lines{}
	}
	nd := &dirtyRange{place: p, bytes: bytes, link: link}
	rs := d.byMem[p.mem]
	d.byMem[p.mem] = slices.Insert(rs, firstEnding(rs, p.addr), nd)
	l3 := d.l3[link]
	if l3 == nil {
		l3 = &l3Lines{}
		d.l3[link] = l3
	}
	l3.queue = append(l3.queue, nd)
	l3.held += bytes
	for l3.held > c.L3Bytes() {
		old := l3.queue[l3.head]
		l3.queue[l3.head] = nil
		l3.head++
		if !old.gone {
			r.forget(old.place, old.bytes)
		}
	}
	if l3.head > len(l3.queue)/2 { // the popped half goes: the queue stays within twice its ranges
		l3.queue = append(l3.queue[:0], l3.queue[l3.head:]...)
		l3.head = 0
	}
}

// dirtyLink is the link a device read of bytes at p leaves a CCD by, if a
// CCD's L3 holds all of them modified; nil when DRAM serves them.
func (r *Runtime) dirtyLink(p place, bytes int64) *fabric.Server {
	rs := r.dirty.byMem[p.mem]
	if i := firstEnding(rs, p.addr); i < len(rs) && rs[i].addr <= p.addr && p.addr+bytes <= rs[i].end() {
		return rs[i].link
	}
	return nil
}
