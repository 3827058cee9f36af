package hip_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/akisim/akisim/components/cpu"
	"github.com/akisim/akisim/node"
	"github.com/akisim/akisim/trace"
)

// hostLoad times threads host threads on GCD 2's NUMA domain loading
// 64 MiB of GCD 2's memory, with -set overrides; it returns GB/s and the node.
func hostLoad(t *testing.T, threads int, sets ...string) (float64, *node.Node) {
	t.Helper()
	ops := []trace.Op{device("d", 2, 64*mib),
		{Op: trace.HostAccess, NUMA: intp(1), Threads: threads,
			Access: []trace.Access{{Buf: "d", Mode: "read", Bytes: 64 * mib}}}}
	res, n := run(t, sets, ops)
	return 64 * mib / float64(res[1].End-res[1].Start) / 1e9, n
}

// One host thread loading mapped GPU memory is latency-bound: each of its
// core's load lines is a round trip over the host link to HBM, so it moves
// lines x 64 B per round trip (Little's law), far below the link.
func TestHostLoadIsLatencyBound(t *testing.T) {
	gbps, n := hostLoad(t, 1)
	c := n.Config
	if n.Cores.BytesRead() != 64*mib || n.Cores.BytesWritten() != 0 {
		t.Errorf("cores read %d B, wrote %d B; want %d, 0", n.Cores.BytesRead(), n.Cores.BytesWritten(), 64*mib)
	}
	// the request crosses the host link, HBM answers, the data crosses back
	rttNs := 2*c.HostLink.FlightLatencyNs + c.GCD.HBMLatencyNs
	want := float64(c.Host.CoreLoadLines*cpu.Line) / rttNs
	if math.Abs(gbps/want-1) > 0.02 {
		t.Errorf("one thread loads at %.3f GB/s, want %d lines x %d B / %g ns = %.3f GB/s", gbps, c.Host.CoreLoadLines, cpu.Line, rttNs, want)
	}
	for _, lines := range []int{12, 48} {
		got, _ := hostLoad(t, 1, fmt.Sprintf("host.core_load_lines=%d", lines))
		if r, w := got/gbps, float64(lines)/float64(c.Host.CoreLoadLines); math.Abs(r/w-1) > 0.01 {
			t.Errorf("%d load lines: %.3f GB/s, %.3fx the default's, want %.3fx", lines, got, r, w)
		}
	}
}

// More threads load in parallel, one core each, until the host link's
// payload bandwidth for read data (its header has no address) is the limit.
func TestHostLoadThreadsSaturateTheHostLink(t *testing.T) {
	one, n := hostLoad(t, 1)
	l := n.Config.HostLink
	link := l.BandwidthGBps * float64(l.PacketPayloadBytes) / float64(l.PacketPayloadBytes+l.ResponseOverheadBytes)
	for _, th := range []int{2, 4, 8} {
		if got, _ := hostLoad(t, th); math.Abs(got/(one*float64(th))-1) > 0.01 {
			t.Errorf("%d threads load at %.3f GB/s, want %d x %.3f", th, got, th, one)
		}
	}
	if got, _ := hostLoad(t, 64); math.Abs(got/link-1) > 0.02 {
		t.Errorf("64 threads load at %.3f GB/s, want the host link's payload bandwidth %.3f GB/s", got, link)
	}
}

// Loads of host DRAM are cached, and the hardware prefetcher streams ahead
// of them: the miss buffers do not bound them (nor the pageable staging
// memcpy), whatever host.core_load_lines is.
func TestHostDRAMLoadsIgnoreTheLoadLines(t *testing.T) {
	load := func(lines int) float64 {
		ops := []trace.Op{host("h", 1, 64*mib),
			{Op: trace.HostAccess, NUMA: intp(1), Access: []trace.Access{{Buf: "h", Mode: "read", Bytes: 64 * mib}}}}
		res, _ := run(t, []string{fmt.Sprintf("host.core_load_lines=%d", lines)}, ops)
		return float64(res[1].End - res[1].Start)
	}
	if a, b := load(1), load(24); a != b {
		t.Errorf("64 MiB of host DRAM loads took %g s with 1 load line, %g s with 24", a, b)
	}
}

// A host store to host DRAM fills its line first (write-allocate): the
// domain's DRAM reads what the stores write, so a stream of stores moves
// half the bytes per second it would without the fills. Stores to GPU
// memory (uncached over the host link) fill nothing.
func TestHostStoresToDRAMFillTheirLines(t *testing.T) {
	storeTime := func(buf string, allocate bool) (float64, uint64) {
		ops := []trace.Op{host("h", 1, 256*mib), device("d", 2, 256*mib), store(buf, 1, 1, 256*mib)}
		res, n := run(t, []string{fmt.Sprintf("host.store_allocate=%t", allocate), "host.l3_bytes=33554432"}, ops)
		return float64(res[2].End - res[2].Start), n.Cores.BytesRead()
	}
	on, read := storeTime("h", true)
	off, none := storeTime("h", false)
	if read != 256*mib || none != 0 {
		t.Errorf("stores of 256 MiB read %d B with write-allocate, %d B without; want %d, 0", read, none, 256*mib)
	}
	if r := on / off; math.Abs(r-2) > 0.05 {
		t.Errorf("DRAM-bound stores with write-allocate took %.3fx the time without, want 2x", r)
	}
	gpuOn, gpuRead := storeTime("d", true)
	gpuOff, _ := storeTime("d", false)
	if gpuOn != gpuOff || gpuRead != 0 {
		t.Errorf("stores to GPU memory took %g s with write-allocate, %g s without, reading %d B; want the same, 0 B", gpuOn, gpuOff, gpuRead)
	}
}

// An access that fits in a core's L3 (host.l3_bytes) finds its lines there:
// its stores fill nothing from DRAM; one byte more and they all do.
func TestHostStoresWithinTheL3FillNothing(t *testing.T) {
	read := func(l3 int64) uint64 {
		ops := []trace.Op{host("h", 1, 16*mib), store("h", 1, 1, 16*mib)}
		_, n := run(t, []string{"host.store_allocate=true", fmt.Sprintf("host.l3_bytes=%d", l3)}, ops)
		return n.Cores.BytesRead()
	}
	if in, out := read(16*mib), read(16*mib-1); in != 0 || out != 16*mib {
		t.Errorf("16 MiB of stores read %d B with a 16 MiB L3, %d B with one byte less; want 0, %d", in, out, 16*mib)
	}
}
