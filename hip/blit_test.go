package hip_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/akisim/akisim/trace"
)

// odd is a copy size that is not a whole number of workgroups' bytes.
const odd = 8*mib + 100

// With HSA_ENABLE_SDMA=0 every copy is a blit kernel on the CUs of the GCD
// whose memory it touches (the source GCD of a peer copy): that GCD's CUs
// move every byte once each way and no SDMA engine moves anything. ROCr's
// copies take ceil(bytes / blit_workgroup_bytes) workgroups; a copy within
// one GCD is ROCclr's kernel (TestLocalCopyIsROCclrsKernel).
func TestBlitWithoutSDMARunsOnTheRightGCD(t *testing.T) {
	cases := []struct {
		name string
		ops  []trace.Op
		gcd  int
	}{
		{"host to GCD 3", []trace.Op{host("h", 1, odd), device("d", 3, odd), copyAsync("h", "d", odd, 1)}, 3},
		{"GCD 5 to host", []trace.Op{device("d", 5, odd), host("h", 2, odd), copyAsync("d", "h", odd, 1)}, 5},
		{"peer GCD 2 to GCD 6", []trace.Op{device("a", 2, odd), device("b", 6, odd),
			{Op: trace.MemcpyPeerAsy, Src: "a", Dst: "b", Bytes: odd, Stream: 1}}, 2},
		{"within GCD 7", []trace.Op{device("a", 7, odd), device("b", 7, odd), copyAsync("a", "b", odd, 1)}, 7},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ops := append(c.ops, trace.Op{Op: trace.DeviceSync})
			res, n := run(t, noSDMA, ops)
			cp := res[2]
			cus := cusOf(n, c.gcd)
			if cp.Engine != cus.Name() {
				t.Errorf("copy ran on %q, want %q", cp.Engine, cus.Name())
			}
			if got, want := kernelsBy(n), only(len(n.GCDs), c.gcd, 1); !reflect.DeepEqual(got, want) {
				t.Errorf("kernels per GCD %v, want %v", got, want)
			}
			per := n.Config.Runtime.BlitWorkgroupBytes
			if want := uint64((odd + per - 1) / per); c.name != "within GCD 7" && cus.Workgroups != want {
				t.Errorf("%d workgroups, want %d (%d B in %d B per workgroup)", cus.Workgroups, want, odd, per)
			}
			if cus.BytesRead != odd || cus.BytesWritten != odd {
				t.Errorf("CUs read %d B and wrote %d B, want %d each", cus.BytesRead, cus.BytesWritten, odd)
			}
			if b := sdmaBytes(n); b != 0 {
				t.Errorf("SDMA engines copied %d B, want none", b)
			}
			if !(cp.Issue < cp.Start && cp.Start < cp.End && res[3].End >= cp.End) {
				t.Errorf("issued %g, ran %g..%g, device_sync returned %g: want issue < start < end <= sync",
					cp.Issue, cp.Start, cp.End, res[3].End)
			}
		})
	}
}

// A copy within one GCD launches ROCclr's copy kernel of the run's
// release: up to ROCm 6.0 a work-item per 4 B in workgroups of 256
// (size/4 + 1 work-items, rounded up to 256), from 6.1 one workgroup of
// 512 per CU looping over 16 B pieces. The old kernel's waves each load
// once, so a large copy pays gcd.wave_start_ns as its slots refill.
func TestLocalCopyIsROCclrsKernel(t *testing.T) {
	ops := []trace.Op{device("a", 7, odd), device("b", 7, odd), copyAsync("a", "b", odd, 1), {Op: trace.DeviceSync}}
	for _, c := range []struct {
		rocm string
		want uint64
	}{{"5.3", (odd/4 + 1 + 255) / 256}, {"5.7", (odd/4 + 1 + 255) / 256}, {"6.2", 110}} {
		_, n := run(t, []string{"stack.rocm=" + c.rocm}, ops)
		cus := cusOf(n, 7)
		if cus.Workgroups != c.want {
			t.Errorf("ROCm %s: %d workgroups, want %d", c.rocm, cus.Workgroups, c.want)
		}
		if cus.BytesRead != odd || cus.BytesWritten != odd {
			t.Errorf("ROCm %s: CUs read %d B and wrote %d B, want %d each", c.rocm, cus.BytesRead, cus.BytesWritten, odd)
		}
	}
	took := func(sets ...string) float64 {
		res, _ := run(t, sets, ops)
		return float64(res[2].End - res[2].Start)
	}
	if with, without := took("stack.rocm=5.3"), took("stack.rocm=5.3", "gcd.wave_start_ns=0"); with <= without {
		t.Errorf("ROCm 5.3: %.1f us with wave starts, %.1f us without: want slower", with*1e6, without*1e6)
	}
}

