package hip_test

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/akisim/akisim/components/gcd"
	"github.com/akisim/akisim/components/sdma"
	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/node"
	"github.com/akisim/akisim/trace"
)

// build makes the Frontier node with -set overrides.
func build(t *testing.T, sets []string) *node.Node {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	c, err := config.Load(filepath.Join(filepath.Dir(file), "..", "configs", "frontier-node.toml"), sets)
	if err != nil {
		t.Fatal(err)
	}
	n, err := node.Build(c)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// run replays ops on the Frontier node with -set overrides and fails the
// test if the replay fails.
func run(t *testing.T, sets []string, ops []trace.Op) ([]hip.OpResult, *node.Node) {
	t.Helper()
	n := build(t, sets)
	res, err := n.Run(ops)
	if err != nil {
		t.Fatal(err)
	}
	return res, n
}

// noSDMA is the ROCm environment without SDMA: copies run as blit kernels.
var noSDMA = []string{"env.HSA_ENABLE_SDMA=0"}

func host(name string, numa int, bytes int64) trace.Op {
	return trace.Op{Op: trace.HostMalloc, Buf: name, NUMA: intp(numa), Bytes: bytes}
}

func device(name string, gcd int, bytes int64) trace.Op {
	return trace.Op{Op: trace.Malloc, Buf: name, GCD: intp(gcd), Bytes: bytes}
}

func copyAsync(src, dst string, bytes int64, stream int) trace.Op {
	return trace.Op{Op: trace.MemcpyAsync, Src: src, Dst: dst, Bytes: bytes, Stream: stream}
}

// kernel launches a kernel on gcd in stream that reads and writes whole
// buffers, one work-item per double, workgroups of 256.
func kernel(gcd, stream int, bytes int64, reads, writes []string) trace.Op {
	k := trace.Op{Op: trace.Kernel, Name: "k", GCD: intp(gcd), Stream: stream, Grid: bytes / 8, Workgroup: 256}
	for _, b := range reads {
		k.Access = append(k.Access, trace.Access{Buf: b, Mode: "read", Bytes: bytes})
	}
	for _, b := range writes {
		k.Access = append(k.Access, trace.Access{Buf: b, Mode: "write", Bytes: bytes})
	}
	return k
}

// sdmaBytes is what every SDMA engine of the node copied.
func sdmaBytes(n *node.Node) uint64 {
	var b uint64
	for _, g := range n.GCDs {
		for _, e := range append(append([]*sdma.Engine{}, g.HostEngines...), g.XGMIEngines...) {
			b += e.BytesCopied
		}
	}
	return b
}

// kernelsBy lists how many kernels each GCD's CUs ran.
func kernelsBy(n *node.Node) []uint64 {
	ks := make([]uint64, len(n.GCDs))
	for i, g := range n.GCDs {
		ks[i] = g.CUs.Kernels
	}
	return ks
}

// only is a per-GCD count with want at GCD g and zero elsewhere.
func only(count, g int, want uint64) []uint64 {
	ks := make([]uint64, count)
	ks[g] = want
	return ks
}

// cusOf is the CU array of GCD g.
func cusOf(n *node.Node, g int) *gcd.ComputeUnits { return n.GCDs[g].CUs }

// after fails unless later starts at or after earlier ends.
func after(t *testing.T, what string, later, earlier hip.OpResult) {
	t.Helper()
	if later.Start < earlier.End {
		t.Errorf("%s: started at %g s, before the earlier work ended at %g s", what, later.Start, earlier.End)
	}
}
