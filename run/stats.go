package run

import (
	"fmt"
	"iter"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/akisim/akisim/components/dram"
	"github.com/akisim/akisim/components/gcd"
	"github.com/akisim/akisim/components/xgmi"
	"github.com/akisim/akisim/node"
	"github.com/akisim/akisim/report"
	"github.com/sarchlab/akita/v3/sim"
)

// simFreq is gem5's tick rate: one tick is a picosecond.
const simFreq = 1e12

// Stats holds one gem5 stats dump per run, as m5.stats.dump() followed by
// m5.stats.reset() writes them: each run is a fresh node, so every block
// counts that run only. Names follow the component tree of config.json
// (node.gcd0.sdma3.bytesCopied). Only the host* lines depend on the machine
// that simulated; every other line is deterministic.
type Stats struct {
	layouts []layout   // distinct lists of names, descriptions and units
	runs    []runStats // one per dump
	last    time.Time  // when the previous dump was taken (gem5's statTime)
}

// runStats is one dump as values over a layout: runs of one node config
// share it, so thousands of dumps cost little memory.
type runStats struct {
	name   string
	layout int
	values []float64
}

// NewStats makes empty statistics; host time counts from now.
func NewStats() *Stats { return &Stats{last: time.Now()} }

// ticks converts simulated seconds to picosecond ticks.
func ticks(t sim.VTimeInSec) float64 { return math.Round(float64(t) * simFreq) }

// dump collects one block's stats in order: its layout, the values in
// its stats.
type dump struct{ layout }

// layout is a dump's list of stats, without their values: the stats of
// the parts built, and at their places ranges of like parts no run
// touched (a cluster's untouched nodes), whose stats are written from a
// template (all zero) only when the dump is listed.
type layout struct {
	d    report.Dump
	idle []idleRange
}

// idleRange is parts from..to (ids) of one kind, not built, listed before
// stat at of the dump: each lists tmpl with idleID replaced by its id.
type idleRange struct {
	at, from, to int
	tmpl         report.Dump
}

// idleID stands for a part's id in a template's names and descriptions
// (an id is a string to the functions that add a part's stats).
const idleID = "\x00"

// template is the stats add adds: those of an idle part.
func template(add func(*dump)) report.Dump {
	t := &dump{}
	add(t)
	return t.d
}

// idleAt adds part id, not built, whose stats are tmpl's.
func (d *dump) idleAt(tmpl report.Dump, id int) {
	if k := len(d.idle) - 1; k >= 0 && d.idle[k].at == len(d.d) && d.idle[k].to == id-1 && &d.idle[k].tmpl[0] == &tmpl[0] {
		d.idle[k].to = id
		return
	}
	d.idle = append(d.idle, idleRange{at: len(d.d), from: id, to: id, tmpl: tmpl})
}

func (d *dump) add(name string, v float64, desc, unit string) {
	d.d = append(d.d, report.Stat{Name: name, Value: v, Desc: desc, Unit: unit})
}

// Add takes the dump of run number len(dumps), named run, from its node.
func (s *Stats) Add(run string, n *node.Node) { s.keep(run, take(n)) }

// hostAt is where a dump's host lines (hostSeconds, hostTickRate) are:
// take leaves them to keep, which knows when the dump is taken.
const hostAt = 4

