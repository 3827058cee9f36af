package cpu

import (
	"math"
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/fabric/fabrictest"
	"github.com/sarchlab/akita/v3/sim"
)

// A read from the GCD's own NUMA domain pays the IO-die latency; one from
// another domain pays the extra remote latency too, and nothing else.
func TestRemoteNUMALatency(t *testing.T) {
	read := func(numa int) sim.VTimeInSec {
		e := sim.NewSerialEngine()
		host := MakeBuilder().WithEngine(e).WithHubID(8).WithGCDNUMA([]int{3, 3, 1, 1, 0, 0, 2, 2}).
			WithLatencies(100, 50).Build("Host")
		for d := 0; d < 4; d++ {
			m := testDRAM().WithEngine(e).WithEfficiency(1).Build("DRAM" + string(rune('A'+d)))
			fabric.Wire(host.MemoryPort(d), m.Port)
		}
		link := fabrictest.NewAgent("GCD0Link", e, 4)
		fabric.Wire(host.LinkPort(0), link.Port)
		p := fabric.NewRequest(fabric.ReadReq, 64, fabric.Memory{Host: true, Index: numa}, fabric.Route{0, 8}, link.Port, nil)
		p.Hop = 1 // it came over GCD 0's host link
		link.Send(0, p)
		e.Run()
		return link.Last()
	}
	local, remote := read(3), read(0)
	if want := 100e-9 + 64/51.2e9 + 96e-9; math.Abs(float64(local)-want) > 1e-15 {
		t.Errorf("local read answered at %g, want %g", local, want)
	}
	if d := float64(remote - local); math.Abs(d-50e-9) > 1e-15 {
		t.Errorf("remote NUMA costs %g s more, want 50 ns", d)
	}
}
