package rccl

import (
	"fmt"
	"slices"
	"strings"

	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"
)

// Expand returns ops with every RCCL call replaced by what the library
// does: a communicator's creation allocates each rank's FIFOs (fine-grained
// device memory the previous rank of each ring stores into); each
// collective call becomes one phased kernel on the rank's GCD and stream,
// with one workgroup per channel running the ring program slice by slice.
// Ops without RCCL calls come back unchanged. trace.Check has verified
// the calls.
func Expand(ops []ir.Command, p Params, t Topology) ([]ir.Command, error) {
	if !slices.ContainsFunc(ops, func(o ir.Command) bool { return o.IsRCCL() }) {
		return ops, nil
	}
	x := &expander{p: p, t: t, comms: map[string]*comm{}, groups: map[int]*group{},
		proxyCopies: map[int]int{}, proxies: map[proxyKey]int{}}
	for i := range ops {
		o := &ops[i]
		if !o.IsRCCL() {
			x.out = append(x.out, *o)
			continue
		}
		if err := x.call(&o.Call); err != nil {
			return nil, &trace.Error{Line: ir.LineOf(ops, i), Field: "op", Msg: err.Error()}
		}
	}
	return x.out, nil
}

// comm is a communicator: its GCDs, channels and calls so far.
type comm struct {
	name     string
	gcds     []int
	channels []Ring
	colls    []int   // per comm rank: collectives expanded so far
	p2p      [][]int // [from][to]: messages expanded so far (sends), and receives
	p2pRecv  [][]int
	fifo     []string // per comm rank: its FIFO buffer
	work     []string // per comm rank: its work FIFO in pinned host memory
	dev      []string // per comm rank: its communicator and channels in device memory
	works    []int    // per comm rank: work descriptors written so far
	flags    int64    // where the counters start in a FIFO buffer
	// graphGBps is RCCL's bandwidth of its ring graph, nChannels x
	// bwIntra, which its tuning model starts from
	graphGBps float64
	nodes     int    // nodes its GCDs are on
	ready     string // host flag set once its buffers exist (proxies wait for it)
}

type expander struct {
	p      Params
	t      Topology
	comms  map[string]*comm
	out    []ir.Command
	groups map[int]*group // host rank -> its open ncclGroupStart, if any
	// proxy threads (net.go): each end of a network connection's, and
	// the RDMA copies each queued
	proxyCopies map[int]int
	proxies     map[proxyKey]int
}

// group is an open ncclGroupStart of a host thread: its sends and
// receives wait for ncclGroupEnd, which launches one kernel per GCD and
// stream holding them all (so a send and a receive between the same ranks
// cannot wait for each other).
type group struct {
	depth   int
	kernels []*groupKernel // in the order of their first call
}

type groupKernel struct {
	call *trace.Op // the first call: where the kernel is launched
	kern ir.Command
}

// launch appends the host's work for call o and its kernel: RCCL's
// planning and launch on the calling thread, then the kernel on the
// call's stream.
func (x *expander) launch(o *trace.Op, kern ir.Command) {
	c := x.comms[o.Comm]
	me := slices.Index(c.gcds, *o.GCD)
	for i := range kern.Channels {
		kern.Channels[i] = append(kern.Channels[i], x.epilogue(c, me, i))
	}
	if x.p.EnqueueNs > 0 {
		x.emit(o, trace.Op{Op: trace.HostCompute, ComputeNs: x.p.EnqueueNs})
	}
	x.emitCommand(o, kern)
}

// emit appends an op made for call o: on its rank, line and label.
func (x *expander) emit(o *trace.Op, n trace.Op) {
	x.emitCommand(o, ir.Command{Call: n})
}

// emitCommand appends a lowered command made for call o, as emit does.
func (x *expander) emitCommand(o *trace.Op, n ir.Command) {
	n.Rank, n.Line, n.Label = o.Rank, o.Line, o.Label
	x.out = append(x.out, n)
}