// With HSA_ENABLE_PEER_SDMA=0 only peer copies become blit kernels: a host
// copy still runs on an SDMA engine.
func TestPeerSDMAOffBlitsOnlyPeerCopies(t *testing.T) {
	ops := []trace.Op{device("a", 1, odd), device("b", 4, odd), host("h", 0, odd),
		{Op: trace.MemcpyPeerAsy, Src: "a", Dst: "b", Bytes: odd, Stream: 1},
		copyAsync("h", "b", odd, 2),
		{Op: trace.DeviceSync}}
	res, n := run(t, []string{"env.HSA_ENABLE_PEER_SDMA=0"}, ops)
	if res[3].Engine != cusOf(n, 1).Name() {
		t.Errorf("peer copy ran on %q, want GCD 1's CUs", res[3].Engine)
	}
	if got, want := kernelsBy(n), only(len(n.GCDs), 1, 1); !reflect.DeepEqual(got, want) {
		t.Errorf("kernels per GCD %v, want %v", got, want)
	}
	if b := sdmaBytes(n); b != odd {
		t.Errorf("SDMA engines copied %d B, want the host copy's %d", b, odd)
	}
	if !engineOf(n.GCDs[4].HostEngines, res[4].Engine) {
		t.Errorf("host copy ran on %q, want a host SDMA engine of GCD 4", res[4].Engine)
	}
}

// A blocking copy run as a blit kernel holds the host until it is done.
func TestBlockingBlitHoldsTheHost(t *testing.T) {
	ops := []trace.Op{host("h", 0, odd), device("d", 0, odd),
		{Op: trace.Memcpy, Src: "h", Dst: "d", Bytes: odd},
		device("x", 0, 64)}
	res, n := run(t, noSDMA, ops)
	if res[2].Engine != cusOf(n, 0).Name() {
		t.Fatalf("copy ran on %q, want GCD 0's CUs", res[2].Engine)
	}
	if res[3].Issue < res[2].End {
		t.Errorf("host went on at %g s, before the blocking blit ended at %g s", res[3].Issue, res[2].End)
	}
}

// Stream order holds across engines: a blit kernel queued behind an SDMA
// copy in its stream waits for it, and the other way round.
func TestBlitAndSDMAKeepStreamOrder(t *testing.T) {
	for _, blitFirst := range []bool{false, true} {
		t.Run(fmt.Sprintf("blit first %v", blitFirst), func(t *testing.T) {
			local := copyAsync("a", "a2", 64*mib, 1) // within GCD 0: a blit kernel
			peer := trace.Op{Op: trace.MemcpyPeerAsy, Src: "a", Dst: "b", Bytes: 64 * mib, Stream: 1}
			first, second := peer, local
			if blitFirst {
				first, second = local, peer
			}
			ops := []trace.Op{device("a", 0, 64*mib), device("a2", 0, 64*mib), device("b", 1, 64*mib),
				first, second, {Op: trace.DeviceSync}}
			res, n := run(t, nil, ops)
			blit := res[3]
			if !blitFirst {
				blit = res[4]
			}
			if blit.Engine != cusOf(n, 0).Name() {
				t.Fatalf("local copy ran on %q, want GCD 0's CUs", blit.Engine)
			}
			after(t, "second copy in the stream", res[4], res[3])
		})
	}
}
