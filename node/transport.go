package node

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/components/sdma"
	"github.com/akisim/akisim/ir"
	"github.com/sarchlab/akita/v3/sim"
)

// transport is the NICs' side of a library's copies between nodes
// (hip.Transport): an RDMA put or get carries its inline data in the
// command, and its land flag is set when the receiving NIC's completion
// event reaches the host, nic.event_ns after the data went through that
// NIC's hub.
type transport struct {
	hubs  []int          // by global NIC id: its hub
	event sim.VTimeInSec // a NIC's completion event reaching its host
}

// Command fills in the command of op's copy.
func (t *transport) Command(cmd *sdma.CopyCmd, op *ir.Command, land func(at sim.VTimeInSec, flag string, gpu bool)) {
	cmd.Inline = op.Inline
	if op.LandFlag != "" || op.LandGPUFlag != "" {
		host, gpu := op.LandFlag, op.LandGPUFlag
		cmd.PassHub = t.hubs[*op.RecvNIC]
		cmd.Passed = func(at sim.VTimeInSec) {
			if host != "" {
				land(at+t.event, host, false)
			}
			if gpu != "" {
				land(at+t.event, gpu, true)
			}
		}
	}
}

// newTransport is the transport of NICs whose hubs are hubs.
func newTransport(hubs []int, eventNs float64) *transport {
	return &transport{hubs: hubs, event: fabric.Ns(eventNs)}
}