// take collects node n's stats, as a dump of a run that ended, on the
// goroutine that ran it; keep adds it to the runs.
func take(n *node.Node) *dump {
	simTicks := ticks(n.Engine.CurrentTime())
	d := &dump{}
	d.add("simSeconds", simTicks/simFreq, "Number of seconds simulated", "Second")
	d.add("simTicks", simTicks, "Number of ticks simulated", "Tick")
	d.add("finalTick", simTicks, "Number of ticks from beginning of simulation (each run starts a fresh node at 0)", "Tick")
	d.add("simFreq", simFreq, "The number of ticks per simulated second", "(Tick/Second)")
	d.d = append(d.d, report.Stat{Name: "hostSeconds", Desc: "Real time elapsed on the host", Unit: "Second", Precision: 2},
		report.Stat{Name: "hostTickRate", Desc: "The number of ticks simulated per host second (ticks/s)", Unit: "(Tick/Second)"})
	d.add("runIndex", 0, "", "Count") // numbered by keep, described by the run's name when listed
	eachPart(d, n.GCDs, func() *gcd.GCD { return n.Idle().GCD }, gcdStats)
	c := n.Config
	for _, b := range c.XGMI.Bundles {
		x := n.BundleOf[b.GCDs]
		if x == nil {
			continue
		}
		lo, hi := min(b.GCDs[0], b.GCDs[1]), max(b.GCDs[0], b.GCDs[1])
		for dir, from := range [2]int{lo, hi} {
			side := 0 // the bundle's side 0 is the first GCD of its config entry
			if from != b.GCDs[0] {
				side = 1
			}
			link(d, fmt.Sprintf("node.xgmi.b%d_%d.dir%d", lo, hi, dir), fmt.Sprintf("from GCD %d to GCD %d", from, lo+hi-from), x.Stats, side)
		}
	}
	eachPart(d, n.HostLinks, func() *xgmi.Bundle { return n.Idle().HostLink }, hostLinkStats)
	network(d, n)
	d.add("node.host.cores.accesses", float64(n.Cores.Accesses()), "Host accesses run", "Count")
	d.add("node.host.cores.threads", float64(n.Cores.Threads()), "Host threads that ran them", "Count")
	traffic(d, "node.host.cores", n.Cores.Transactions(), n.Cores.BytesRead(), n.Cores.BytesWritten())
	pg := n.Runtime.Pageable
	d.add("node.runtime.pageableStagedChunks", float64(pg.StagedChunks), "Pageable-copy chunks through a staging buffer", "Count")
	d.add("node.runtime.pageableStagedBytes", float64(pg.StagedBytes), "Bytes the host's memcpy moved through staging buffers", "Byte")
	d.add("node.runtime.pageablePinnedChunks", float64(pg.PinnedChunks), "Pageable-copy chunks copied from or to pinned user pages", "Count")
	d.add("node.runtime.pageablePinnedBytes", float64(pg.PinnedBytes), "Bytes copied from or to pinned user pages", "Byte")
	mm := n.Runtime.Managed
	d.add("node.runtime.managedFaults", float64(mm.Faults), "GPU page faults on managed memory (one per 2 MiB block)", "Count")
	d.add("node.runtime.managedBlocksToGPU", float64(mm.BlocksToGPU), "Managed 2 MiB blocks migrated into a GCD's HBM", "Count")
	d.add("node.runtime.managedBytesToGPU", float64(mm.BytesToGPU), "Managed bytes SDMA migrated into HBM", "Byte")
	d.add("node.runtime.managedBlocksToHost", float64(mm.BlocksToHost), "Managed 2 MiB blocks migrated back to host DRAM", "Count")
	d.add("node.runtime.managedBytesToHost", float64(mm.BytesToHost), "Managed bytes SDMA migrated into host DRAM", "Byte")
	d.add("node.runtime.managedPrefetches", float64(mm.PrefetchCalls), "hipMemPrefetchAsync calls", "Count")
	eachPart(d, n.DRAM, func() *dram.Controller { return n.Idle().DRAM }, dramStats)
	return d
}

// keep adds dump d of run number len(dumps), named run: its host time is
// the time since the dump before it (gem5's, since the last reset), so
// the runs' host seconds add up to the wall time however many ran at once.
func (s *Stats) keep(run string, d *dump) {
	now := time.Now()
	host := now.Sub(s.last).Seconds()
	s.last = now
	d.d[hostAt].Value, d.d[hostAt+1].Value = host, math.Round(d.d[1].Value/host)
	d.d[hostAt+2].Value = float64(len(s.runs))
	r := runStats{name: run, layout: len(s.layouts) - 1, values: make([]float64, len(d.d))}
	for i, st := range d.d {
		r.values[i] = st.Value
	}
	if r.layout < 0 || !sameLayout(s.layouts[r.layout], d.layout) {
		s.layouts = append(s.layouts, d.layout)
		r.layout++
	}
	s.runs = append(s.runs, r)
}

// sameLayout reports whether a and b list the same stats, values aside.
func sameLayout(a, b layout) bool {
	if !sameStats(a.d, b.d) || len(a.idle) != len(b.idle) {
		return false
	}
	for i, r := range a.idle {
		if q := b.idle[i]; r.at != q.at || r.from != q.from || r.to != q.to || !sameStats(r.tmpl, q.tmpl) {
			return false
		}
	}
	return true
}

// sameStats reports whether a and b list the same stats, values aside.
func sameStats(a, b report.Dump) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Desc != b[i].Desc || a[i].Unit != b[i].Unit || a[i].Precision != b[i].Precision {
			return false
		}
	}
	return true
}

