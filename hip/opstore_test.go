package hip_test

import (
	"slices"
	"testing"

	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"
)

// chunks hands out commands a chunk at a time, as a streamed run's source.
type chunks struct {
	cmds []ir.Command
	n    int
}

func (c *chunks) Next() ([]ir.Command, error) {
	k := min(c.n, len(c.cmds))
	out := c.cmds[:k]
	c.cmds = c.cmds[k:]
	return out, nil
}

// longKernelRun is a rank whose kernel runs while its thread makes many
// short host calls, chunk after chunk, then waits for the kernel: the
// kernel's stream holds it past many chunks.
func longKernelRun(anyOrder bool, t *testing.T) (order []int, res map[int]hip.OpResult, most int) {
	ops := []trace.Op{device("a", 0, 1<<30), device("b", 0, 1<<30), kernel(0, 1, 1<<30, []string{"a"}, []string{"b"})}
	for range 4000 {
		ops = append(ops, trace.Op{Op: trace.HostCompute, ComputeNs: 10})
	}
	ops = append(ops, trace.Op{Op: trace.DeviceSync})
	n := build(t, nil)
	res = map[int]hip.OpResult{}
	err := n.RunStream(&chunks{cmds: ir.FromTrace(ops), n: 256}, []int{0}, func(o *hip.OpResult) error {
		order = append(order, o.Index)
		res[o.Index] = *o
		most = max(most, hip.HeldChunks(n.Runtime))
		return nil
	}, anyOrder)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != len(ops) {
		t.Fatalf("%d results for %d ops", len(res), len(ops))
	}
	return order, res, most
}

func TestOpsAStreamHoldsLongAreSetAside(t *testing.T) {
	inOrder, want, mostInOrder := longKernelRun(false, t)
	order, got, most := longKernelRun(true, t)
	if !slices.IsSorted(inOrder) {
		t.Error("results came out of order in a run that asks for them in order")
	}
	if k := slices.Index(order, 2); k < 1000 {
		t.Errorf("the kernel's result came %d-th: its later calls waited for it", k)
	}
	if mostInOrder < 10 || most > 4 {
		t.Errorf("chunks held at most: %d in order, %d with ops set aside; want 10 or more, then 4 or fewer", mostInOrder, most)
	}
	for i, w := range want {
		g := got[i]
		if g.Issue != w.Issue || g.Start != w.Start || g.End != w.End || g.Done != w.Done || g.Engine != w.Engine || g.Op.Op != w.Op.Op {
			t.Errorf("op %d: %+v set aside, %+v in order", i, g, w)
		}
	}
}
