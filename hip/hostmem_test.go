package hip_test

import (
	"math"
	"testing"

	"github.com/akisim/akisim/trace"
)

// A GCD writing host memory sends write packets over its host link, whose
// header carries the address; reading it, the data comes back in read
// responses without one. So a 1 GiB pinned copy to the host runs slower
// than the copy from it by the ratio of their wire packets, and only
// because of it: with equal headers both directions take the same time.
func TestD2HSlowerThanH2DByTheWriteHeader(t *testing.T) {
	const size = 1 << 30
	bw := func(sets []string, toGPU bool) float64 {
		src, dst := "h", "d"
		if !toGPU {
			src, dst = dst, src
		}
		ops := append([]trace.Op{host("h", 3, size), device("d", 0, size)}, timed(src, dst, size)...)
		return size / elapsed(t, ops, sets) / 1e9
	}
	n := build(t, nil)
	l := n.Config.HostLink
	if l.PacketOverheadBytes <= l.ResponseOverheadBytes {
		t.Fatalf("host link: writes carry %d B of overhead, read data %d B; want writes to carry more", l.PacketOverheadBytes, l.ResponseOverheadBytes)
	}
	h2d, d2h := bw(nil, true), bw(nil, false)
	want := float64(l.PacketPayloadBytes+l.ResponseOverheadBytes) / float64(l.PacketPayloadBytes+l.PacketOverheadBytes)
	if r := d2h / h2d; math.Abs(r/want-1) > 0.01 {
		t.Errorf("1 GiB: D2H %.2f GB/s, H2D %.2f GB/s: ratio %.3f, want the packets' %.3f", d2h, h2d, r, want)
	}
	same := []string{"host_link.packet_overhead_bytes=17", "host_link.response_overhead_bytes=17"}
	if a, b := bw(same, true), bw(same, false); math.Abs(b/a-1) > 0.002 {
		t.Errorf("equal headers: D2H %.2f GB/s, H2D %.2f GB/s, want equal", b, a)
	}
}

// A prefetch to the GCD that already holds the pages moves nothing and
// re-validates nothing (the KFD skips svm_range_validate_and_map when no
// page migrated): it costs the round trip through ROCr's async thread and
// the ioctl, runtime.prefetch_ns, whatever the size.
func TestPrefetchToOwnerCostsTheRoundTrip(t *testing.T) {
	took := func(size int64, sets []string) float64 {
		ops := []trace.Op{managed("m", 1, size), prefetch("m", "0"), {Op: trace.DeviceSync}, prefetch("m", "0")}
		res, n := run(t, sets, ops)
		if n.Runtime.Managed.BlocksToGPU != uint64((size+2*mib-1)/(2*mib)) {
			t.Fatalf("%d B: %d blocks migrated, want the first prefetch's only", size, n.Runtime.Managed.BlocksToGPU)
		}
		return float64(res[3].End - res[3].Start)
	}
	c := build(t, nil).Config.Runtime
	small, large := took(4096, nil), took(64*mib, nil)
	if want := c.PrefetchNs * 1e-9; math.Abs(small-want) > 1e-12 || math.Abs(large-want) > 1e-12 {
		t.Errorf("prefetch to the owner: 4 KiB %g s, 64 MiB %g s, want runtime.prefetch_ns %g s for both", small, large, want)
	}
	if d := took(64*mib, []string{"runtime.prefetch_ns=20000"}); math.Abs(d-20e-6) > 1e-12 {
		t.Errorf("runtime.prefetch_ns=20000: 64 MiB prefetch to the owner took %g s, want 20 us", d)
	}
}

// A managed block the driver mapped on a GCD less than the release's
// fault_pending_ns ago (KFD validate_timestamp) is not restored again
// until that window ends: its retry faults are dropped as duplicates. A
// kernel touching a block again right after a prefetch sent it back to
// the host waits out the 2 ms of ROCm 5.7's driver; 6.2's has no window.
func TestFirstTouchWaitsOutTheFaultWindow(t *testing.T) {
	const size = 4096
	ops := []trace.Op{managed("m", 1, size),
		kernel(0, 1, size, []string{"m"}, nil), {Op: trace.DeviceSync},
		prefetch("m", trace.PrefetchHost), {Op: trace.DeviceSync},
		kernel(0, 1, size, []string{"m"}, nil), {Op: trace.DeviceSync}}
	gap := func(rocm string) (float64, uint64) {
		res, n := run(t, append([]string{"stack.rocm=" + rocm}, xnack...), ops)
		if m := n.Runtime.Managed; m.Faults != 2 || m.BlocksToGPU != 2 || m.BlocksToHost != 1 {
			t.Fatalf("ROCm %s: %+v, want 2 faults, 2 blocks to the GCD, 1 back", rocm, m)
		}
		return float64(res[5].End - res[1].End), n.Runtime.Managed.FaultWaits
	}
	rels := build(t, nil).Config.Stack.ROCmReleases
	window := rels[1].FaultPendingNs * 1e-9
	if rels[1].ROCm != "5.7" || window == 0 {
		t.Fatalf("release 1 is %+v, want 5.7 with a window", rels[1])
	}
	old, waits := gap("5.7")
	if old < window || waits != 1 {
		t.Errorf("ROCm 5.7: the second kernel ended %g s after the first (%d fault waits), want at least the %g s window and 1 wait", old, waits, window)
	}
	now, waits := gap("6.2")
	if now > window/4 || waits != 0 {
		t.Errorf("ROCm 6.2: the second kernel ended %g s after the first (%d fault waits), want well under %g s and none", now, waits, window)
	}
}

// ROCm 5.3's ROCclr pins and copies a pageable buffer 32 MiB at a time,
// 5.7's 128 MiB at a time (pinnedXferSize_): a 64 MiB copy is two pinned
// chunks, each its own SDMA copy with its fixed costs, or one.
func TestPageablePinChunkByRelease(t *testing.T) {
	const size = 64 * mib
	ops := append([]trace.Op{pageable("h", 3, size), device("d", 0, size)}, timed("h", "d", size)...)
	copyOf := func(rocm string) (float64, uint64) {
		res, n := run(t, []string{"stack.rocm=" + rocm}, ops)
		return float64(res[3].End - res[3].Start), n.Runtime.Pageable.PinnedChunks
	}
	old, oldChunks := copyOf("5.3")
	cur, curChunks := copyOf("5.7")
	if oldChunks != 2 || curChunks != 1 {
		t.Errorf("64 MiB pageable copy: %d chunks in 5.3, %d in 5.7, want 2 and 1", oldChunks, curChunks)
	}
	if old <= cur {
		t.Errorf("64 MiB pageable copy: %g s in 5.3, %g s in 5.7, want 5.3 slower by a chunk's fixed costs", old, cur)
	}
}
