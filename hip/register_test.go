package hip_test

import (
	"math"
	"testing"

	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/trace"
)

func register(buf string) trace.Op   { return trace.Op{Op: trace.HostRegister, Buf: buf} }
func unregister(buf string) trace.Op { return trace.Op{Op: trace.HostUnregister, Buf: buf} }

// A copy from or to a registered buffer is a pinned-memory copy: SDMA
// straight from or to the user pages, no staging and no pinning per call,
// so it takes what the same copy of host_malloc memory takes (the same
// steps: equal but for rounding) and less than the same copy of the buffer
// unregistered.
func TestRegisteredCopyIsPinned(t *testing.T) {
	for _, size := range []int64{64 * 1024, 64 * mib} {
		for _, toGPU := range []bool{true, false} {
			copyOps := func(alloc ...trace.Op) []trace.Op {
				src, dst := "h", "d"
				if !toGPU {
					src, dst = dst, src
				}
				return append(append(alloc, device("d", 0, size)), timed(src, dst, size)...)
			}
			pinned := elapsed(t, copyOps(host("h", 0, size)), nil)
			paged := elapsed(t, copyOps(pageable("h", 0, size)), nil)
			_, n := run(t, nil, copyOps(pageable("h", 0, size), register("h")))
			a, _ := n.Runtime.Event("a")
			b, _ := n.Runtime.Event("b")
			reg := float64(b - a)
			if math.Abs(reg-pinned) > 1e-9*pinned {
				t.Errorf("%d B, to GPU %v: registered copy %.6f us, pinned %.6f us: want equal", size, toGPU, reg*1e6, pinned*1e6)
			}
			if reg >= paged {
				t.Errorf("%d B, to GPU %v: registered copy %.3f us, not faster than pageable %.3f us", size, toGPU, reg*1e6, paged*1e6)
			}
			if p := n.Runtime.Pageable; p != (hip.PageableStats{}) {
				t.Errorf("%d B, to GPU %v: registered copy went the pageable way: %+v", size, toGPU, p)
			}
			if moved := n.Cores.BytesRead() + n.Cores.BytesWritten(); moved != 0 {
				t.Errorf("%d B, to GPU %v: host cores moved %d B", size, toGPU, moved)
			}
			if got := sdmaBytes(n); got != uint64(size) {
				t.Errorf("%d B, to GPU %v: SDMA copied %d B, want %d", size, toGPU, got, size)
			}
		}
	}
}

// hipMemcpyAsync of registered memory returns at once, as of pinned memory.
func TestRegisteredAsyncCopyReturns(t *testing.T) {
	const size = 64 * mib
	ops := []trace.Op{pageable("h", 0, size), register("h"), device("d", 0, size), copyAsync("h", "d", size, 1), device("x", 1, 64)}
	res, _ := run(t, nil, ops)
	if res[4].Issue >= res[3].End {
		t.Errorf("host went on at %g s, after the copy ended at %g s: the copy blocked it", res[4].Issue, res[3].End)
	}
}

// host_register blocks the host for one HIP call plus the pinning of the
// whole buffer: runtime.pin_ns + runtime.pin_page_ns per 4 KiB page, a
// partial last page counting whole; a buffer of 64 MiB is a mapping of
// its own, so pin_mapped_page_ns per page too.
func TestRegisterCostsAPin(t *testing.T) {
	const size = 64*mib + 100
	ops := []trace.Op{pageable("h", 2, size), register("h"), device("x", 0, 64)}
	res, n := run(t, nil, ops)
	r := n.Config.Runtime
	pages := float64((size + 4095) / 4096)
	if size < r.MmapBytes {
		t.Fatalf("runtime.mmap_bytes %d: the buffer is not a mapping of its own", r.MmapBytes)
	}
	want := (r.APICallNs + r.PinNs + pages*(r.PinPageNs+r.PinMappedPageNs)) * 1e-9
	if got := float64(res[1].End - res[1].Issue); math.Abs(got-want) > 1e-12 {
		t.Errorf("host_register took %.4f us, want %.4f us (api call + pin_ns + %g pages x (pin_page_ns + pin_mapped_page_ns))", got*1e6, want*1e6, pages)
	}
	if res[2].Issue != res[1].End {
		t.Errorf("next call at %g s, want when host_register returned (%g s)", res[2].Issue, res[1].End)
	}
	if !n.Runtime.Registered("h") || n.Runtime.Registered("x") {
		t.Errorf("Registered: h %v, x %v; want true, false", n.Runtime.Registered("h"), n.Runtime.Registered("x"))
	}
}

// host_unregister waits for the device (ROCclr synchronizes before it
// unlocks); the buffer is pageable again: the next large copy pins its
// pages for itself.
func TestUnregisterWaitsAndMakesPageable(t *testing.T) {
	const size = 64 * mib
	ops := []trace.Op{pageable("h", 0, size), register("h"), device("d", 0, size),
		kernel(0, 1, size, []string{"h"}, []string{"d"}),
		unregister("h"),
		{Op: trace.Memcpy, Src: "h", Dst: "d", Bytes: size}}
	res, n := run(t, nil, ops)
	if res[4].End < res[3].End {
		t.Errorf("host_unregister returned at %g s, before the kernel reading the buffer ended (%g s)", res[4].End, res[3].End)
	}
	if n.Runtime.Registered("h") {
		t.Error("h still registered after host_unregister")
	}
	if p := n.Runtime.Pageable; p.PinnedChunks != 1 || p.PinnedBytes != size {
		t.Errorf("the copy after host_unregister pinned %d chunks (%d B), want 1 (%d B)", p.PinnedChunks, p.PinnedBytes, size)
	}
}

// A kernel reads a registered buffer in place, from its NUMA domain's
// DRAM; Check refuses the same kernel once the buffer is unregistered.
func TestKernelReadsRegistered(t *testing.T) {
	const size = 16 * mib
	ops := []trace.Op{pageable("h", 1, size), register("h"), device("d", 2, size),
		kernel(2, 1, size, []string{"h"}, []string{"d"}), {Op: trace.DeviceSync}}
	n := build(t, nil)
	lim := job.Limits(n.Config)
	if err := trace.Check(ops, lim, "t"); err != nil {
		t.Fatalf("kernel reading a registered buffer: %v", err)
	}
	if _, err := n.Run(ops); err != nil {
		t.Fatal(err)
	}
	if got := n.DRAM[1].BytesRead; got != size {
		t.Errorf("NUMA 1 DRAM read %d B, want the registered buffer once (%d B)", got, size)
	}
	if got := cusOf(n, 2).BytesRead; got != size {
		t.Errorf("GCD 2's CUs read %d B, want %d", got, size)
	}
	bad := append(append([]trace.Op{}, ops[:3]...), unregister("h"), ops[3])
	want := `t:5: access[0].buf: "h" is pageable (malloc_pageable) memory, which a kernel cannot reach in place: copy it to the GCD, register it (host_register) or allocate it with host_malloc`
	if err := trace.Check(bad, lim, "t"); err == nil || err.Error() != want {
		t.Errorf("kernel reading an unregistered pageable buffer: got %v, want %s", err, want)
	}
}
