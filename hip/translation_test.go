package hip_test

import (
	"math"
	"testing"

	"github.com/akisim/akisim/trace"
)

// readTime is a kernel on GCD 0 reading all of host buffer h (allocated by
// alloc, of size bytes) between events a and b.
func readTime(t *testing.T, sets []string, bytes int64, alloc ...trace.Op) float64 {
	t.Helper()
	ops := append(alloc, trace.Op{Op: trace.EventRecord, Event: "a", Stream: 1},
		kernel(0, 1, bytes, []string{"h"}, nil),
		trace.Op{Op: trace.EventRecord, Event: "b", Stream: 1}, trace.Op{Op: trace.EventSync, Event: "b"})
	return elapsed(t, ops, sets)
}

// Kernels reach hipHostMalloc memory through fragment-mapped pages, but
// managed and registered memory page by page: beyond the TLB's reach every
// page is a walk and the kernel runs at the walkers' pace (Frontier: 4 x
// 4 KiB per 640 ns = 25.6 GB/s) instead of the host link's 28.4 GB/s. With huge pages
// (runtime.host_page_bytes = 2 MiB) registered memory reads like pinned.
func TestPageByPageMemoryRunsAtWalkerPace(t *testing.T) {
	const size = 256 * mib
	pinned := size / readTime(t, nil, size, host("h", 3, size))
	registered := size / readTime(t, nil, size, pageable("h", 3, size), register("h"))
	managed := size / readTime(t, nil, size, trace.Op{Op: trace.MallocManaged, Buf: "h", NUMA: intp(3), Bytes: size})
	huge := size / readTime(t, []string{"runtime.host_page_bytes=2097152"}, size, pageable("h", 3, size), register("h"))
	c := build(t, nil).Config
	walkers := float64(int64(c.GCD.PageWalkers)*c.Runtime.HostPageBytes) / (c.GCD.PageWalkNs * 1e-9)
	for _, c := range []struct {
		what      string
		got, want float64
	}{{"registered", registered, walkers}, {"managed", managed, walkers}, {"registered, huge pages", huge, pinned}} {
		if math.Abs(c.got-c.want) > 0.02*c.want {
			t.Errorf("%s: %.2f GB/s, want %.2f", c.what, c.got/1e9, c.want/1e9)
		}
	}
	if pinned < 1.05*walkers {
		t.Errorf("pinned %.2f GB/s is not above the walkers' %.2f GB/s: the test cannot tell them apart", pinned/1e9, walkers/1e9)
	}
}
