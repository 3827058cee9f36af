package hip

import (
	"fmt"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/sdma"
	"github.com/sarchlab/akita/v3/sim"
)

// A cluster's runtime: one runtime drives every node's GCDs (global ids,
// node by node), each node's host cores, and the NICs' DMA engines. Each
// rank runs on the node of the memory it touches.

// AddNICs wires the runtime to the NICs' DMA engines (by global NIC id)
// and tells it how many NUMA domains a node has (global NUMA ids are
// node*numaPerNode + domain).
func (r *Runtime) AddNICs(nics [][]*sdma.Engine, numaPerNode int) {
	r.nics, r.numaPer = nics, numaPerNode
	for k, list := range nics {
		for i, e := range list {
			var p sim.Port
			p, r.ctrl[e] = r.NewPort(r.engine, r, 1024, r.Name(), fmt.Sprintf("NIC[%d].Queue[%d]", k, i))
			fabric.Wire(p, e.CtrlPort)
		}
	}
}

// nodes is the number of nodes the runtime drives.
func (r *Runtime) nodes() int { return max(len(r.threads), 1) }

// gcdNode is the node of GCD g.
func (r *Runtime) gcdNode(g int) int { return g / (len(r.devices) / r.nodes()) }

// numaNode is the node of global NUMA domain d.
func (r *Runtime) numaNode(d int) int {
	if r.numaPer == 0 {
		return 0
	}
	return d / r.numaPer
}

// coresOfGCD is the sender to the host cores of GCD g's node.
func (r *Runtime) coresOfGCD(g int) *fabric.Sender { return r.threads[r.gcdNode(g)] }

// coresOf is the sender to the host cores that run host access op i: those
// of its NUMA domain's node, or of the node of the first buffer it touches.
func (r *Runtime) coresOf(i int) *fabric.Sender {
	op := &r.ops[i]
	if op.NUMA != nil {
		return r.threads[r.numaNode(*op.NUMA)]
	}
	for _, a := range op.Access {
		if b, ok := r.bufs[a.Buf]; ok {
			if b.Host {
				return r.threads[r.numaNode(b.NUMA)]
			}
			return r.coresOfGCD(b.GCD)
		}
	}
	return r.threads[0]
}