func (x *expander) call(o *trace.Op) error {
	switch o.Op {
	case trace.RCCLCommInit:
		return x.commInit(o)
	case trace.RCCLGroupStart:
		g := x.groups[o.Rank]
		if g == nil {
			g = &group{}
			x.groups[o.Rank] = g
		}
		g.depth++
		return nil
	case trace.RCCLGroupEnd:
		g := x.groups[o.Rank]
		if g.depth--; g.depth == 0 {
			for _, k := range g.kernels {
				x.launch(k.call, k.kern)
			}
			delete(x.groups, o.Rank)
		}
		return nil
	}
	c := x.comms[o.Comm]
	me := slices.Index(c.gcds, *o.GCD)
	if c.nodes > 1 && (o.Op == trace.RCCLSend || o.Op == trace.RCCLRecv || o.Op == trace.RCCLAllToAll) {
		return fmt.Errorf("%s between nodes is not modelled yet (collectives over rings are)", o.Op)
	}
	switch o.Op {
	case trace.RCCLSend, trace.RCCLRecv:
		x.p2pCall(o, c, me)
	default:
		if x.p.Algo == "Tree" && o.Op != trace.RCCLAllReduce {
			return fmt.Errorf("NCCL_ALGO=Tree: RCCL has no tree algorithm for %s (only AllReduce); no algorithm is left", o.Op)
		}
		x.collective(o, c, me)
	}
	return nil
}

// commInit computes the rings and channels and allocates each rank's
// FIFOs: per channel a Simple and an LL buffer for its ring's previous
// rank, and one Simple buffer per peer for point to point.
func (x *expander) commInit(o *trace.Op) error {
	rings, err := x.rings(o.GCDs)
	if err != nil {
		return err
	}
	chans, _ := Channels(x.t.GPU, rings, x.p.Channels)
	n := len(o.GCDs)
	nodes := map[int]bool{}
	for _, g := range o.GCDs {
		nodes[x.node(g)] = true
	}
	c := &comm{name: o.Comm, gcds: o.GCDs, channels: chans, colls: make([]int, n), works: make([]int, n),
		flags: x.fifoBytes(len(chans), n) - flagArea, graphGBps: x.graphGBps(rings, o.GCDs), nodes: len(nodes),
		ready: fmt.Sprintf("rccl.%s.ready", o.Comm)}
	for r := range n {
		c.p2p = append(c.p2p, make([]int, n))
		c.p2pRecv = append(c.p2pRecv, make([]int, n))
		name := fmt.Sprintf("rccl.%s.fifo%d", o.Comm, r)
		c.fifo = append(c.fifo, name)
		g := o.GCDs[r]
		x.emit(o, trace.Op{Op: trace.Malloc, Buf: name, GCD: &g, Fine: true, Bytes: x.fifoBytes(len(chans), n)})
		work := fmt.Sprintf("rccl.%s.work%d", o.Comm, r)
		c.work = append(c.work, work)
		numa := x.p.NUMA[g]
		x.emit(o, trace.Op{Op: trace.HostMalloc, Buf: work, NUMA: &numa, Bytes: workFifoBytes})
		dev := fmt.Sprintf("rccl.%s.dev%d", o.Comm, r)
		c.dev = append(c.dev, dev)
		x.emit(o, trace.Op{Op: trace.Malloc, Buf: dev, GCD: &g, Bytes: devBytes(len(chans))})
	}
	if c.nodes > 1 { // only proxy threads, which serve the network, wait for it
		x.emit(o, trace.Op{Op: trace.FlagSet, Flag: c.ready})
	}
	x.comms[o.Comm] = c
	return nil
}

// fifoBytes is one rank's FIFO memory: per channel and kind of connection
// (ring, tree up, tree down) a Simple and an LL buffer, per peer a Simple
// buffer, and a line for each flag.
func (x *expander) fifoBytes(channels, n int) int64 {
	return x.collFifoBytes(channels) + int64(n)*x.p.BuffBytes + flagArea
}

// collFifoBytes is the channels' part of a FIFO buffer, at its start; the
// point-to-point buffers follow it.
func (x *expander) collFifoBytes(channels int) int64 {
	return int64(channels*len(connKinds)) * (x.p.BuffBytes + x.p.llBuffBytes())
}

// flagAt is the offset of counter i in the flag area: a line each,
// wrapping round the area.
func (c *comm) flagAt(i int) int64 {
	return c.flags + int64(i)%(flagArea/64)*64
}

// The work FIFO: RCCL writes each kernel's per-channel work descriptors
// (NCCL_WORK_SIZE bytes each) into pinned host memory, where every
// workgroup loads its own first (ncclKernelMain, with the communicator
// and channel from device memory alongside). akisim keeps 4096 entries
// of RCCL's 256 Ki (NCCL_WORK_FIFO_DEPTH): only their reads cost time.
const (
	workBytes     = 256
	workFifoBytes = 4096 * workBytes
)

