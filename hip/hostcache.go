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
// out of the cache; the L3 keeps the most recent ranges that fit.

// dirtyRange is a range of host memory a CCD's L3 holds modified.
type dirtyRange struct {
	place
	bytes int64
	link  *fabric.Server // the CCD's link to the IO die
}

func (d dirtyRange) overlaps(p place, bytes int64) bool {
	return d.mem == p.mem && d.addr < p.addr+bytes && p.addr < d.addr+d.bytes
}

// forget drops every dirty range overlapping bytes at p.
func (r *Runtime) forget(p place, bytes int64) {
	r.dirty = slices.DeleteFunc(r.dirty, func(d dirtyRange) bool { return d.overlaps(p, bytes) })
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
	r.dirty = append(r.dirty, dirtyRange{p, bytes, link})
	held := int64(0)
	for k := len(r.dirty) - 1; k >= 0; k-- {
		if r.dirty[k].link != link {
			continue
		}
		if b := r.dirty[k].bytes; held+b > c.L3Bytes() {
			r.dirty = slices.Delete(r.dirty, k, k+1)
		} else {
			held += b
		}
	}
}

// dirtyLink is the link a device read of bytes at p leaves a CCD by, if a
// CCD's L3 holds all of them modified; nil when DRAM serves them.
func (r *Runtime) dirtyLink(p place, bytes int64) *fabric.Server {
	for _, d := range r.dirty {
		if d.mem == p.mem && d.addr <= p.addr && p.addr+bytes <= d.addr+d.bytes {
			return d.link
		}
	}
	return nil
}
