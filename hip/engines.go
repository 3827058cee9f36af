package hip

import (
	"fmt"

	"github.com/akisim/akisim/components/sdma"
	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"
)

// Engine choice: whether a copy runs on SDMA or as a blit kernel, and
// which SDMA engine and queue it goes to.

// slot is an SDMA queue of an engine: where a stream's copies go.
type slot struct {
	engine *sdma.Engine
	queue  int
	nic    int // NIC id + 1 for a NIC's DMA engine (0: an SDMA queue)
}

// directItem decides how a copy the GCDs can reach runs: on an SDMA queue, or as a blit kernel
// on the CUs of the GCD whose memory it touches (the source GCD for peer
// copies) when it stays within one GCD, or with HSA_ENABLE_SDMA=0
// (HSA_ENABLE_PEER_SDMA=0 for peer copies).
func (r *Runtime) directItem(i int, op *ir.Command) (item, error) {
	src, ok1 := r.bufs[op.Src]
	dst, ok2 := r.bufs[op.Dst]
	switch {
	case !ok1 || !ok2:
		return item{}, fmt.Errorf("copy names an unallocated buffer")
	case op.NIC != nil:
		return item{op: i, engine: &slot{nic: *op.NIC + 1}}, nil // its DMA engine is picked when it starts (nicEngine)
	case src.Host && dst.Host:
		return item{}, fmt.Errorf("host-to-host copies are not modelled")
	}
	peer := !src.Host && !dst.Host
	local := peer && src.GCD == dst.GCD              // ROCm copies within one GCD with a kernel
	if g := op.CopyGCD; g != nil && peer && !local { // both ends named by the copying GCD's agent
		if op.Bytes >= r.env.ForceSDMASize || r.env.EnableSDMA == 0 {
			return item{op: i, cus: r.device(*g).CUs, blit: true}, nil
		}
		eng, err := r.engineOn(streamKey(op.Rank, op.Stream), *g, 0)
		return item{op: i, engine: eng}, err
	}
	if local || r.env.EnableSDMA == 0 || (peer && r.env.EnablePeerSDMA == 0) || r.p2pBlit(op, peer) {
		g := src.GCD
		if src.Host {
			g = dst.GCD
		}
		return item{op: i, cus: r.device(g).CUs, blit: true}, nil
	}
	eng, err := r.engineFor(streamKey(op.Rank, op.Stream), src, dst)
	return item{op: i, engine: eng}, err
}

// p2pBlit says whether ROCclr runs a copy between two GCDs as a blit
// kernel for its size (stack.rocm_release.p2p_blit_max_bytes).
func (r *Runtime) p2pBlit(op *ir.Command, peer bool) bool {
	return peer && !op.HSA && op.Bytes <= r.rel.P2PBlitMaxBytes
}

// p2pBlitWorkgroups is ROCclr's cap on the workgroups of such a blit
// (rocblit.cpp kLimitWgForKernelP2p).
const p2pBlitWorkgroups = 16

// engineFor picks the SDMA engine and queue for a copy from src to dst
// (not both host buffers) on a stream, by its streamKey: each rank's
// streams are its own, and so are their queues. Host copies use the host
// engines of the GCD holding the device buffer, peer copies the xGMI
// engines of the source GCD. Each stream keeps its queue; streams spread
// over engines first, then over each engine's queues.
func (r *Runtime) engineFor(stream int, src, dst trace.Buffer) (*slot, error) {
	var gcd, class int
	switch {
	case src.Host:
		gcd, class = dst.GCD, 0
	case dst.Host:
		gcd, class = src.GCD, 0
	default:
		gcd, class = src.GCD, 1
	}
	return r.engineOn(stream, gcd, class)
}

// engineOn picks, for a stream, a queue of GCD gcd's host engines (class
// 0) or xGMI engines (class 1).
func (r *Runtime) engineOn(stream, gcd, class int) (*slot, error) {
	key := [3]int{stream, gcd, class}
	if e, ok := r.pick[key]; ok {
		return e, nil
	}
	d := r.device(gcd)
	list := d.HostEngines
	if class == 1 {
		list = d.XGMIEngines
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("GCD %d has no SDMA engine for this copy", gcd)
	}
	n := r.rr[[2]int{gcd, class}]
	r.rr[[2]int{gcd, class}] = n + 1
	e := list[n%len(list)]
	sl := &slot{engine: e, queue: (n / len(list)) % e.Queues()}
	r.pick[key] = sl
	return sl, nil
}