// prologue is a channel's first phases, what ncclKernelMain and the
// primitives' constructors load before the first step (src/device/
// common.h, prims_simple.h, prims_ll.h): three warps load the
// communicator and the channel (device memory) and the work descriptor
// (the host's work FIFO) at once; then the connections' ncclConnInfo,
// whose address is in the channel just loaded; then the FIFO counters
// those name (the send head, the Simple receive tail), in the GCD's own
// fine-grained FIFO memory. Each waits for the one before.
func (x *expander) prologue(c *comm, me, ch int) []ir.Phase {
	at := int64(c.works[me]) * workBytes % workFifoBytes
	c.works[me]++
	ch %= len(c.channels)
	dev := c.dev[me]
	return []ir.Phase{
		{Access: []trace.Access{{Buf: c.work[me], Mode: "read", Bytes: workBytes, Offset: at},
			{Buf: dev, Mode: "read", Bytes: devCommBytes},
			{Buf: dev, Mode: "read", Bytes: devChannelBytes, Offset: devCommBytes + int64(ch)*devChannelBytes}}},
		{Access: []trace.Access{{Buf: dev, Mode: "read", Bytes: connInfoBytes, Offset: c.connInfoAt(ch)}}},
		{Access: []trace.Access{{Buf: c.fifo[me], Mode: "read", Bytes: 16, Offset: c.flagAt(2 * ch * len(connKinds))}}},
	}
}

// epilogue is a channel's last phase: the primitives' destructors store
// the connections' step counters back into their ncclConnInfo (device
// memory) for the next kernel; the workgroup ends once they are
// acknowledged.
func (x *expander) epilogue(c *comm, me, ch int) ir.Phase {
	return ir.Phase{Access: []trace.Access{{Buf: c.dev[me], Mode: "write", Bytes: 16, Offset: c.connInfoAt(ch % len(c.channels))}}}
}

// Device-memory structures of a rank (ncclDevCommAndChannels and the
// channels' peers): the communicator and each channel fit one warp's
// 16-byte loads (static_asserts in common.h: at most 1 KiB each), a
// channel's ring connections (a send and a receive ncclConnInfo) 256 B.
const (
	devCommBytes    = 1024
	devChannelBytes = 1024
	connInfoBytes   = 256
)

// devBytes is a rank's device-memory structures for channels.
func devBytes(channels int) int64 {
	return devCommBytes + int64(channels)*(devChannelBytes+connInfoBytes)
}

// connInfoAt is where channel ch's connections are in a rank's structures.
func (c *comm) connInfoAt(ch int) int64 {
	return devCommBytes + int64(len(c.channels))*devChannelBytes + int64(ch)*connInfoBytes
}

// flagArea holds the head and tail counters at the end of a FIFO buffer.
const flagArea = 1 << 16

// kernelName is the name rocprof shows for the collective's kernel.
func kernelName(k trace.Kind, algo, proto, redop string) string {
	name := map[trace.Kind]string{trace.RCCLAllReduce: "AllReduce", trace.RCCLAllGather: "AllGather",
		trace.RCCLReduceScatter: "ReduceScatter", trace.RCCLBroadcast: "Broadcast", trace.RCCLReduce: "Reduce",
		trace.RCCLAllToAll: "SendRecv", trace.RCCLSend: "SendRecv", trace.RCCLRecv: "SendRecv"}[k]
	if redop == "" {
		redop = "sum"
	}
	return fmt.Sprintf("ncclDevKernel_%s_%s_%s_%s", name, strings.ToUpper(algo), proto, redop)
}

// rcclLinkGBps is what RCCL counts per gfx90a xGMI link (MI200_XGMI_WIDTH).
const rcclLinkGBps = 36

// linkWidth is what RCCL counts per xGMI link of the GPU: MI200_XGMI_WIDTH
// on gfx90a, GFX94X_XGMI_WIDTH (48 GB/s) on gfx94x.
func (g GPU) linkWidth() float64 {
	if g.GFX942 {
		return 48
	}
	return rcclLinkGBps
}

// graphGBps is the bandwidth RCCL's tuning starts from: for a node that
// matches one of its stored models (73, or 79 for 8 GPUs all to all) the
// widest GCD's xGMI total, split over the rings (parseGraph); for other
// communicators its search speed per ring.
func (x *expander) graphGBps(rings []Ring, gcds []int) float64 {
	if isModel73(x.t, gcds) || isAllToAll8(x.t, gcds) {
		total := 0
		for _, row := range x.t.Lanes {
			sum := 0
			for _, l := range row {
				sum += l
			}
			total = max(total, sum)
		}
		return float64(total) * x.t.GPU.linkWidth()
	}
	return float64(len(rings)) * rings[0].GBps / x.t.LaneGBps * rcclLinkGBps
}
