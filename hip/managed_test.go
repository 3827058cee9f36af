package hip_test

import (
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/trace"
)

var xnack = []string{"env.HSA_XNACK=1"}

func managed(name string, numa int, bytes int64) trace.Op {
	return trace.Op{Op: trace.MallocManaged, Buf: name, NUMA: intp(numa), Bytes: bytes}
}

func prefetch(buf, dst string) trace.Op {
	return trace.Op{Op: trace.Prefetch, Buf: buf, Dst: dst}
}

// With HSA_XNACK=1 a kernel's first touch of each 2 MiB block faults and
// migrates it by SDMA over the GCD's host link (the last block clipped to
// the buffer); the blocks stay resident, so a second kernel faults no more
// and reads no host DRAM.
func TestManagedFaultMigratesBlocks(t *testing.T) {
	const size = 5 * mib // blocks of 2, 2 and 1 MiB
	ops := []trace.Op{managed("m", 1, size), kernel(2, 1, size, []string{"m"}, nil),
		{Op: trace.DeviceSync}}
	_, n := run(t, xnack, ops)
	m := n.Runtime.Managed
	if m.Faults != 3 || m.BlocksToGPU != 3 || m.BytesToGPU != size || m.BlocksToHost != 0 {
		t.Errorf("stats %+v, want 3 faults and blocks, %d B to the GCD", m, size)
	}
	if b := sdmaBytes(n); b != size {
		t.Errorf("SDMA copied %d B, want %d", b, size)
	}
	if b := n.GCDs[2].HostEngines[0].BytesCopied; b != size {
		t.Errorf("GCD 2's first host engine (the driver's ring) copied %d B, want %d", b, size)
	}
	_, payload, _ := n.HostLinks[2].Stats(1)
	if payload != size {
		t.Errorf("GCD 2's host link carried %d B towards the GCD, want %d", payload, size)
	}
	if r := n.DRAM[1].BytesRead; r != size {
		t.Errorf("NUMA 1 read %d B, want %d (the migration only)", r, size)
	}

	again := append(ops, kernel(2, 1, size, []string{"m"}, nil), trace.Op{Op: trace.DeviceSync})
	_, n2 := run(t, xnack, again)
	if m2 := n2.Runtime.Managed; m2 != m {
		t.Errorf("second kernel on the same GCD: stats %+v, want unchanged %+v", m2, m)
	}
	if r := n2.DRAM[1].BytesRead; r != size {
		t.Errorf("NUMA 1 read %d B after the second kernel, want %d", r, size)
	}
}

// Each fault costs the driver runtime.managed_fault_ns plus
// the release's managed_page_ns per 4 KiB page before its SDMA copy, one block at
// a time: a kernel on faulting pages takes at least that long.
func TestManagedFaultsSerial(t *testing.T) {
	const size = 8 * mib
	c := loadFrontier(t)
	timed := []trace.Op{managed("m", 0, size), {Op: trace.EventRecord, Event: "a", Stream: 1},
		kernel(0, 1, size, []string{"m"}, nil), {Op: trace.EventRecord, Event: "b", Stream: 1},
		{Op: trace.EventSync, Event: "b"}}
	_, n := run(t, xnack, timed)
	a, _ := n.Runtime.Event("a")
	b, _ := n.Runtime.Event("b")
	driver := 4 * (c.Runtime.ManagedFaultNs + 512*c.Stack.ROCmRelease().ManagedPageNs) * 1e-9
	copyAlone := float64(size) / (c.HostLink.BandwidthGBps * 1e9) // the host link's peak
	if got := float64(b - a); got < driver+copyAlone {
		t.Errorf("kernel on 4 faulting blocks took %g s, less than the driver's %g s plus the copies at link peak %g s", got, driver, copyAlone)
	}
}

// With HSA_XNACK=0 the pages stay in host DRAM: the kernel reads them in
// place over the host link, no fault, no SDMA.
func TestManagedZeroCopyStaysInDRAM(t *testing.T) {
	const size = 4 * mib
	_, n := run(t, nil, []trace.Op{managed("m", 3, size), kernel(0, 1, size, []string{"m"}, nil), {Op: trace.DeviceSync}})
	if m := n.Runtime.Managed; m.Faults != 0 || m.BlocksToGPU != 0 {
		t.Errorf("stats %+v, want no fault and no migration", m)
	}
	if b := sdmaBytes(n); b != 0 {
		t.Errorf("SDMA copied %d B, want 0", b)
	}
	if r := n.DRAM[3].BytesRead; r != size {
		t.Errorf("NUMA 3 read %d B, want %d: the kernel's loads", r, size)
	}
	_, payload, _ := n.HostLinks[0].Stats(1)
	if payload != size {
		t.Errorf("GCD 0's host link carried %d B towards the GCD, want %d: the loads' data", payload, size)
	}
}

