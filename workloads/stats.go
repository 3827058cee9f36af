package workloads

import (
	"fmt"

	"github.com/akisim/akisim/node"
	"github.com/akisim/akisim/report"
)

// Stats sums component statistics over the runs of a workload, gem5 style:
// one named counter per component quantity.
type Stats struct {
	vals  map[string]float64
	desc  map[string][2]string
	order []string
	Runs  int
}

// NewStats makes empty statistics.
func NewStats() *Stats { return &Stats{vals: map[string]float64{}, desc: map[string][2]string{}} }

func (s *Stats) add(name string, v float64, desc, unit string) {
	if _, ok := s.vals[name]; !ok {
		s.order = append(s.order, name)
		s.desc[name] = [2]string{desc, unit}
	}
	s.vals[name] += v
}

// Add accumulates the statistics of a node after its run.
func (s *Stats) Add(n *node.Node) {
	s.Runs++
	s.add("simSeconds", float64(n.Engine.CurrentTime()), "Simulated time of all runs", "Second")
	for _, g := range n.GCDs {
		p := fmt.Sprintf("node.gcd%d", g.ID)
		s.add(p+".hbm.bytesRead", float64(g.HBM.BytesRead), "Bytes read from HBM", "Byte")
		s.add(p+".hbm.bytesWritten", float64(g.HBM.BytesWrite), "Bytes written to HBM", "Byte")
		s.add(p+".hub.forwarded", float64(g.Hub.Forwarded), "Packets passed through to another hub", "Count")
		s.add(p+".cu.kernels", float64(g.CUs.Kernels), "Kernels run", "Count")
		s.add(p+".cu.workgroups", float64(g.CUs.Workgroups), "Workgroups dispatched", "Count")
		s.add(p+".cu.transactions", float64(g.CUs.Transactions), "Memory transactions of the CUs", "Count")
		s.add(p+".cu.bytesRead", float64(g.CUs.BytesRead), "Bytes the CUs read (any memory)", "Byte")
		s.add(p+".cu.bytesWritten", float64(g.CUs.BytesWritten), "Bytes the CUs wrote (any memory)", "Byte")
		s.add(p+".hbm.busy", float64(g.HBM.BusyTime()), "Time HBM was transferring", "Second")
		for i, e := range g.Engines() {
			q := fmt.Sprintf("%s.sdma%d", p, i)
			s.add(q+".copies", float64(e.Copies), "Copy packets processed", "Count")
			s.add(q+".bytesCopied", float64(e.BytesCopied), "Bytes copied", "Byte")
			s.add(q+".transactions", float64(e.Transactions), "Read/write transactions", "Count")
			s.add(q+".fences", float64(e.Fences), "Fences before completion signals", "Count")
			s.add(q+".datapathBusy", float64(e.DatapathBusy()), "Time the datapath moved data", "Second")
		}
	}
	for _, b := range n.Bundles {
		name := b.Name()
		for d := 0; d < 2; d++ {
			pk, pl, busy := b.Stats(d)
			q := fmt.Sprintf("%s.dir%d", name, d)
			s.add(q+".packets", float64(pk), "Transactions carried", "Count")
			s.add(q+".payloadBytes", float64(pl), "Data bytes carried", "Byte")
			s.add(q+".busy", float64(busy), "Time the lanes were serialising", "Second")
		}
	}
	for g, l := range n.HostLinks {
		for d, dir := range []string{"toHost", "toGCD"} {
			pk, pl, busy := l.Stats(d)
			q := fmt.Sprintf("node.hostLink%d.%s", g, dir)
			s.add(q+".packets", float64(pk), "Transactions carried", "Count")
			s.add(q+".payloadBytes", float64(pl), "Data bytes carried", "Byte")
			s.add(q+".busy", float64(busy), "Time the link was serialising", "Second")
		}
	}
	for d, m := range n.DRAM {
		q := fmt.Sprintf("node.numa%d.dram", d)
		s.add(q+".bytesRead", float64(m.BytesRead), "Bytes read", "Byte")
		s.add(q+".bytesWritten", float64(m.BytesWrite), "Bytes written", "Byte")
		s.add(q+".busy", float64(m.BusyTime()), "Time the channels were transferring", "Second")
	}
}

// List returns the statistics in a stable order.
func (s *Stats) List() []report.Stat {
	out := make([]report.Stat, 0, len(s.order))
	for _, n := range s.order {
		out = append(out, report.Stat{Name: n, Value: s.vals[n], Desc: s.desc[n][0], Unit: s.desc[n][1]})
	}
	return out
}
