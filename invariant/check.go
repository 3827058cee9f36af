package invariant

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/akisim/akisim/components/xgmi"
	"github.com/akisim/akisim/node"
	"github.com/sarchlab/akita/v3/sim"
)

// Corrupt, when set (by tests only: no flag reaches it), breaks the node
// after its run and before the check, to show a broken component is caught.
var Corrupt func(n *node.Node)

// slack absorbs float rounding in busy times and byte budgets.
const slack = 1.000001

// checker gathers the violations of one node.
type checker struct {
	end sim.VTimeInSec
	bad []Violation
}

func (c *checker) fail(inv, at, format string, a ...any) {
	c.bad = append(c.bad, Violation{Invariant: inv, Component: at, Detail: fmt.Sprintf(format, a...)})
}

// resource checks a resource busy b that moved bytes at a peak of bps.
func (c *checker) resource(name string, b sim.VTimeInSec, bytes uint64, bps float64) {
	if b > c.end*slack {
		c.fail(Busy, name, "busy %g s in a %g s run", float64(b), float64(c.end))
	}
	if float64(bytes) > bps*float64(c.end)*slack {
		c.fail(Peak, name, "moved %d bytes, its peak of %g GB/s allows %.0f in %g s", bytes, bps/1e9, bps*float64(c.end), float64(c.end))
	}
}

// link checks both directions of a link of gbps each way.
func (c *checker) link(b *xgmi.Bundle, gbps float64) {
	for dir := 0; dir < 2; dir++ {
		_, payload, busy := b.Stats(dir)
		c.resource(fmt.Sprintf("%s dir %d", b.Name(), dir), busy, payload, gbps*1e9)
		if f := b.InFlight(dir); f != 0 {
			c.fail(Delivers, b.Name(), "dir %d: %d bytes in flight", dir, f)
		}
	}
}

// Check runs every invariant over node n after a run whose operations t
// tallied, and returns the ones broken.
func Check(n *node.Node, t *Tally) []Violation {
	if Corrupt != nil {
		Corrupt(n)
	}
	c := &checker{end: n.Engine.CurrentTime()}
	c.completion(n, t)
	c.resources(n)
	c.bytes(n, t)
	c.flags(n, t)
	return c.bad
}

// completion: every op with GPU work ended, and no host thread or stream
// holds work.
func (c *checker) completion(n *node.Node, t *Tally) {
	if t.missed > 0 {
		c.fail(Completes, n.Runtime.Name(), "%d ops never completed: %v", t.missed, t.unfinished)
	}
	for _, u := range n.Runtime.Unfinished() {
		c.fail(Completes, n.Runtime.Name(), "%s", u)
	}
}

// resources: memories, engines and links within the run and their peaks,
// links empty, L2s within what they were given.
func (c *checker) resources(n *node.Node) {
	cf := n.Config
	sdmaBps := cf.SDMA.ClockGHz * float64(cf.SDMA.BytesPerCycle) * 1e9
	for _, g := range n.GCDs {
		if g == nil {
			continue // not built: no run touched it
		}
		c.resource(g.HBM.Name(), g.HBM.BusyTime(), g.HBM.BytesRead+g.HBM.BytesWrite, cf.GCD.HBMBandwidthGBps*cf.GCD.HBMEfficiency*1e9)
		for _, e := range g.Engines() {
			c.resource(e.Name()+".datapath", e.DatapathBusy(), e.BytesCopied, sdmaBps)
		}
		// a line may be hit many times once filled, so hits are bounded by
		// the reads asked, and every byte asked is a hit or a fill
		// the CUs, each issuing at most cu_bytes_per_clock x clock
		cuBps := float64(g.CUs.Count()*cf.GCD.CUBytesPerClock) * cf.GCD.ClockGHz * 1e9
		c.resource(g.CUs.Name(), g.CUs.PipeBusy(), g.CUs.BytesRead+g.CUs.BytesWritten, cuBps)
		for _, l := range g.L2s { // an XCD's each
			c.resource(l.Name(), l.Busy(), l.HitBytes+l.WriteBytes, // what it serves itself: hits and writes
				float64(cf.GCD.L2Slices*cf.GCD.L2BytesPerClock)*cf.GCD.ClockGHz*1e9)
			if l.HitBytes > l.ReadBytes || l.ReadBytes > l.HitBytes+l.FillBytes {
				c.fail(L2Hits, l.Name(), "asked %d bytes, served %d from the cache and filled %d", l.ReadBytes, l.HitBytes, l.FillBytes)
			}
		}
		if m := g.MALL; m != nil {
			c.resource(m.Name(), m.Busy(), m.Served(), float64(cf.MALL.Channels)*cf.MALL.ChannelBandwidthGBps*1e9)
			if bad := m.Audit(); bad != "" {
				c.fail(MALLFills, m.Name(), "%s", bad)
			}
		}
	}
	for _, k := range n.AllCores {
		if k == nil {
			continue // not built: no run touched it
		}
		if b := k.PipeBusy(); b > c.end*slack {
			c.fail(Busy, k.Name(), "busy %g s in a %g s run", float64(b), float64(c.end))
		}
	}
	for _, d := range n.DRAM {
		if d == nil {
			continue // not built: no run touched it
		}
		c.resource(d.Name(), d.BusyTime(), d.BytesRead+d.BytesWrite,
			float64(cf.DRAM.ChannelsPerDomain)*cf.DRAM.ChannelBandwidthGBps*cf.DRAM.Efficiency*1e9)
	}
	for _, x := range n.NICs {
		if x == nil {
			continue // not built: no run touched it
		}
		for _, e := range x.Engines {
			c.resource(e.Name()+".datapath", e.DatapathBusy(), e.BytesCopied, cf.NIC.PCIe.BandwidthGBps*1e9)
		}
		if x.Bridged() != x.Writes() {
			c.fail(Delivers, strings.TrimSuffix(x.Hub.Name(), ".Hub"), "passed %d writes from the network into its node, %d acknowledged", x.Bridged(), x.Writes())
		}
	}
	for _, b := range n.Bundles {
		c.link(b, float64(b.Lanes())*cf.XGMI.LaneBandwidthGBps)
	}
	for _, b := range n.HostLinks {
		if b == nil {
			continue
		}
		c.link(b, cf.HostLink.BandwidthGBps)
	}
	for _, b := range n.NICLinks {
		if b == nil {
			continue
		}
		c.link(b, cf.NIC.PCIe.BandwidthGBps)
	}
	for _, b := range n.NetLinks {
		if b == nil {
			continue
		}
		c.link(b, cf.Network.Link.BandwidthGBps)
	}
}

