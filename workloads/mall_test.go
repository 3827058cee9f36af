package workloads

import (
	"testing"

	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/invariant"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/node"
	"github.com/akisim/akisim/run"
)

// A MALL that holds lines it never filled is caught by -check; the same
// run with its books intact passes.
func TestInvariantsCatchABrokenMALL(t *testing.T) {
	c := frontier(t, "mall.bytes=268435456")
	st := Stream{GCDs: []int{0}, Alloc: "local", Sizes: []int64{1 << 20}, Kernels: []string{"copy"},
		Iterations: 1, Workgroup: 128, NUMA: c.Host.GCDNUMA}
	runs, _ := st.Runs()
	if _, err := run.Execute(c, runs, run.WithCheck()); err != nil {
		t.Fatalf("intact MALL: %v", err)
	}
	invariant.Corrupt = func(n *node.Node) { n.GCDs[0].MALL.FillBytes, n.GCDs[0].MALL.WriteFillBytes = 0, 0 }
	defer func() { invariant.Corrupt = nil }()
	_, err := run.Execute(c, runs, run.WithCheck())
	caught := false
	if e, ok := err.(*invariant.Error); ok {
		for _, v := range e.Violations {
			caught = caught || v.Invariant == invariant.MALLFills && v.Component == "Node.GCD[0].MALL"
		}
	}
	if !caught {
		t.Errorf("a MALL holding what it never filled passed: %v", err)
	}
}

// Two XCDs share a kernel's workgroups: both L2s see its traffic, and the
// run's invariants hold.
func TestXCDsShareAKernel(t *testing.T) {
	c := frontier(t, "gcd.xcds=2", "gcd.compute_units=55")
	st := Stream{GCDs: []int{0}, Alloc: "local", Sizes: []int64{4 << 20}, Kernels: []string{"copy"},
		Iterations: 2, Workgroup: 128, NUMA: c.Host.GCDNUMA}
	runs, _ := st.Runs()
	var l2s [2]uint64
	run.AfterRun = func(n *node.Node, _ job.Run, _ []hip.OpResult) {
		for x, l := range n.GCDs[0].L2s {
			l2s[x] += l.ReadBytes
		}
	}
	defer func() { run.AfterRun = nil }()
	res, err := run.Execute(c, runs, run.WithCheck())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) == 0 || l2s[0] == 0 || l2s[0] != l2s[1] {
		t.Errorf("L2 reads by XCD %v: want equal halves of the kernel's reads", l2s)
	}
}
