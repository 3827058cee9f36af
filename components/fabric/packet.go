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
)

var kindNames = [...]string{"ReadReq", "ReadRsp", "WriteReq", "WriteAck", "FlushReq", "FlushAck"}

func (k Kind) String() string { return kindNames[k] }

// IsResponse says whether the packet travels back to its requester.
func (k Kind) IsResponse() bool { return k == ReadRsp || k == WriteAck || k == FlushAck }

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
	Route  Route  // hubs the packet visits, first = where it entered
	Hop    int    // index in Route of the hub holding the packet

	Unordered bool     // crossed a multi-link bundle: needs reordering at arrival
	Requester sim.Port // port of the component that gets the response
	Tag       any      // requester bookkeeping, returned in the response
}

// Meta returns the message meta data.
func (p *Packet) Meta() *sim.MsgMeta { return &p.MsgMeta }

// AtLastHub says whether the hub holding the packet is its destination hub.
func (p *Packet) AtLastHub() bool { return p.Hop == len(p.Route)-1 }

// NextHub is the hub after the one holding the packet.
func (p *Packet) NextHub() int { return p.Route[p.Hop+1] }

// Respond builds the response to a request, sent back along the reverse route.
func (p *Packet) Respond(kind Kind, size int) *Packet {
	return &Packet{
		MsgMeta:   sim.MsgMeta{TrafficBytes: size},
		Kind:      kind,
		Size:      size,
		Target:    p.Target,
		Route:     p.Route.Reverse(),
		Requester: p.Requester,
		Tag:       p.Tag,
	}
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
// CRC and framing. A packet without data still costs one header.
func (p *Packet) WireBytes(payload, overhead int) int {
	data := 0
	if p.Kind.CarriesData() {
		data = p.Size
	}
	n := (data + payload - 1) / payload
	if n == 0 {
		n = 1
	}
	return data + n*overhead
}
