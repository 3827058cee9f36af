package workloads

import (
	"strconv"

	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// P2P replicates p2pBandwidthLatencyTest (HIP port) with P2P enabled: for
// each ordered GCD pair, repeated hipMemcpyPeerAsync between events.
type P2P struct {
	GCDs         int
	Bytes        int64 // bandwidth copy size (160 MB: 40 M ints)
	Repeat       int   // back-to-back copies per bandwidth measurement
	LatencyBytes int64 // latency copy size
	LatencyIters int
	Cases        []string // unidirectional, bidirectional, latency
}

// DefaultP2P is the seed paper's setting (E4).
func DefaultP2P(gcds int) P2P {
	return P2P{GCDs: gcds, Bytes: 160_000_000, Repeat: 5, LatencyBytes: 16, LatencyIters: 100,
		Cases: []string{"unidirectional", "bidirectional", "latency"}}
}

// Runs lists one run per case and ordered pair, the diagonal (a copy
// within one GCD) included.
func (p P2P) Runs() []Run {
	var runs []Run
	for _, c := range p.Cases {
		for i := 0; i < p.GCDs; i++ {
			for j := 0; j < p.GCDs; j++ {
				runs = append(runs, p.run(c, i, j))
			}
		}
	}
	return runs
}

func (p P2P) row(c string, i, j int, bytes int64, metric string, v float64, unit string) report.Row {
	return report.Row{Workload: "p2p", Case: c, Src: report.GCD(i), Dst: report.GCD(j),
		Bytes: bytes, Metric: metric, Value: v, Unit: unit}
}

func peer(dst, src string, bytes int64, stream int) trace.Op {
	return trace.Op{Op: trace.MemcpyPeerAsy, Dst: dst, Src: src, Bytes: bytes, Stream: stream}
}

func (p P2P) run(c string, i, j int) Run {
	name := c + "/" + strconv.Itoa(i) + "/" + strconv.Itoa(j)
	switch c {
	case "latency":
		ops := []trace.Op{alloc("a", i, p.LatencyBytes), alloc("b", j, p.LatencyBytes), record("start", 1)}
		for k := 0; k < p.LatencyIters; k++ {
			ops = append(ops, peer("b", "a", p.LatencyBytes, 1))
		}
		ops = append(ops, record("stop", 1), trace.Op{Op: trace.EventSync, Event: "stop"})
		return Run{Name: name, Ops: ops, Rows: func(r *Replay) []report.Row {
			us := r.Elapsed("start", "stop") * 1e6 / float64(p.LatencyIters)
			return []report.Row{p.row(c, i, j, p.LatencyBytes, "latency", us, "us")}
		}}
	case "bidirectional":
		// stream 1 on GCD i copies i->j while stream 2 on GCD j copies j->i;
		// stream 2 starts at the start event and stream 1 ends after it.
		ops := []trace.Op{alloc("a", i, p.Bytes), alloc("b", j, p.Bytes),
			alloc("a2", i, p.Bytes), alloc("b2", j, p.Bytes),
			record("start", 1), {Op: trace.StreamWait, Stream: 2, Event: "start"}}
		for k := 0; k < p.Repeat; k++ {
			ops = append(ops, peer("b", "a", p.Bytes, 1), peer("a2", "b2", p.Bytes, 2))
		}
		ops = append(ops, record("done2", 2), trace.Op{Op: trace.StreamWait, Stream: 1, Event: "done2"},
			record("stop", 1), trace.Op{Op: trace.EventSync, Event: "stop"})
		return Run{Name: name, Ops: ops, Rows: func(r *Replay) []report.Row {
			b := float64(2 * p.Bytes * int64(p.Repeat))
			return []report.Row{p.row(c, i, j, p.Bytes, "bandwidth", gbps(b, r.Elapsed("start", "stop")), "GB/s")}
		}}
	default:
		ops := []trace.Op{alloc("a", i, p.Bytes), alloc("b", j, p.Bytes), record("start", 1)}
		for k := 0; k < p.Repeat; k++ {
			ops = append(ops, peer("b", "a", p.Bytes, 1))
		}
		ops = append(ops, record("stop", 1), trace.Op{Op: trace.EventSync, Event: "stop"})
		return Run{Name: name, Ops: ops, Rows: func(r *Replay) []report.Row {
			b := float64(p.Bytes * int64(p.Repeat))
			if i == j {
				b *= 2 // as the sample does: a copy within a device reads and writes it
			}
			return []report.Row{p.row(c, i, j, p.Bytes, "bandwidth", gbps(b, r.Elapsed("start", "stop")), "GB/s")}
		}}
	}
}
