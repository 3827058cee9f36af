// Package fabric holds what the node's hardware components share: the
// packets they exchange, routes through the data fabric, and the small
// event-driven building blocks (timed sender, bandwidth server, router).
package fabric

import "github.com/sarchlab/akita/v3/sim"

// Kind is the transaction type of a packet.
type Kind int

// Packet kinds. Requests travel to a memory; responses travel back.
const (
	ReadReq  Kind = iota // asks a memory for Size bytes
	ReadRsp              // carries Size bytes of data back
	WriteReq             // carries Size bytes of data to a memory
	WriteAck             // acknowledges a write
	FlushReq             // fence: returns once earlier writes on its route landed
	FlushAck             // answers a flush
	// InvalidateReq is a system-scope acquire (buffer_invl2 on gfx90a): a
	// cache drops its lines of non-local memory, writing dirty ones back.
	InvalidateReq
	InvalidateAck // answers an invalidate
)

var kindNames = [...]string{"ReadReq", "ReadRsp", "WriteReq", "WriteAck", "FlushReq", "FlushAck",
	"InvalidateReq", "InvalidateAck"}

func (k Kind) String() string { return kindNames[k] }

// IsResponse says whether the packet travels back to its requester.
func (k Kind) IsResponse() bool {
	return k == ReadRsp || k == WriteAck || k == FlushAck || k == InvalidateAck
}

// CarriesData says whether Size bytes of payload travel with the packet.
func (k Kind) CarriesData() bool { return k == ReadRsp || k == WriteReq }

// Memory names one memory of the node: a GCD's HBM or a NUMA domain's DRAM.
type Memory struct {
	Host  bool // host DRAM (Index = NUMA domain) or HBM (Index = GCD)
	Index int
}

// Packet is one transaction crossing the fabric. Bulk data moves as large
// packets; links charge them per wire packet of PacketPayloadBytes.
type Packet struct {
	sim.MsgMeta

	Kind   Kind
	Size   int    // data bytes requested, carried or acknowledged
	Target Memory // the memory a request is for
	Addr   int64  // first byte in that memory (for caches)
	Route  Route  // hubs a request visits, first = where it entered
	Hop    int    // index in Route of the hub holding the packet

	// Extents, when set, are the address ranges a gather request reads or
	// writes (Addr is the first's, Size their sum): a CU step's pieces of
	// several buffers in one memory travel as one transaction. Only caches
	// read them; every other component sees Size bytes.
	Extents []Extent

	// Lag is how far the packet is logically behind the time it is handed
	// over: pure latencies (hub forwarding, reorder buffers, memory access)
	// add to it instead of costing an event; the next resource that
	// queues the packet (a link, a memory, an engine) starts it that much
	// later and clears it.
	Lag sim.VTimeInSec
	// Spread is how long after its first byte a data packet's last byte
	// follows (Lag times the first byte). Resources pass data on as it
	// streams in (cut-through), so a large transaction costs no more
	// pipeline fill than the many small packets it stands for.
	Spread sim.VTimeInSec

	// NonCoherent marks a request for coarse-grained memory that is not
	// the requester's own HBM (MTYPE NC on gfx90a): the requesting GCD's
	// L2 may cache it. Fine-grained non-local memory (MTYPE UC) is never
	// cached.
	NonCoherent bool

	Back      bool     // a response walks Route backwards
	Unordered bool     // crossed a multi-link bundle: needs reordering at arrival
	Early     bool     // a link booked it before it logically arrived there
	Requester sim.Port // port of the component that gets the response
	Tag       any      // requester bookkeeping, returned in the response
	// Landed, if set, is told when a write's last byte is in its memory:
	// the stores of a flag that other agents poll (components/gcd/flag.go).
	Landed func(at sim.VTimeInSec)
	// Notice, if set, is told when the request passes hub NoticeHub on its
	// way (a NIC that reports a transfer once its data went through).
	Notice    func(at sim.VTimeInSec)
	NoticeHub int
	// Whole, if set, is the packet this one is a part of: a switch dealt
	// Whole's wire packets over several paths, and the switch where the
	// paths meet again rejoins the parts (node/adapt.go).
	Whole *Packet

	// Task is the ID of the tracing task the transaction is part of (a
	// copy, a kernel's step), set only while a tracer is hooked: the links
	// and memories it crosses report their share as children of it
	// (task.go). It points into the copy or step, which outlives it.
	Task *string

	// Origin is what a cache that passed the request on (an L2's miss)
	// keeps for its answer: carried by the packet, so finding it costs
	// no table.
	Origin Origin

	ev PacketEvent // a packet waits in one place at a time: its one event
}

