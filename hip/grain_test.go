package hip_test

import (
	"testing"

	"github.com/akisim/akisim/trace"
)

// twoReads is two kernels on GCD 0 reading all of buffer b back to back on
// stream 1, with between them the ops given; it returns the L2 bytes GCD 0
// served from the cache and the two kernels' times.
func twoReads(t *testing.T, alloc trace.Op, between ...trace.Op) (hit uint64, first, second float64) {
	t.Helper()
	const size = 4 * mib
	ops := []trace.Op{alloc, kernel(0, 1, size, []string{"b"}, nil)}
	ops = append(append(ops, between...), kernel(0, 1, size, []string{"b"}, nil), trace.Op{Op: trace.DeviceSync})
	res, n := run(t, nil, ops)
	k1, k2 := res[1], res[len(ops)-2]
	return n.GCDs[0].L2.HitBytes, float64(k1.End - k1.Start), float64(k2.End - k2.Start)
}

// Coarse-grained memory away from the kernel's GCD (hipMalloc on a peer,
// hipHostMallocNonCoherent) may stay in its L2: a second kernel reading it
// right after the first hits and runs faster. Fine-grained memory (malloc
// "fine", hipHostMalloc) never does.
func TestCoarseNonLocalMemoryIsCached(t *testing.T) {
	const size = 4 * mib
	for _, c := range []struct {
		what   string
		alloc  trace.Op
		cached bool
	}{
		{"hipMalloc on GCD 1", device("b", 1, size), true},
		{"fine-grained on GCD 1", trace.Op{Op: trace.Malloc, Buf: "b", GCD: intp(1), Bytes: size, Fine: true}, false},
		{"hipHostMallocNonCoherent", trace.Op{Op: trace.HostMalloc, Buf: "b", NUMA: intp(3), Bytes: size, NonCoherent: true}, true},
		{"hipHostMalloc", host("b", 3, size), false},
	} {
		hit, first, second := twoReads(t, c.alloc)
		switch {
		case c.cached && (hit < size || second >= first):
			t.Errorf("%s: %d B hit, kernels %.2f then %.2f us: want the second to hit all %d B and be faster",
				c.what, hit, first*1e6, second*1e6, size)
		case !c.cached && hit != 0:
			t.Errorf("%s: %d B hit, want none (MTYPE UC)", c.what, hit)
		}
	}
}

// An event marker, a barrier (stream wait) and an SDMA copy give the next
// kernel a system-scope acquire: the L2 drops its non-local lines, and the
// second kernel misses again.
func TestSystemScopeDropsNonLocalLines(t *testing.T) {
	const size = 4 * mib
	for _, c := range []struct {
		what    string
		between []trace.Op
	}{
		{"event", []trace.Op{{Op: trace.EventRecord, Event: "e", Stream: 1}}},
		{"stream wait", []trace.Op{{Op: trace.EventRecord, Event: "e", Stream: 2}, {Op: trace.StreamWait, Event: "e", Stream: 1}}},
		{"SDMA copy", []trace.Op{host("h", 3, 4096), device("d", 0, 4096), copyAsync("h", "d", 4096, 1)}},
	} {
		if hit, _, _ := twoReads(t, device("b", 1, size), c.between...); hit != 0 {
			t.Errorf("after a %s: %d B hit, want none", c.what, hit)
		}
	}
}

// Managed memory is fine-grained until mem_advise sets coarse grain.
func TestManagedGrainAdvice(t *testing.T) {
	const size = 4 * mib
	m := trace.Op{Op: trace.MallocManaged, Buf: "b", NUMA: intp(3), Bytes: size}
	if hit, _, _ := twoReads(t, m); hit != 0 {
		t.Errorf("fine managed memory: %d B hit, want none", hit)
	}
	ops := []trace.Op{m, {Op: trace.MemAdvise, Buf: "b", Advice: trace.AdviseSetCoarseGrain},
		kernel(0, 1, size, []string{"b"}, nil), kernel(0, 1, size, []string{"b"}, nil), {Op: trace.DeviceSync}}
	if _, n := run(t, nil, ops); n.GCDs[0].L2.HitBytes < size {
		t.Errorf("coarse managed memory: %d B hit, want the second pass's %d", n.GCDs[0].L2.HitBytes, size)
	}
}