// network adds the NICs' PCIe links and cables (by global NIC id,
// node*nic.count + k) and the links between switches, each direction that
// carried anything: a cluster has thousands of them, most idle in a run
// (a whole Frontier about 200,000).
func network(d *dump, n *node.Node) {
	ifUsed := func(q, way string, l *xgmi.Bundle, side int) {
		if pk, _, _ := l.Stats(side); pk > 0 {
			link(d, q, way, l.Stats, side)
		}
	}
	for k, l := range n.NICLinks {
		if l == nil {
			continue // not built: carried nothing
		}
		ifUsed(fmt.Sprintf("node.nic.nic%d.pcie.dir0", k), fmt.Sprintf("from its GCD to NIC %d", k), l, 0)
		ifUsed(fmt.Sprintf("node.nic.nic%d.pcie.dir1", k), fmt.Sprintf("from NIC %d to its GCD", k), l, 1)
	}
	cables := len(n.NICs)
	if len(n.NetLinks) < cables { // one node: no network
		return
	}
	for k, l := range n.NetLinks[:cables] {
		if l == nil {
			continue
		}
		ifUsed(fmt.Sprintf("node.nic.nic%d.cable.dir0", k), fmt.Sprintf("from NIC %d to its switch", k), l, 0)
		ifUsed(fmt.Sprintf("node.nic.nic%d.cable.dir1", k), fmt.Sprintf("from its switch to NIC %d", k), l, 1)
	}
	var links [][2]int
	for i, l := range n.NetLinks[cables:] {
		if l == nil {
			continue
		}
		if links == nil {
			links = n.Routes.Network().Links()
		}
		p := links[i]
		ifUsed(fmt.Sprintf("node.network.switch%d_%d.dir0", p[0], p[1]), fmt.Sprintf("from switch %d to switch %d", p[0], p[1]), l, 0)
		ifUsed(fmt.Sprintf("node.network.switch%d_%d.dir1", p[0], p[1]), fmt.Sprintf("from switch %d to switch %d", p[1], p[0]), l, 1)
	}
}

// eachPart adds the stats of each part of a kind, by id: add's of the
// part, or for a part not built (nil; a cluster's node no run touched)
// the place of add's of an idle one, written when the dump is listed.
func eachPart[P any](d *dump, parts []*P, idle func() *P, add func(d *dump, id string, p *P)) {
	var tmpl report.Dump // made once
	for id, p := range parts {
		if p == nil {
			if tmpl == nil {
				tmpl = template(func(t *dump) { add(t, idleID, idle()) })
			}
			d.idleAt(tmpl, id)
			continue
		}
		add(d, strconv.Itoa(id), p)
	}
}

// gcdStats adds the stats of GCD id.
func gcdStats(d *dump, id string, g *gcd.GCD) {
	p := "node.gcd" + id
	d.add(p+".hub.forwarded", float64(g.Hub.Forwarded), "Packets passed through to another hub", "Count")
	d.add(p+".hbm.bytesRead", float64(g.HBM.BytesRead), "Bytes read from HBM", "Byte")
	d.add(p+".hbm.bytesWritten", float64(g.HBM.BytesWrite), "Bytes written to HBM", "Byte")
	d.add(p+".hbm.busy", ticks(g.HBM.BusyTime()), "Time HBM was transferring", "Tick")
	for x, l := range g.L2s {
		q := p + ".l2" // an XCD's own with several
		if len(g.L2s) > 1 {
			q = fmt.Sprintf("%s.xcd%d.l2", p, x)
		}
		d.add(q+".hits", float64(l.Hits), "Requests the L2 served", "Count")
		d.add(q+".misses", float64(l.Misses), "Requests the L2 passed to memory", "Count")
		d.add(q+".writebacks", float64(l.WriteBacks), "Dirty blocks written back to their memory", "Count")
		d.add(q+".nonLocalHits", float64(l.NonLocalHits), "Requests for coarse-grained peer or host memory the L2 served", "Count")
		d.add(q+".nonLocalMisses", float64(l.NonLocalMisses), "Requests for coarse-grained peer or host memory the L2 fetched", "Count")
		d.add(q+".nonLocalWritebacks", float64(l.NonLocalWriteBacks), "Dirty blocks written back to peer or host memory", "Count")
	}
	if m := g.MALL; m != nil {
		d.add(p+".mall.hits", float64(m.Hits), "Reads the MALL served", "Count")
		d.add(p+".mall.misses", float64(m.Misses), "Reads the MALL fetched from HBM", "Count")
		d.add(p+".mall.hitBytes", float64(m.HitBytes), "Bytes the MALL served", "Byte")
		d.add(p+".mall.writebacks", float64(m.WriteBacks), "Dirty blocks the MALL wrote back to HBM", "Count")
	}
	d.add(p+".cu.kernels", float64(g.CUs.Kernels), "Kernels run", "Count")
	d.add(p+".cu.workgroups", float64(g.CUs.Workgroups), "Workgroups dispatched", "Count")
	traffic(d, p+".cu", g.CUs.Transactions, g.CUs.BytesRead, g.CUs.BytesWritten)
	for i, e := range g.Engines() {
		q := fmt.Sprintf("%s.sdma%d", p, i)
		d.add(q+".copies", float64(e.Copies), "Copy packets processed", "Count")
		d.add(q+".bytesCopied", float64(e.BytesCopied), "Bytes copied", "Byte")
		d.add(q+".transactions", float64(e.Transactions), "Read/write transactions", "Count")
		d.add(q+".fences", float64(e.Fences), "Fences before completion signals", "Count")
		d.add(q+".datapathBusy", ticks(e.DatapathBusy()), "Time the datapath moved data", "Tick")
	}
}

