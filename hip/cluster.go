package hip

import (
	"fmt"

	"github.com/akisim/akisim/components/cpu"
	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/sdma"
	"github.com/akisim/akisim/ir"
	"github.com/sarchlab/akita/v3/sim"
)

// A cluster's runtime: one runtime drives every node's GCDs (global ids,
// node by node), each node's host cores, and the NICs' DMA engines. Each
// rank runs on the node of the memory it touches.

// Transport is the network's side of a library's copies between nodes
// (ops with a NIC: RDMA puts and gets on a NIC's DMA engines). The runtime
// queues them on the NIC's engines as it queues copies on SDMA engines;
// what the command carries over the network and when it lands is the
// transport's (package node's NICs).
type Transport interface {
	// Command fills in cmd, op's copy on one of its NIC's DMA engines;
	// land(at, flag, gpu) sets a host flag, or raises a GPU flag, at time
	// at.
	Command(cmd *sdma.CopyCmd, op *ir.Command, land func(at sim.VTimeInSec, flag string, gpu bool))
}

// AddNICs has the runtime send the copies of ops with a NIC through t, on
// the DMA engines of nics NICs (by global NIC id; each node's attached
// when built, Attach), and tells it how many NUMA domains a node has
// (global NUMA ids are node*numaPerNode + domain).
func (r *Runtime) AddNICs(t Transport, nics, numaPerNode int) {
	r.transport, r.numaPer = t, numaPerNode
	r.nicSlots = make([][]*slot, nics)
}

// wireNIC gives the runtime a port to each DMA engine of NIC k.
func (r *Runtime) wireNIC(k int, engines []*sdma.Engine) {
	for i, e := range engines {
		r.nicSlots[k] = append(r.nicSlots[k], &slot{engine: e, nic: k + 1})
		var p sim.Port
		p, r.ctrl[e] = r.NewPort(r.engine, r, 1024, r.Name(), fmt.Sprintf("NIC[%d].Queue[%d]", k, i))
		fabric.Wire(p, e.CtrlPort)
	}
}

// OnDemand has the runtime call build(node) before it first uses a node's
// GCDs, host cores or NICs: a cluster's nodes are built when a run first
// touches them, and build hands their parts back through Attach. Until
// then the runtime knows of each GCD only its NUMA domain.
func (r *Runtime) OnDemand(build func(node int)) { r.demand = build }

// Attach wires the runtime to node k's parts once built: its GCDs (global
// ids from k*len(devices)), host cores and NICs' DMA engines (global NIC
// ids from k*len(nics)).
func (r *Runtime) Attach(k int, devices []Device, cores *cpu.Cores, nics [][]*sdma.Engine) {
	for i, d := range devices {
		r.devices[k*len(devices)+i] = d
		r.wireDevice(k*len(devices)+i, d)
	}
	r.wireCores(k, cores)
	for i, engines := range nics {
		r.wireNIC(k*len(nics)+i, engines)
	}
}

// need has node k built if it is not yet (OnDemand).
func (r *Runtime) need(k int) {
	if r.demand != nil {
		r.demand(k)
	}
}

// device is GCD g, its node built.
func (r *Runtime) device(g int) Device {
	r.need(r.gcdNode(g))
	return r.devices[g]
}

// thread is the sender to node k's host cores, the node built.
func (r *Runtime) thread(k int) *fabric.Sender {
	r.need(k)
	return r.threads[k]
}

// nicEngine is the DMA engine of NIC k a stream's next RDMA copy goes to:
// behind the stream's copies still in flight, on their engine, keeping
// their order; else the engine with the fewest commands sent and not done
// (the lowest on a tie), as the NIC starts a command on an engine that is
// free rather than on one fixed per stream.
func (r *Runtime) nicEngine(s *stream, k int) *slot {
	if last, ok := s.last.(*slot); ok && s.inflight > 0 && last.nic == k+1 {
		return last
	}
	r.need(k / (len(r.nicSlots) / r.nodes()))
	best := r.nicSlots[k][0]
	for _, sl := range r.nicSlots[k][1:] {
		if r.nicLoad[sl] < r.nicLoad[best] {
			best = sl
		}
	}
	return best
}

// flagEvent sets a host flag, or raises a GPU flag, at its time.
type flagEvent struct {
	fabric.EventAt
	flag string
	gpu  bool
}

// nicCmd fills in an RDMA copy's command through the transport.
func (r *Runtime) nicCmd(cmd *sdma.CopyCmd, op *ir.Command) {
	r.transport.Command(cmd, op, func(at sim.VTimeInSec, flag string, gpu bool) {
		r.engine.Schedule(&flagEvent{fabric.EventAt{T: at, H: r}, flag, gpu})
	})
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
func (r *Runtime) coresOfGCD(g int) *fabric.Sender { return r.thread(r.gcdNode(g)) }

// accessNode is the node whose host cores run host access op i: its NUMA
// domain's node, or the node of the first buffer it touches.
func (r *Runtime) accessNode(i int) int {
	op := r.op(i)
	if op.NUMA != nil {
		return r.numaNode(*op.NUMA)
	}
	for _, a := range op.Access {
		if b, ok := r.bufs[a.Buf]; ok {
			if b.Host {
				return r.numaNode(b.NUMA)
			}
			return r.gcdNode(b.GCD)
		}
	}
	return 0
}

// waitGPUFlag blocks thread th until GPU flag name counts n stores (a
// host thread polling device memory); true if it must wait.
func (r *Runtime) waitGPUFlag(now sim.VTimeInSec, th *thread, name string, n int) bool {
	f := r.gpuFlag(name)
	if t, ok := f.ReadyAt(n); ok && t <= now {
		return false
	}
	r.block(th, blocker{kind: "gpuflag", event: name, count: n})
	var check func()
	check = func() {
		t, ok := f.ReadyAt(n)
		if !ok {
			f.Notify(check)
			return
		}
		r.engine.Schedule(&flagEvent{fabric.EventAt{T: max(t, r.engine.CurrentTime()), H: r}, "", false})
	}
	check()
	return true
}
