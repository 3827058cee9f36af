package rccl

import (
	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/trace"
)

// Params are RCCL's settings and sizes that shape its kernels.
type Params struct {
	Channels         Options
	Proto, Algo      string  // NCCL_PROTO, NCCL_ALGO: "" lets the tuning model choose
	BuffBytes        int64   // NCCL_BUFFSIZE: a channel's Simple FIFO
	Steps            int     // NCCL_STEPS: FIFO slots per connection
	Threads          int     // threads of a channel's workgroup
	LLLinesPerThread int     // NCCL_LL_LINES_PER_THREAD
	InFlight         int64   // bytes a channel's workgroup keeps in flight
	P2PInFlight      int64   // the same for send and receive
	EnqueueNs        float64 // host time of a call for one device
	NUMA             []int   // each GCD's NUMA domain: where its communicator's work FIFO is pinned
	Tuning           Tuning
	Net              config.CXI // nodes and NICs (net.go)
	// ChainChunks: Broadcast and Reduce cut a channel's part into chunks
	// sized to the message (RCCL 2.20 on); else one chunk of at most a slot
	ChainChunks bool
}

// llBuffBytes is a channel's LL FIFO: Steps slots of a line per thread per
// LLLinesPerThread, 16-byte lines.
func (p Params) llBuffBytes() int64 {
	return int64(p.LLLinesPerThread*p.Threads*p.Steps) * llLineBytes
}

// llLineBytes is an LL line: two 4-byte data words, each with its 4-byte flag.
const llLineBytes = 16

// protocol is how a protocol moves a collective's data: chunks, cut into
// slices each taking sliceSteps FIFO slots.
type protocol struct {
	name           string
	steps          int   // FIFO slots
	slotBytes      int64 // FIFO bytes of a slot
	chunk          int64 // data bytes of a chunk (an op of the program)
	sliceSteps     int   // slots per slice
	slicesPerChunk int
	minSlice       int64 // a slice is at least this (Simple: a 32nd of its slots)
	align          int64 // a channel's part and the last loop's chunk are multiples of it
	wireFactor     int64 // FIFO bytes per data byte
	inData         bool  // the receiver sees the data by flags in it (no separate tail store)
	credits        int   // slices a sender may run ahead of the receiver
}

// protocol returns the layout of protocol name for algorithm algo and
// collective k (RCCL include/collectives.h, enqueue.cc computeCollChunkInfo,
// prims_simple.h, prims_ll.h; notes in docs/model/rccl.md "Collectives").
func (p Params) protocol(name, algo string, k trace.Kind) protocol {
	if name == "LL" {
		slot := p.llBuffBytes() / int64(p.Steps)
		return protocol{name: name, steps: p.Steps, slotBytes: slot, chunk: slot / 2, sliceSteps: 1, slicesPerChunk: 1,
			minSlice: 8, align: int64(p.Threads) * 8, wireFactor: 2, inData: true, credits: p.Steps}
	}
	chunkSteps, sliceSteps := 1, 1
	if algo == "Ring" && k != trace.RCCLBroadcast && k != trace.RCCLReduce {
		chunkSteps, sliceSteps = p.Steps/2, p.Steps/4 // ring AllReduce, AllGather, ReduceScatter
	}
	slot := p.BuffBytes / int64(p.Steps)
	return protocol{name: name, steps: p.Steps, slotBytes: slot, chunk: int64(chunkSteps) * slot, sliceSteps: sliceSteps,
		slicesPerChunk: chunkSteps / sliceSteps, minSlice: slot * int64(sliceSteps) / 32, align: simpleAlign,
		wireFactor: 1, credits: p.Steps / sliceSteps}
}

// simpleAlign is NCCL_SIMPLE_ALIGNMENT: a wavefront of 64 lanes x 8 x 16 B.
const simpleAlign = 64 * 8 * 16