// Origin is a request as a cache passed it on: whom to answer (nil: the
// cache did not pass this packet on), whether the answer fills its lines,
// and the bytes asked for, from where.
type Origin struct {
	Requester sim.Port
	Fill      bool
	Size      int
	Addr      int64
	Extents   []Extent // a gather request's own ranges, while its fill asks for the missing ones
}

// Extent is one address range of a gather request.
type Extent struct {
	Addr int64
	Size int
}

// PacketEvent fires when a packet is due somewhere. It lives inside the
// packet, so timing a packet allocates nothing.
type PacketEvent struct {
	EventAt
	Pkt    *Packet
	Aux    int // free for the handler (a link's direction)
	sender *Sender
}

// Event readies the packet's event for time t and handler h.
func (p *Packet) Event(t sim.VTimeInSec, h sim.Handler, aux int) *PacketEvent {
	p.ev = PacketEvent{EventAt: EventAt{T: t, H: h}, Pkt: p, Aux: aux}
	return &p.ev
}

// Meta returns the message meta data.
func (p *Packet) Meta() *sim.MsgMeta { return &p.MsgMeta }

// AtLastHub says whether the hub holding the packet is its destination hub.
func (p *Packet) AtLastHub() bool {
	if p.Back {
		return p.Hop == 0
	}
	return p.Hop == len(p.Route)-1
}

// NextHub is the hub after the one holding the packet.
func (p *Packet) NextHub() int {
	if p.Back {
		return p.Route[p.Hop-1]
	}
	return p.Route[p.Hop+1]
}

// PrevHub is the hub the packet came from (only valid after a hop).
func (p *Packet) PrevHub() int {
	if p.Back {
		return p.Route[p.Hop+1]
	}
	return p.Route[p.Hop-1]
}

// Advance moves the packet to the next hub.
func (p *Packet) Advance() {
	if p.Back {
		p.Hop--
	} else {
		p.Hop++
	}
}

// Respond turns a request into its response, which walks the route back
// to the requester. The packet is reused: responses allocate nothing.
func (p *Packet) Respond(kind Kind, size int) *Packet {
	p.Kind, p.Size, p.TrafficBytes = kind, size, size
	p.Back = !p.Back
	p.Unordered = false
	p.Notice = nil
	p.Lag, p.Spread = 0, 0
	return p
}

// TaskID is the ID of the task the packet is part of; "" if none.
func (p *Packet) TaskID() string {
	if p.Task == nil {
		return ""
	}
	return *p.Task
}

// Land tells the write's Landed hook, once, that its data is in memory at t.
func (p *Packet) Land(t sim.VTimeInSec) {
	if p.Landed != nil {
		p.Landed(t)
		p.Landed = nil
	}
}

// TakeLag returns the time the packet is logically at, given the time it
// was handed over, and clears its lag.
func (p *Packet) TakeLag(now sim.VTimeInSec) sim.VTimeInSec {
	t := now + p.Lag
	p.Lag = 0
	return t
}

// Reissue turns a packet the requester got back into a new request.
func (p *Packet) Reissue(kind Kind, size int, target Memory, route Route) *Packet {
	tag, req, addr := p.Tag, p.Requester, p.Addr
	ext, oext := p.Extents[:0], p.Origin.Extents[:0] // their arrays, for the next gather
	*p = Packet{}                                    // cleared in place, then set: building it whole and copying it in cost twice
	p.TrafficBytes, p.Kind, p.Size, p.Target, p.Route = size, kind, size, target, route
	p.Requester, p.Tag, p.Addr = req, tag, addr
	p.Extents, p.Origin.Extents = ext, oext
	return p
}

// NewRequest builds a request from a requester port along a route.
func NewRequest(kind Kind, size int, target Memory, route Route, requester sim.Port, tag any) *Packet {
	return &Packet{
		MsgMeta:   sim.MsgMeta{TrafficBytes: size},
		Kind:      kind,
		Size:      size,
		Target:    target,
		Route:     route,
		Requester: requester,
		Tag:       tag,
	}
}

// WireBytes is what a link serialises for a packet: its payload split into
// wire packets of at most payload bytes, each with overhead bytes of header,
// CRC and framing (response bytes for read data, whose header carries no
// address). A read request asks for its data one payload-sized line at a
// time, request bytes per line; other packets without data (acks, flushes)
// cost one header.
func (p *Packet) WireBytes(payload, overhead, response, request int) int {
	if p.Kind == ReadReq {
		return (p.Size + payload - 1) / payload * request
	}
	if !p.Kind.CarriesData() {
		return overhead
	}
	n := (p.Size + payload - 1) / payload
	if n == 0 {
		n = 1
	}
	if p.Kind == ReadRsp {
		return p.Size + n*response
	}
	return p.Size + n*overhead
}
