package gcd

import (
	"testing"

	"github.com/akisim/akisim/components/fabric"
)

// A kernel that goes over a buffer that fits the L2 many times fetches it
// once and finds it in the L2 on every later pass; the CUs move every
// pass's bytes. The buffer is not a whole number of lines, and steps
// cross the end of a CU's part mid-step.
func TestPassesHitTheL2(t *testing.T) {
	e, g, q := gcdRig(8, 2, 4096, 1600, 500, 1<<20)
	const n, passes = 100000, 50
	k := &KernelCmd{ID: 1, Workgroups: 8 * 64, Reads: []MemStream{{Mem: fabric.Memory{Index: 0}, Bytes: n, Passes: passes}}}
	runKernel(t, e, q, k)
	if g.CUs.BytesRead != n*passes {
		t.Errorf("CUs read %d bytes, want %d passes of %d", g.CUs.BytesRead, passes, n)
	}
	if g.L2.FillBytes > n+2*64 || g.L2.HitBytes < (passes-1)*n-2*64 {
		t.Errorf("L2 filled %d bytes and hit %d; want the buffer (%d bytes) fetched once and hit on the %d later passes", g.L2.FillBytes, g.L2.HitBytes, n, passes-1)
	}
}

// Each CU goes over its own part of the buffer again, a pass at a time,
// not the passes at once: a buffer 16 times the L2 misses on every pass.
func TestPassesOneAfterAnother(t *testing.T) {
	e, g, q := gcdRig(8, 2, 4096, 1600, 500, 64<<10)
	const n, passes = 1 << 20, 4
	k := &KernelCmd{ID: 1, Workgroups: 8, Reads: []MemStream{{Mem: fabric.Memory{Index: 0}, Addr: 1 << 30, Bytes: n, Passes: passes}}}
	runKernel(t, e, q, k)
	if g.L2.FillBytes < (passes-1)*n {
		t.Errorf("L2 filled %d bytes, want about %d: a buffer 16x the L2 streams from memory on every pass", g.L2.FillBytes, passes*n)
	}
	if g.CUs.BytesRead != n*passes {
		t.Errorf("CUs read %d bytes, want %d", g.CUs.BytesRead, n*passes)
	}
}
