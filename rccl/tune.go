package rccl

import (
	"math/bits"

	"github.com/akisim/akisim/trace"
)

// Tuning holds RCCL's model of its own collectives (src/graph/tuning.cc,
// tuning model 0 of the gfx90a node models), which it uses only to choose
// an algorithm, a protocol and a channel count: the time it predicts is
// lat + bytes / bw; the simulated time comes from the kernels.
type Tuning struct {
	BaseLatUs   map[string]float64    // per protocol (same for ring and tree)
	HwLatUs     map[[2]string]float64 // per algorithm and protocol: an intra-node step
	NetLatUs    map[[2]string]float64 // per algorithm and protocol: a step between nodes
	BWRatio     map[[2]string]float64 // per algorithm and protocol: of the graph's bandwidth
	TreeCorr    map[string][]float64  // per protocol, by log2(bytes/64): the tree's bandwidth correction
	RingCorr    map[string][]float64  // the same for rings across nodes
	ThreadBytes map[[2]string]int64   // per algorithm and protocol: bytes per thread below which a channel is dropped (ring LL: per rank)
}

// Choice is the algorithm, protocol and channel count of a collective.
type Choice struct {
	Algo, Proto string
	Channels    int
}

// choose picks the algorithm and protocol (NCCL_ALGO, NCCL_PROTO, else the
// fastest by the tuning model: tree before ring, LL before Simple, ties to
// the first) and how many of the communicator's channels run collective k
// of bytes over n ranks.
func (p Params) choose(k trace.Kind, bytes int64, n int, c *comm) Choice {
	algos := []string{"Tree", "Ring"}
	if k != trace.RCCLAllReduce || n < 2 { // only AllReduce has a tree
		algos = []string{"Ring"}
	}
	if p.Algo != "" {
		algos = []string{p.Algo}
	}
	protos := []string{"LL", "Simple"}
	if p.Proto != "" {
		protos = []string{p.Proto}
	}
	var best Choice
	bestT := 0.0
	for _, a := range algos {
		for _, pr := range protos {
			if t := p.predict(k, a, pr, bytes, n, c.nodes, c.graphGBps); best.Algo == "" || t < bestT {
				best, bestT = Choice{Algo: a, Proto: pr}, t
			}
		}
	}
	nc := len(c.channels)
	th := p.Tuning.ThreadBytes[[2]string{best.Algo, best.Proto}]
	if best.Algo == "Ring" && best.Proto == "LL" {
		th *= int64(n)
	}
	for nc > 1 && bytes < int64(nc)*int64(p.Threads)*th {
		nc--
	}
	best.Channels = nc
	return best
}

// predict is the tuning model's time (us) of collective k with algorithm
// a and protocol pr over n ranks on nodes nodes, on a graph of graphGBps
// (RCCL's nChannels x bwIntra; tuning.cc ncclTopoTuneModel and
// ncclTopoGetAlgoTime).
func (p Params) predict(k trace.Kind, a, pr string, bytes int64, n, nodes int, graphGBps float64) float64 {
	t := p.Tuning
	nodes = max(nodes, 1)
	steps := ringSendSteps(k, n)
	hw := t.HwLatUs[[2]string{a, pr}]
	net := t.NetLatUs[[2]string{a, pr}]
	lat := t.BaseLatUs[pr]
	bw := graphGBps * t.BWRatio[[2]string{a, pr}]
	corr := func(c []float64) {
		if len(c) > 0 {
			bw *= c[min(log2i(bytes>>6), len(c)-1)]
		}
	}
	switch {
	case a == "Tree":
		lat += 2 * (float64(n/nodes-1)*hw + float64(log2i(int64(nodes)))*net)
		bw *= 0.5
		corr(t.TreeCorr[pr])
	case k == trace.RCCLBroadcast || k == trace.RCCLReduce:
		if nodes > 1 {
			hw = net // RCCL's hw[a]: the network's step once the ring leaves the node
		}
		lat += hw // the model's rings are the same on every channel: one step's latency
		bw *= float64(n) / float64(steps)
	default:
		inter := ringNetSteps(k, nodes)
		lat += float64(steps-inter)*hw + float64(inter)*net
		bw *= float64(n) / float64(steps)
	}
	if a == "Ring" && nodes > 1 {
		corr(t.RingCorr[pr])
	}
	if bw <= 0 {
		return lat + 1e30
	}
	return lat + float64(bytes)/(1e3*bw)
}

// ringNetSteps is RCCL's nInterSteps: the steps of a ring collective that
// cross between nodes.
func ringNetSteps(k trace.Kind, nodes int) int {
	switch {
	case nodes < 2:
		return 0
	case k == trace.RCCLAllReduce:
		return 2 * nodes
	case k == trace.RCCLAllGather || k == trace.RCCLReduceScatter:
		return nodes - 1
	}
	return nodes
}

// log2i is the integer log2 of v (0 for v <= 0), as RCCL's.
func log2i(v int64) int {
	if v <= 0 {
		return 0
	}
	return bits.Len64(uint64(v)) - 1
}