// hostLinkStats adds both directions of the host link of GCD g.
func hostLinkStats(d *dump, g string, l *xgmi.Bundle) {
	link(d, "node.hostlink.gcd"+g+".dir0", "from GCD "+g+" to the host", l.Stats, 0)
	link(d, "node.hostlink.gcd"+g+".dir1", "from the host to GCD "+g, l.Stats, 1)
}

// dramStats adds the stats of global NUMA domain i's DRAM.
func dramStats(d *dump, i string, m *dram.Controller) {
	q := "node.numa" + i + ".dram"
	d.add(q+".bytesRead", float64(m.BytesRead), "Bytes read", "Byte")
	d.add(q+".bytesWritten", float64(m.BytesWrite), "Bytes written", "Byte")
	d.add(q+".busy", ticks(m.BusyTime()), "Time the channels were transferring", "Tick")
}

// link adds one direction of a bundle or host link.
func link(d *dump, q, way string, stats func(int) (uint64, uint64, sim.VTimeInSec), side int) {
	pk, pl, busy := stats(side)
	d.add(q+".packets", float64(pk), "Transactions carried "+way, "Count")
	d.add(q+".payloadBytes", float64(pl), "Data bytes carried "+way, "Byte")
	d.add(q+".busy", ticks(busy), "Time the lanes were serialising "+way, "Tick")
}

// traffic adds the memory traffic of requesters (a GCD's CUs or the host cores).
func traffic(d *dump, q string, transactions, read, written uint64) {
	d.add(q+".transactions", float64(transactions), "Memory transactions", "Count")
	d.add(q+".bytesRead", float64(read), "Bytes read (any memory)", "Byte")
	d.add(q+".bytesWritten", float64(written), "Bytes written (any memory)", "Byte")
}

// dump is the stats block of run number i.
func (s *Stats) dump(i int) report.Dump {
	r := s.runs[i]
	l := s.layouts[r.layout]
	n := len(l.d)
	for _, r := range l.idle {
		n += (r.to - r.from + 1) * len(r.tmpl)
	}
	d := make(report.Dump, 0, n)
	k := 0 // the next idle range
	for j, st := range l.d {
		for ; k < len(l.idle) && l.idle[k].at == j; k++ {
			d = l.idle[k].expand(d)
		}
		st.Value = r.values[j]
		if st.Name == "runIndex" {
			st.Desc = "Run " + r.name + " (order of the runs in results, from 0)"
		}
		d = append(d, st)
	}
	for ; k < len(l.idle); k++ {
		d = l.idle[k].expand(d)
	}
	return d
}

// expand appends the stats of the range's parts to d.
func (r idleRange) expand(d report.Dump) report.Dump {
	for id := r.from; id <= r.to; id++ {
		s := strconv.Itoa(id)
		for _, t := range r.tmpl {
			t.Name, t.Desc = strings.ReplaceAll(t.Name, idleID, s), strings.ReplaceAll(t.Desc, idleID, s)
			d = append(d, t)
		}
	}
	return d
}

// List yields the dumps, one per run, in run order, each made when it is
// needed.
func (s *Stats) List() iter.Seq[report.Dump] {
	return func(yield func(report.Dump) bool) {
		for i := range s.runs {
			if !yield(s.dump(i)) {
				return
			}
		}
	}
}

// Total is stat name summed over the runs (0 if no run has it; parts not
// built add nothing).
func (s *Stats) Total(name string) float64 {
	v := 0.0
	for _, r := range s.runs {
		for i, st := range s.layouts[r.layout].d {
			if st.Name == name {
				v += r.values[i]
			}
		}
	}
	return v
}
