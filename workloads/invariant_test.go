package workloads

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/node"
	"github.com/akisim/akisim/trace"
	"github.com/sarchlab/akita/v3/sim"
)

// invariants checks what must hold after any run, whatever the workload:
// every operation completed; no resource was busy longer than the run or
// moved more than its peak over the run; every byte a link took in it
// delivered; SDMA engines copied exactly the bytes of the copies they ran;
// the L2 never served more than it was given.
func invariants(n *node.Node, out []hip.OpResult) []string {
	var bad []string
	fail := func(f string, a ...any) { bad = append(bad, fmt.Sprintf(f, a...)) }
	end := n.Engine.CurrentTime()
	const slack = 1.000001
	for _, o := range out {
		if o.End <= 0 && o.Op.Op != trace.Malloc && o.Op.Op != trace.HostMalloc && o.Op.Op != trace.SetEnv {
			fail("op %d (%s) never completed", o.Index, o.Op.Op)
		}
	}
	busy := func(name string, b sim.VTimeInSec, bytes uint64, bps float64) {
		if b > end*slack {
			fail("%s busy %g s in a %g s run", name, b, end)
		}
		if float64(bytes) > bps*float64(end)*slack {
			fail("%s moved %d bytes, more than its peak allows in %g s", name, bytes, end)
		}
	}
	c := n.Config
	var copied uint64
	for _, o := range out {
		if o.Op.IsCopy() && strings.Contains(o.Engine, "SDMA") {
			copied += uint64(o.Op.Bytes)
		}
	}
	// and the managed-memory migrations the runtime ran on them
	copied += n.Runtime.Managed.BytesToGPU + n.Runtime.Managed.BytesToHost
	var engines uint64
	for _, g := range n.GCDs {
		busy(g.HBM.Name(), g.HBM.BusyTime(), g.HBM.BytesRead+g.HBM.BytesWrite,
			c.GCD.HBMBandwidthGBps*c.GCD.HBMEfficiency*1e9)
		l := g.L2
		if l.HitBytes > l.FillBytes+l.WriteBytes {
			fail("%s served %d bytes from the cache but was given only %d", l.Name(), l.HitBytes, l.FillBytes+l.WriteBytes)
		}
		for _, e := range g.Engines() {
			engines += e.BytesCopied
			busy(e.Name()+".datapath", e.DatapathBusy(), e.BytesCopied, c.SDMA.ClockGHz*float64(c.SDMA.BytesPerCycle)*1e9)
		}
	}
	if engines != copied {
		fail("SDMA engines copied %d bytes, the copies they ran hold %d", engines, copied)
	}
	for _, b := range append(n.Bundles[:len(n.Bundles):len(n.Bundles)], n.HostLinks...) {
		for dir := 0; dir < 2; dir++ {
			_, _, bz := b.Stats(dir)
			if bz > end*slack {
				fail("%s dir %d busy %g s in a %g s run", b.Name(), dir, bz, end)
			}
			if b.InFlight(dir) != 0 {
				fail("%s dir %d still holds %d bytes: taken in, never delivered", b.Name(), dir, b.InFlight(dir))
			}
		}
	}
	for _, d := range n.DRAM {
		busy(d.Name(), d.BusyTime(), d.BytesRead+d.BytesWrite,
			float64(c.DRAM.ChannelsPerDomain)*c.DRAM.ChannelBandwidthGBps*c.DRAM.Efficiency*1e9)
	}
	return bad
}

func sampleTraces(t *testing.T) []Run {
	_, file, _, _ := runtime.Caller(0)
	paths, _ := filepath.Glob(filepath.Join(filepath.Dir(file), "..", "traces", "*.jsonl"))
	var runs []Run
	for _, p := range paths {
		ops, err := trace.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, TraceRun(p, ops))
	}
	if len(runs) == 0 {
		t.Fatal("no sample traces found")
	}
	return runs
}

// The invariants hold over every workload and every sample trace.
func TestInvariants(t *testing.T) {
	runs := append(granularityRuns(t), sampleTraces(t)...)
	cs := DefaultCommScope(8, 4)
	for _, r := range cs.Runs() {
		if strings.Contains(r.Name, "/0/1/") && strings.Contains(r.Name, "log2(N):20/") {
			runs = append(runs, r)
		}
	}
	checked := 0
	afterRun = func(n *node.Node, run Run, out []hip.OpResult) {
		checked++
		for _, b := range invariants(n, out) {
			t.Errorf("%s: %s", run.Name, b)
		}
	}
	defer func() { afterRun = nil }()
	if _, err := Execute(frontier(t), runs); err != nil {
		t.Fatal(err)
	}
	if checked != len(runs) {
		t.Errorf("checked %d runs of %d", checked, len(runs))
	}
}

// A deliberately broken component is caught: an HBM that moved more than
// its peak allows, and an L2 that served bytes it never got.
func TestInvariantsCatchABrokenComponent(t *testing.T) {
	var found []string
	afterRun = func(n *node.Node, run Run, out []hip.OpResult) {
		n.GCDs[0].HBM.BytesRead += 1 << 40
		n.GCDs[0].L2.HitBytes = n.GCDs[0].L2.FillBytes + n.GCDs[0].L2.WriteBytes + 1
		found = invariants(n, out)
	}
	defer func() { afterRun = nil }()
	st := Stream{GCDs: []int{0}, Alloc: "local", Sizes: []int64{1 << 20}, Kernels: []string{"copy"},
		Iterations: 1, Workgroup: 128, NUMA: frontier(t).Host.GCDNUMA}
	runs, _ := st.Runs()
	if _, err := Execute(frontier(t), runs); err != nil {
		t.Fatal(err)
	}
	var hbm, l2 bool
	for _, f := range found {
		hbm = hbm || strings.Contains(f, "HBM moved")
		l2 = l2 || strings.Contains(f, "served")
	}
	if !hbm || !l2 {
		t.Errorf("broken HBM caught %v, broken L2 caught %v: %v", hbm, l2, found)
	}
}
