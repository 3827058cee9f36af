package hip_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/akisim/akisim/trace"
)

func pageable(name string, numa int, bytes int64) trace.Op {
	return trace.Op{Op: trace.MallocPageable, Buf: name, NUMA: intp(numa), Bytes: bytes}
}

// timed is a copy between events a and b on stream 1, then a wait for b.
func timed(src, dst string, bytes int64) []trace.Op {
	return []trace.Op{{Op: trace.EventRecord, Event: "a", Stream: 1}, copyAsync(src, dst, bytes, 1),
		{Op: trace.EventRecord, Event: "b", Stream: 1}, {Op: trace.EventSync, Event: "b"}}
}

func elapsed(t *testing.T, ops []trace.Op, sets []string) float64 {
	t.Helper()
	_, n := run(t, sets, ops)
	a, _ := n.Runtime.Event("a")
	b, _ := n.Runtime.Event("b")
	return float64(b - a)
}

// Below runtime.pin_min_bytes a copy goes through the GCD's staging buffer
// in runtime.staging_bytes chunks: the host's memcpy reads the user buffer
// from its NUMA domain and writes the staging buffer on the GCD's nearest
// domain (GCD 0: NUMA 3), from where SDMA reads it.
func TestPageableStagedChunksThroughDRAM(t *testing.T) {
	const size = 3 * mib // 1 MiB+4 KiB, 1 MiB+4 KiB, the rest
	sets := []string{"runtime.pin_min_bytes=4194304"}
	ops := append([]trace.Op{pageable("h", 0, size), device("d", 0, size)}, timed("h", "d", size)...)
	_, n := run(t, sets, ops)
	p := n.Runtime.Pageable
	if p.StagedChunks != 3 || p.StagedBytes != size || p.PinnedChunks != 0 {
		t.Errorf("staged %d chunks, %d B, pinned %d chunks; want 3, %d, 0", p.StagedChunks, p.StagedBytes, p.PinnedChunks, size)
	}
	if n.Cores.BytesRead() != size || n.Cores.BytesWritten() != size {
		t.Errorf("host cores read %d B and wrote %d B, want %d each", n.Cores.BytesRead(), n.Cores.BytesWritten(), size)
	}
	user, stage := n.DRAM[0], n.DRAM[3]
	if user.BytesRead != size || user.BytesWrite != 0 {
		t.Errorf("NUMA 0 (user buffer): read %d B, wrote %d B; want %d, 0", user.BytesRead, user.BytesWrite, size)
	}
	if stage.BytesRead != size || stage.BytesWrite != size {
		t.Errorf("NUMA 3 (staging buffer): read %d B, wrote %d B; want %d each", stage.BytesRead, stage.BytesWrite, size)
	}
	if b := sdmaBytes(n); b != size {
		t.Errorf("SDMA copied %d B, want %d", b, size)
	}
}

// Device to host is the mirror image: SDMA into the staging buffer, then
// the host's memcpy out of it.
func TestPageableStagedDeviceToHost(t *testing.T) {
	const size = mib
	ops := append([]trace.Op{pageable("h", 2, size), device("d", 4, size)}, timed("d", "h", size)...)
	_, n := run(t, nil, ops)
	user, stage := n.DRAM[2], n.DRAM[0] // GCD 4's nearest domain is 0
	if user.BytesWrite != size || user.BytesRead != 0 || stage.BytesWrite != size || stage.BytesRead != size {
		t.Errorf("NUMA 2 read %d wrote %d, NUMA 0 read %d wrote %d; want 0, %d, %d, %d",
			user.BytesRead, user.BytesWrite, stage.BytesRead, stage.BytesWrite, size, size, size)
	}
	if p := n.Runtime.Pageable; p.StagedChunks != 1 {
		t.Errorf("%d staged chunks, want 1 (1 MiB fits in one 1 MiB+4 KiB chunk)", p.StagedChunks)
	}
}

// ROCclr waits for each chunk's SDMA copy before the next memcpy: no
// double buffering, so a staged copy takes at least the pinned copy's time
// plus the memcpy's, which DDR4 bounds from below.
func TestPageableStagedChunksAreSerial(t *testing.T) {
	const size = mib
	sets := []string{"runtime.staging_bytes=262144"}
	pinned := elapsed(t, append([]trace.Op{host("h", 3, size), device("d", 0, size)}, timed("h", "d", size)...), sets)
	staged := elapsed(t, append([]trace.Op{pageable("h", 3, size), device("d", 0, size)}, timed("h", "d", size)...), sets)
	c := build(t, nil).Config.DRAM
	memcpy := float64(2*size) / (float64(c.ChannelsPerDomain) * c.ChannelBandwidthGBps * c.Efficiency * 1e9) // read and write in one domain
	if staged < pinned+memcpy {
		t.Errorf("staged copy %.2f us, less than the pinned copy %.2f us plus the memcpy's DDR4 time %.2f us: chunks overlapped",
			staged*1e6, pinned*1e6, memcpy*1e6)
	}
}