// bytes: the engines and compute units moved what their work names.
func (c *checker) bytes(n *node.Node, t *Tally) {
	var sdma uint64
	for _, g := range n.GCDs {
		if g == nil {
			continue // not built: no run touched it
		}
		for _, e := range g.Engines() {
			sdma += e.BytesCopied
		}
	}
	want := t.sdma + n.Runtime.Managed.BytesToGPU + n.Runtime.Managed.BytesToHost // and the migrations the runtime ran on them
	if sdma != want {
		c.fail(SDMABytes, "SDMA engines", "copied %d bytes, the copies they ran and managed migrations hold %d", sdma, want)
	}
	for id, x := range n.NICs {
		if x == nil {
			continue // not built: no run touched it
		}
		var nic uint64
		for _, e := range x.Engines {
			nic += e.BytesCopied
		}
		if nic != t.nic[id] {
			c.fail(NICBytes, strings.TrimSuffix(x.Hub.Name(), ".Hub"), "its DMA engines copied %d bytes, the commands they ran hold %d", nic, t.nic[id])
		}
	}
	for _, g := range n.GCDs {
		if g == nil {
			continue // not built: no run touched it
		}
		if got, want := g.CUs.BytesRead+g.CUs.BytesWritten, t.cu[g.CUs.Name()]; got != want {
			c.fail(CUBytes, g.CUs.Name(), "moved %d bytes, its kernels' accesses name %d", got, want)
		}
	}
}

// flags: host flags set, waited on and seen; GPU flags' stores all landed,
// each waited on, no wait asking more than landed nor left parked.
func (c *checker) flags(n *node.Node, t *Tally) {
	r := n.Runtime
	for _, f := range slices.Sorted(maps.Keys(t.hostSets)) {
		switch {
		case !r.FlagSet(f):
			c.fail(Stores, "flag "+f, "set by an op but not set at the end of the run")
		case !t.hostWaits[f] && !t.traced[f]:
			c.fail(FlagsSet, "flag "+f, "set but never waited on")
		}
	}
	for _, f := range slices.Sorted(maps.Keys(t.hostWaits)) {
		if !r.FlagSet(f) {
			c.fail(FlagsSeen, "flag "+f, "waited on but never set")
		}
	}
	gpu := r.GPUFlags()
	for _, name := range slices.Sorted(maps.Keys(gpu)) {
		f, want := gpu[name], t.gpuStores[name]
		// a counter may be raised past its last wait (credits a sender never
		// ran short of), so only its stores and waits are checked
		if f.Stores() != want {
			c.fail(Stores, "GPU flag "+name, "counted %d stores, the ops made %d", f.Stores(), want)
		}
		if w := t.gpuWaits[name]; w > f.Stores() {
			c.fail(FlagsSeen, "GPU flag "+name, "a wait asks for %d stores, %d landed", w, f.Stores())
		}
		if f.Waiting() > 0 {
			c.fail(FlagsSeen, "GPU flag "+name, "%d pollers still waiting at the end of the run", f.Waiting())
		}
	}
	for _, name := range slices.Sorted(maps.Keys(t.gpuWaits)) {
		if gpu[name] == nil && t.gpuWaits[name] > 0 {
			c.fail(FlagsSeen, "GPU flag "+name, "a wait asks for %d stores, none landed", t.gpuWaits[name])
		}
	}
}
