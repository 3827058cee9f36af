package gcd

import (
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/fabric/fabrictest"
	"github.com/akisim/akisim/components/sdma"
	"github.com/sarchlab/akita/v3/sim"
)

type local struct{}

func (local) DataRoutes(a, b int) []fabric.Route { return []fabric.Route{{a}} }
func (local) SignalRoute(a, b int) fabric.Route  { return fabric.Route{a} }
func (local) HubOf(m fabric.Memory) int          { return m.Index }

// A GCD has its engines wired through its hub to its HBM: a local copy on
// an xGMI engine reads and writes the GCD's own HBM.
func TestLocalCopyUsesOwnHBM(t *testing.T) {
	e := sim.NewSerialEngine()
	g := testBuilder().WithEngine(e).WithSDMA(2, 3, sdma.MakeBuilder().WithDatapath(1.5625, 32).WithTransactions(1<<20, 1<<20).WithQueues(8).WithRouteTable(local{})).Build("GCD", 5)
	if len(g.HostEngines) != 2 || len(g.XGMIEngines) != 3 || len(g.Engines()) != 5 {
		t.Fatalf("engines: %d host, %d xGMI", len(g.HostEngines), len(g.XGMIEngines))
	}
	q := fabrictest.NewAgent("Queue", e, 4)
	fabric.Wire(q.Port, g.XGMIEngines[1].CtrlPort)
	const n = 8 << 20
	q.Send(0, &sdma.CopyCmd{ID: 7, Src: fabric.Memory{Index: 5}, Dst: fabric.Memory{Index: 5}, Bytes: n})
	e.Run()
	if len(q.Got) != 1 || q.Got[0].(*sdma.CopyDone).ID != 7 {
		t.Fatalf("completions: %v", q.Got)
	}
	if g.HBM.BytesRead != n || g.HBM.BytesWrite != n {
		t.Errorf("HBM read %d, wrote %d; want %d each", g.HBM.BytesRead, g.HBM.BytesWrite, n)
	}
}