// A prefetch moves every block not at its destination, in stream order,
// and the host waits for it; then a kernel there faults no more. Back to
// the host, the blocks come over the link the other way; a prefetch to
// where the data already is moves nothing.
func TestManagedPrefetch(t *testing.T) {
	const size = 4 * mib
	ops := []trace.Op{managed("m", 0, size), prefetch("m", "1"), {Op: trace.DeviceSync},
		kernel(1, 1, size, []string{"m"}, nil), {Op: trace.DeviceSync},
		prefetch("m", "host"), prefetch("m", "host"), {Op: trace.DeviceSync}}
	res, n := run(t, xnack, ops)
	m := n.Runtime.Managed
	if m.Faults != 0 || m.BlocksToGPU != 2 || m.BlocksToHost != 2 || m.BytesToHost != size || m.PrefetchCalls != 3 {
		t.Errorf("stats %+v, want no fault, 2 blocks each way, 3 prefetches", m)
	}
	if res[2].Issue < res[1].End {
		t.Errorf("host went on at %g s, before the prefetch ended at %g s", res[2].Issue, res[1].End)
	}
	_, toHost, _ := n.HostLinks[1].Stats(0)
	if toHost != size {
		t.Errorf("GCD 1's host link carried %d B towards the host, want %d: the blocks once", toHost, size)
	}
	if w := n.DRAM[0].BytesWrite; w != size {
		t.Errorf("NUMA 0 wrote %d B, want %d (the way back)", w, size)
	}
}

// GCD to GCD goes through host DRAM (svm_migrate_vram_to_vram): each block
// crosses GCD 0's host link out and GCD 5's in, two migrations each paying
// the driver's per-page work.
func TestManagedPrefetchGCDToGCD(t *testing.T) {
	const size = 2 * mib
	res, n := run(t, xnack, []trace.Op{managed("m", 0, size), prefetch("m", "0"), prefetch("m", "5"), {Op: trace.DeviceSync}})
	driver := 512 * (n.Config.Stack.ROCmRelease().ManagedPageNs + n.Config.Stack.ROCmRelease().ManagedHostPageNs) * 1e-9
	if d := float64(res[2].End - res[2].Start); d < driver {
		t.Errorf("prefetch GCD 0 -> 5 took %g s, less than two migrations' driver work %g s", d, driver)
	}
	m := n.Runtime.Managed
	if m.BlocksToGPU != 2 || m.BlocksToHost != 1 {
		t.Errorf("stats %+v, want 2 blocks to GCDs, 1 through the host", m)
	}
	_, out, _ := n.HostLinks[0].Stats(0)
	_, in, _ := n.HostLinks[5].Stats(1)
	if out != size || in != size {
		t.Errorf("host links carried %d B out of GCD 0 and %d B into GCD 5, want %d each", out, in, size)
	}
}

func loadFrontier(t *testing.T) *config.Node {
	t.Helper()
	return build(t, nil).Config
}

// The way back: a host store to managed pages on a GCD faults on the CPU
// and migrates their blocks back to host DRAM by SDMA first (whatever
// HSA_XNACK says); the store then goes to DDR4, never to HBM.
func TestManagedHostTouchMigratesBack(t *testing.T) {
	const size = 3 * mib // blocks of 2 and 1 MiB
	store := trace.Op{Op: trace.HostAccess, NUMA: intp(2), Access: []trace.Access{{Buf: "m", Mode: "write", Bytes: size}}}
	res, n := run(t, nil, []trace.Op{managed("m", 2, size), prefetch("m", "4"), store})
	m := n.Runtime.Managed
	if m.BlocksToGPU != 2 || m.BlocksToHost != 2 || m.BytesToHost != size || m.Faults != 0 {
		t.Errorf("stats %+v, want 2 blocks each way, no GPU fault", m)
	}
	_, back, _ := n.HostLinks[4].Stats(0)
	if back != size {
		t.Errorf("GCD 4's host link carried %d B towards the host, want %d", back, size)
	}
	if w := n.DRAM[2].BytesWrite; w != 2*size {
		t.Errorf("NUMA 2 wrote %d B, want %d: the migration back, then the store", w, 2*size)
	}
	driver := 768 * n.Config.Stack.ROCmRelease().ManagedHostPageNs * 1e-9 // 512 + 256 pages back to the host
	if d := float64(res[2].End - res[2].Issue); d < driver {
		t.Errorf("the store took %g s, less than the migration's driver work %g s", d, driver)
	}
}