// shrink is the Simple chunk of a tree of depth hops or of a chained
// Broadcast/Reduce for bytes over channels: small collectives halve it so the pipeline
// has enough chunks (enqueue.cc computeCollChunkInfo; for the chains from
// RCCL 2.20, Params.ChainChunks). LL chunks stay.
func (pr protocol) shrink(chunk, bytes int64, channels, depth int, algo string) int64 {
	if pr.name == "LL" {
		return chunk
	}
	per := func() int64 { return bytes / (int64(channels) * chunk) }
	if algo == "Tree" {
		d := int64(depth)
		for per() < d*8 && chunk > 128<<10 {
			chunk /= 2
		}
		for per() < d*4 && chunk > 64<<10 {
			chunk /= 2
		}
		for per() < d && chunk > 32<<10 {
			chunk /= 2
		}
		return chunk
	}
	for _, t := range []struct{ below, floor int64 }{{64, 256 << 10}, {32, 128 << 10}, {16, 64 << 10}, {8, 32 << 10}} {
		for per() < t.below && chunk > t.floor {
			chunk /= 2
		}
	}
	return chunk
}

// slice is part of an op a phase moves.
type slice struct{ off, bytes int64 }

// slices cuts an op of b bytes into the protocol's slices: up to
// slicesPerChunk of them, each at least minSlice (16-byte multiples); an
// empty op makes one empty slice (its flags still go round).
func (pr protocol) slices(b int64) []slice {
	per := max(roundUp(divUp(b, int64(pr.slicesPerChunk)), 16), pr.minSlice)
	var out []slice
	for off := int64(0); off < b || len(out) == 0; off += per {
		out = append(out, slice{off, min(per, b-off)})
	}
	return out
}

// ParamsFromConfig reads RCCL's parameters and environment from node c.
func ParamsFromConfig(c *config.Node) Params {
	r, e := c.RCCL, c.Env
	minCh, maxCh := e.NCCLMinChannels, e.NCCLMaxChannels
	return Params{
		Channels: Options{MinChannels: &minCh, MaxChannels: &maxCh},
		Proto:    e.NCCLProto, Algo: e.NCCLAlgo, BuffBytes: e.NCCLBuffSize,
		Steps: r.Steps, Threads: r.Threads, LLLinesPerThread: r.LLLinesPerThread,
		InFlight: int64(r.Threads * gpuOf(c).unroll(r.Unroll) * 16), P2PInFlight: int64(r.Threads * r.P2PUnroll * 16), EnqueueNs: r.EnqueueNs,
		ChainChunks: c.Stack.RCCLRelease().ChainChunks,
		NUMA:        c.GlobalGCDNUMA(), Net: c.CXI(),
		Tuning: Tuning{
			BaseLatUs: map[string]float64{"LL": r.BaseLatLLUs, "Simple": r.BaseLatSimpleUs},
			HwLatUs: map[[2]string]float64{{"Ring", "LL"}: r.HwLatRingLLUs, {"Ring", "Simple"}: r.HwLatRingSimpleUs,
				{"Tree", "LL"}: r.HwLatTreeLLUs, {"Tree", "Simple"}: r.HwLatTreeSimpleUs},
			BWRatio: map[[2]string]float64{{"Ring", "LL"}: r.BWRatioRingLL, {"Ring", "Simple"}: r.BWRatioRingSimple,
				{"Tree", "LL"}: r.BWRatioTreeLL, {"Tree", "Simple"}: r.BWRatioTreeSimple},
			TreeCorr: map[string][]float64{"LL": r.TreeCorrectionLL, "Simple": r.TreeCorrectionSimple},
			NetLatUs: map[[2]string]float64{{"Ring", "LL"}: r.HwLatNetRingLLUs, {"Ring", "Simple"}: r.HwLatNetRingSimpleUs,
				{"Tree", "LL"}: r.HwLatNetTreeLLUs, {"Tree", "Simple"}: r.HwLatNetTreeSimpleUs},
			RingCorr: map[string][]float64{"LL": r.RingCorrectionLL, "Simple": r.RingCorrectionSimple},
			ThreadBytes: map[[2]string]int64{{"Ring", "LL"}: r.ThreadThresholdLL, {"Tree", "LL"}: r.ThreadThresholdLL,
				{"Ring", "Simple"}: r.ThreadThresholdSimple, {"Tree", "Simple"}: r.ThreadThresholdSimple},
		},
	}
}