// Above runtime.pin_min_bytes the user pages are pinned (runtime.pin_ns +
// runtime.pin_page_ns per 4 KiB page) and SDMA copies straight from them:
// the copy costs the pinned-memory copy plus the pinning and the return of
// the host-synchronous call before the stop event, and the host's cores
// move nothing.
func TestPageablePinnedAboveThreshold(t *testing.T) {
	const size = 4 * mib
	pinned := elapsed(t, append([]trace.Op{host("h", 3, size), device("d", 0, size)}, timed("h", "d", size)...), nil)
	ops := append([]trace.Op{pageable("h", 3, size), device("d", 0, size)}, timed("h", "d", size)...)
	_, n := run(t, nil, ops)
	a, _ := n.Runtime.Event("a")
	b, _ := n.Runtime.Event("b")
	r := n.Config.Runtime
	pin := (r.PinNs + float64(size/4096)*r.PinPageNs) * 1e-9
	ret := r.SyncCallNs * 1e-9
	if got := float64(b - a); math.Abs(got-pinned-pin-ret) > 1e-12 {
		t.Errorf("pageable 4 MiB copy %.4f us, want the pinned copy %.4f us + pinning %.4f us + return %.4f us",
			got*1e6, pinned*1e6, pin*1e6, ret*1e6)
	}
	if p := n.Runtime.Pageable; p.PinnedChunks != 1 || p.PinnedBytes != size || p.StagedChunks != 0 {
		t.Errorf("pinned %d chunks (%d B), staged %d; want 1 (%d B), 0", p.PinnedChunks, p.PinnedBytes, p.StagedChunks, size)
	}
	if n.Cores.BytesRead()+n.Cores.BytesWritten() != 0 {
		t.Errorf("host cores moved %d B", n.Cores.BytesRead()+n.Cores.BytesWritten())
	}
	if n.DRAM[3].BytesRead != size {
		t.Errorf("SDMA read %d B from the user buffer's domain, want %d", n.DRAM[3].BytesRead, size)
	}
}

// A copy larger than the release's pin_chunk_bytes pins, copies and unpins
// chunk by chunk.
func TestPageablePinChunks(t *testing.T) {
	const size = 5 * mib
	ops := append([]trace.Op{pageable("h", 1, size), device("d", 2, size)}, timed("d", "h", size)...)
	_, n := run(t, []string{"stack.rocm_release[*].pin_chunk_bytes=2097152"}, ops)
	if p := n.Runtime.Pageable; p.PinnedChunks != 3 || p.PinnedBytes != size {
		t.Errorf("pinned %d chunks (%d B), want 3 (%d B)", p.PinnedChunks, p.PinnedBytes, size)
	}
}

// hipMemcpyAsync with pageable memory returns only when the copy is done.
func TestPageableAsyncBlocksTheHost(t *testing.T) {
	for _, size := range []int64{64 * 1024, 8 * mib} {
		ops := []trace.Op{pageable("h", 0, size), device("d", 0, size), copyAsync("h", "d", size, 1), device("x", 1, 64)}
		res, _ := run(t, nil, ops)
		if res[3].Issue < res[2].End {
			t.Errorf("%d B: host went on at %g s, before the pageable copy ended at %g s", size, res[3].Issue, res[2].End)
		}
	}
}

// Without SDMA the staged chunks are copied by blit kernels.
func TestPageableWithoutSDMA(t *testing.T) {
	const size = mib
	ops := append([]trace.Op{pageable("h", 3, size), device("d", 0, size)}, timed("h", "d", size)...)
	_, n := run(t, noSDMA, ops)
	if b := sdmaBytes(n); b != 0 {
		t.Errorf("SDMA copied %d B", b)
	}
	if k := kernelsBy(n)[0]; k != 1 {
		t.Errorf("GCD 0 ran %d kernels, want 1 blit", k)
	}
}

// Pinning costs more per page in a buffer glibc mmapped (at least
// runtime.mmap_bytes) and in pages the device writes: a 32 MiB copy
// from a buffer one page short of the threshold pays pin_page_ns per
// page, from one at the threshold pin_mapped_page_ns more, and a copy
// back into it pin_written_page_ns more again.
func TestPageablePinByBuffer(t *testing.T) {
	const size = 32 * mib
	copyOf := func(buf int64, toGPU bool) float64 {
		src, dst := "h", "d"
		if !toGPU {
			src, dst = dst, src
		}
		ops := append([]trace.Op{pageable("h", 3, buf), device("d", 0, size)}, timed(src, dst, size)...)
		_, n := run(t, []string{"runtime.mmap_bytes=" + fmt.Sprint(size), "runtime.pin_mapped_page_ns=1000", "runtime.pin_written_page_ns=50"}, ops)
		a, _ := n.Runtime.Event("a")
		b, _ := n.Runtime.Event("b")
		return float64(b - a)
	}
	pages := float64(size / 4096)
	heap, mapped := copyOf(size-4096, true), copyOf(size, true)
	if d := mapped - heap; math.Abs(d-pages*1000e-9) > 1e-9 {
		t.Errorf("H2D from a mapped buffer took %.3f us more than from a heap one, want %g pages x 1 us", d*1e6, pages)
	}
	if d := copyOf(size, false) - mapped; d < pages*50e-9 {
		t.Errorf("D2H into a mapped buffer took %.3f us more than H2D, want at least %g pages x 50 ns", d*1e6, pages)
	}
}
