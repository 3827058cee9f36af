package hip_test

import (
	"testing"

	"github.com/akisim/akisim/trace"
)

// h2dAfterStores times a copy of bytes from host buffer h (NUMA 0) to GCD
// 4 after threads host threads stored all of h, and after the steps in
// between; it returns the copy's GB/s and the CCD link's rate.
func h2dAfterStores(t *testing.T, bytes int64, threads int, between []trace.Op, sets ...string) (float64, float64) {
	t.Helper()
	ops := []trace.Op{host("h", 0, bytes), device("d", 4, bytes),
		{Op: trace.HostAccess, NUMA: intp(0), Threads: threads,
			Access: []trace.Access{{Buf: "h", Mode: "write", Bytes: bytes}}}}
	ops = append(ops, between...)
	ops = append(ops, copyAsync("h", "d", bytes, 1), trace.Op{Op: trace.StreamSync, Stream: 1})
	res, n := run(t, sets, ops)
	c := res[len(ops)-2]
	return float64(bytes) / float64(c.End-c.Start) / 1e9, n.Config.Host.CCDLinkGBps
}

// One thread's stores that fit in its L3 leave the lines there, so an SDMA
// copy of them runs at the CCD's link to the IO die; lines the host link
// would carry faster from DRAM otherwise.
func TestDirtyL3LinesLeaveByTheCCDLink(t *testing.T) {
	const size = 16 * mib
	got, link := h2dAfterStores(t, size, 1, nil)
	if got > link || got < 0.95*link {
		t.Errorf("16 MiB copy after one thread's stores: %.2f GB/s, want just under the CCD link's %.1f", got, link)
	}
	off, _ := h2dAfterStores(t, size, 1, nil, "host.ccd_link_gbps=0")
	if off < 1.05*got {
		t.Errorf("without the CCD link the copy runs at %.2f GB/s, want faster than %.2f", off, got)
	}
	// a device write takes the lines out of the L3
	d2h := []trace.Op{copyAsync("d", "h", size, 1), {Op: trace.StreamSync, Stream: 1}}
	if v, _ := h2dAfterStores(t, size, 1, d2h); v < 0.99*off {
		t.Errorf("after a device write to the buffer: %.2f GB/s, want DRAM's %.2f", v, off)
	}
	// many threads' stores spread over CCDs; a buffer beyond the L3 is in DRAM
	if v, _ := h2dAfterStores(t, size, 16, nil); v < 0.99*off {
		t.Errorf("after 16 threads' stores: %.2f GB/s, want DRAM's %.2f", v, off)
	}
	big, _ := h2dAfterStores(t, 64*mib, 1, nil)
	bigOff, _ := h2dAfterStores(t, 64*mib, 1, nil, "host.ccd_link_gbps=0")
	if big < 0.99*bigOff {
		t.Errorf("64 MiB, beyond the L3: %.2f GB/s, want DRAM's %.2f", big, bigOff)
	}
}

// An L3 drops its least recently written ranges first: after two more
// 16 MiB buffers are stored by the same thread, the first is in DRAM and
// the second still in the L3.
func TestDirtyL3DropsTheOldestRangesFirst(t *testing.T) {
	const size = 16 * mib
	store := func(buf string) trace.Op {
		return trace.Op{Op: trace.HostAccess, NUMA: intp(0), Access: []trace.Access{{Buf: buf, Mode: "write", Bytes: size}}}
	}
	two := []trace.Op{host("h2", 0, size), host("h3", 0, size), store("h2"), store("h3")}
	dram, _ := h2dAfterStores(t, size, 1, nil, "host.ccd_link_gbps=0")
	if v, _ := h2dAfterStores(t, size, 1, two); v < 0.99*dram {
		t.Errorf("the oldest of three 16 MiB ranges in a 32 MiB L3: %.2f GB/s, want DRAM's %.2f", v, dram)
	}
	if v, link := h2dAfterStores(t, size, 1, []trace.Op{host("h2", 0, size), store("h2")}); v > link {
		t.Errorf("one more 16 MiB range: %.2f GB/s, want the CCD link's %.1f at most (both fit)", v, link)
	}
}
