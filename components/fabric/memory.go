package fabric

import "github.com/sarchlab/akita/v3/sim"

// MemoryController serves reads and writes of one memory (a GCD's HBM or a
// NUMA domain's DDR4 channels): requests queue for its bandwidth, then
// answer after its access latency. All traffic to the memory shares it.
type MemoryController struct {
	*sim.ComponentBase
	engine sim.Engine
	Senders

	Port    sim.Port
	out     *Sender
	bw      Server
	latency sim.VTimeInSec

	Reads, Writes         uint64
	BytesRead, BytesWrite uint64
}

// NewMemoryController makes a controller with the given sustained bandwidth
// (GB/s) and latency (ns).
func NewMemoryController(name string, engine sim.Engine, gbps, latencyNs float64) *MemoryController {
	m := &MemoryController{ComponentBase: sim.NewComponentBase(name), engine: engine,
		bw: Server{BytesPerSec: GBps(gbps)}, latency: Ns(latencyNs)}
	m.Port, m.out = m.NewPort(engine, m, 1024, name, "Port")
	return m
}

// NotifyRecv serves every waiting request.
func (m *MemoryController) NotifyRecv(now sim.VTimeInSec, port sim.Port) {
	for {
		msg := port.Retrieve(now)
		if msg == nil {
			return
		}
		p := msg.(*Packet)
		at := p.TakeLag(now)
		var rsp *Packet
		done := at
		switch p.Kind {
		case ReadReq:
			// the data streams out as it is read
			first, spread := m.bw.Stream(now, at, p.Size, 0)
			m.Reads++
			m.BytesRead += uint64(p.Size)
			rsp = p.Respond(ReadRsp, p.Size)
			rsp.Spread = spread
			done = first
		case WriteReq:
			// written as it streams in; each byte acknowledged once written:
			// the acknowledgement streams back over the same spread
			first, spread := m.bw.Stream(now, at, p.Size, p.Spread)
			done = first
			m.Writes++
			m.BytesWrite += uint64(p.Size)
			rsp = p.Respond(WriteAck, p.Size)
			rsp.Spread = spread
		case FlushReq:
			rsp = p.Respond(FlushAck, 0)
		default:
			panic("memory controller got a " + p.Kind.String())
		}
		rsp.Lag = done + m.latency - now
		m.out.Send(now, rsp)
	}
}

// Handle fires delayed responses.
func (m *MemoryController) Handle(e sim.Event) error {
	HandleSendEvent(e)
	return nil
}

// NotifyPortFree retries held responses.
func (m *MemoryController) NotifyPortFree(now sim.VTimeInSec, _ sim.Port) { m.RetryAll(now) }

// BusyTime is the time the memory spent transferring data.
func (m *MemoryController) BusyTime() sim.VTimeInSec { return m.bw.Busy }
