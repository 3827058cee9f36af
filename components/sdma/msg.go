// Package sdma models a GCD's SDMA copy engines: each takes copy packets
// from its queue in order, splits a copy into transactions, keeps a bounded
// number in flight, moves data through a datapath of fixed width (the
// engine's throughput cap) and signals completion, fencing first when the
// fabric may reorder its writes.
package sdma

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// CopyCmd is a copy packet written to an engine's queue.
type CopyCmd struct {
	sim.MsgMeta
	ID    int
	Queue int // the engine's SDMA queue the packet was written to
	Src   fabric.Memory
	Dst   fabric.Memory
	Bytes int64
	// SrcAddr and DstAddr are the copy's first byte in Src and in Dst: its
	// transactions carry their addresses, for a memory-side cache (MALL)
	// to place them
	SrcAddr, DstAddr int64
	// Inline: the data came with the command (a NIC's immediate data), so
	// the engine writes without reading first.
	Inline bool
	// SrcLink, if set, is the link the source's bytes leave a CPU cache
	// by (lines dirty in a CCD's L3): read data streams through it too.
	SrcLink *fabric.Server
	// Passed, if set, is told when the copy's last byte has passed hub
	// PassHub (a NIC on the way that reports the transfer).
	Passed  func(at sim.VTimeInSec)
	PassHub int
}

// Meta returns the message meta data.
func (c *CopyCmd) Meta() *sim.MsgMeta { return &c.MsgMeta }

// CopyDone is the completion signal of a copy.
type CopyDone struct {
	sim.MsgMeta
	ID         int
	Start, End sim.VTimeInSec // when the engine began and signalled the copy
}

// Meta returns the message meta data.
func (c *CopyDone) Meta() *sim.MsgMeta { return &c.MsgMeta }

// RouteTable tells an engine how its traffic crosses the fabric: the routes
// data takes between two hubs (several when the fabric spreads it) and the
// route of small control writes such as the completion signal.
type RouteTable interface {
	DataRoutes(from, to int) []fabric.Route
	SignalRoute(from, to int) fabric.Route
	HubOf(m fabric.Memory) int
}
