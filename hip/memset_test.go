package hip_test

import (
	"testing"

	"github.com/akisim/akisim/trace"
)

func memset(buf string, bytes int64, gcd int) trace.Op {
	return trace.Op{Op: trace.Memset, Buf: buf, Bytes: bytes, GCD: intp(gcd)}
}

// hipMemset of a managed buffer on a GCD: ROCm 5.3's ROCclr fills it on
// the CPU, so its blocks come back to host DRAM and no kernel runs; 6.2's
// runs a fill kernel on the current GCD and the blocks stay there. The
// call returns when the fill is done either way.
func TestMemsetManagedByRelease(t *testing.T) {
	const size = 4 * mib
	ops := []trace.Op{managed("m", 1, size), prefetch("m", "2"), {Op: trace.DeviceSync}, memset("m", size, 2), device("x", 0, 64)}
	for _, c := range []struct {
		rocm   string
		kind   trace.Kind
		toHost uint64
	}{{"5.3", trace.HostAccess, 2}, {"6.2", trace.Kernel, 0}} {
		res, n := run(t, append([]string{"stack.rocm=" + c.rocm}, xnack...), ops)
		if k := res[3].Op.Op; k != c.kind {
			t.Errorf("ROCm %s: memset ran as %s, want %s", c.rocm, k, c.kind)
		}
		if m := n.Runtime.Managed; m.BlocksToHost != c.toHost || m.BlocksToGPU != 2 {
			t.Errorf("ROCm %s: %+v, want 2 blocks to GCD 2 and %d back", c.rocm, m, c.toHost)
		}
		if res[4].Issue < res[3].End {
			t.Errorf("ROCm %s: the next call at %g s, before the memset ended at %g s", c.rocm, res[4].Issue, res[3].End)
		}
	}
}

// hipMemset of device memory is a fill kernel on the current GCD writing
// the buffer's HBM; of pinned host memory the calling thread's memset,
// which writes the domain's DDR4.
func TestMemsetDeviceAndHost(t *testing.T) {
	const size = 1 * mib
	res, n := run(t, nil, []trace.Op{device("d", 3, size), host("h", 2, size), memset("d", size, 3), memset("h", size, 0)})
	if res[2].Op.Op != trace.Kernel || res[3].Op.Op != trace.HostAccess {
		t.Errorf("memsets ran as %s and %s, want kernel and host_access", res[2].Op.Op, res[3].Op.Op)
	}
	if w := n.DRAM[2].BytesWrite; w != size {
		t.Errorf("NUMA 2 wrote %d B, want %d", w, size)
	}
	if n.Cores.BytesWritten() != size {
		t.Errorf("host cores wrote %d B, want %d (the host buffer only)", n.Cores.BytesWritten(), size)
	}
}
