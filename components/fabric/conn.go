package fabric

import "github.com/sarchlab/akita/v3/sim"

// Conn joins exactly two ports and hands a message to the far port at the
// moment it is sent. Akita's DirectConnection does the same through a tick
// event per message; timing here lives in the components (links serialise,
// hubs and memories add latency), so the extra event only costs speed.
type Conn struct {
	sim.HookableBase
	ends [2]sim.Port
}

// CanSend says whether the far port has room.
func (c *Conn) CanSend(src sim.Port) bool { return true }

// Send delivers the message now, or fails if the far port is full.
func (c *Conn) Send(msg sim.Msg) *sim.SendError {
	m := msg.Meta()
	m.RecvTime = m.SendTime
	return m.Dst.Recv(msg)
}

// PlugIn attaches a port.
func (c *Conn) PlugIn(port sim.Port, _ int) {
	if c.ends[0] == nil {
		c.ends[0] = port
	} else {
		c.ends[1] = port
	}
	port.SetConnection(c)
}

// Unplug is not supported: the node's wiring is fixed.
func (c *Conn) Unplug(_ sim.Port) { panic("fabric.Conn cannot unplug") }

// NotifyAvailable tells the sender at the other end that port has room again.
func (c *Conn) NotifyAvailable(now sim.VTimeInSec, port sim.Port) {
	if port == c.ends[0] {
		c.ends[1].NotifyAvailable(now)
	} else {
		c.ends[0].NotifyAvailable(now)
	}
}
