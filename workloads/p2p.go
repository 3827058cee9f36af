package workloads

import (
	"strconv"

	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// P2P replicates p2pBandwidthLatencyTest (HIP port, the seed paper's
// tools/p2pBandwidthLatencyTest) with P2P enabled and copy engines (its
// default, P2P writes): for each ordered GCD pair, back-to-back
// hipMemcpyPeerAsync between two events, all queued behind the sample's
// delay kernel so the host's cost of queuing them is not timed.
type P2P struct {
	GCDs         int
	Bytes        int64    // bandwidth copy size (the sample's numElems = 40 M ints: 160 MB)
	Repeat       int      // copies per bandwidth measurement (the sample's repeat = 5)
	LatencyBytes int64    // latency copy size (the sample's 4 ints: 16 B)
	LatencyIters int      // copies per latency measurement (the sample's repeat = 100)
	Cases        []string // unidirectional, bidirectional, latency
}

// DefaultP2P is the sample's setting, as the seed paper ran it (E4).
func DefaultP2P(gcds int) P2P {
	return P2P{GCDs: gcds, Bytes: 160_000_000, Repeat: 5, LatencyBytes: 16, LatencyIters: 100,
		Cases: []string{"unidirectional", "bidirectional", "latency"}}
}

// Runs lists one run per case and ordered pair, the diagonal (a copy
// within one GCD) included.
func (p P2P) Runs() []job.Run {
	var runs []job.Run
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

// The sample's streams: stream[i] and stream0[i] on GCD i, stream1[j] on
// GCD j (non-blocking streams, so not the null stream 0).
const stream0, stream1 = 1, 2

// delay is the sample's `*flag = 0; delay<<<1, 1, 0, stream>>>(flag)` on
// GCD g: a kernel spinning on a flag in host memory until the host has
// queued the whole measurement and sets it (release).
func delay(g int) trace.Op {
	return trace.Op{Op: trace.Kernel, Name: "delay", GCD: intp(g), Stream: stream0, Grid: 1, Workgroup: 1, WaitFlag: "flag"}
}

var release = trace.Op{Op: trace.FlagSet, Flag: "flag"} // the sample's *flag = 1

// repeat is n copies of op.
func repeat(n int, op trace.Op) []trace.Op {
	ops := make([]trace.Op, n)
	for k := range ops {
		ops[k] = op
	}
	return ops
}

// run is one measurement as the sample makes it: buffer a (the sample's
// buffers[i], or buffersD2D[i] on the diagonal) on GCD i, b (buffers[j])
// on GCD j.
func (p P2P) run(c string, i, j int) job.Run {
	name := c + "/" + strconv.Itoa(i) + "/" + strconv.Itoa(j)
	// a copy within one GCD reads and writes its memory: the sample
	// counts both ("must count both the read and the write here")
	diag := 1.0
	if i == j {
		diag = 2
	}
	if c == "bidirectional" {
		// stream1[j] waits for start, so start..stop covers both streams;
		// the sample queues j->i first
		ops := []trace.Op{alloc("a", i, p.Bytes), alloc("b", j, p.Bytes),
			delay(i), record("start", stream0), {Op: trace.StreamWait, Stream: stream1, Event: "start"}}
		ops = append(ops, repeat(p.Repeat, peer("a", "b", p.Bytes, stream1))...)
		ops = append(ops, repeat(p.Repeat, peer("b", "a", p.Bytes, stream0))...)
		ops = append(ops, record("stop1", stream1), trace.Op{Op: trace.StreamWait, Stream: stream0, Event: "stop1"},
			record("stop", stream0), release,
			trace.Op{Op: trace.StreamSync, Stream: stream0}, trace.Op{Op: trace.StreamSync, Stream: stream1})
		return job.Run{Name: name, Ops: ops, Rows: func(r *job.Replay) []report.Row {
			gb := 2 * float64(p.Bytes) * float64(p.Repeat) * diag
			return []report.Row{p.row(c, i, j, p.Bytes, "bandwidth", gbps(gb, r.Elapsed("start", "stop")), "GB/s")}
		}}
	}
	bytes, n := p.Bytes, p.Repeat
	if c == "latency" {
		bytes, n = p.LatencyBytes, p.LatencyIters
	}
	ops := []trace.Op{alloc("a", i, bytes), alloc("b", j, bytes), delay(i), record("start", stream0)}
	ops = append(ops, repeat(n, peer("b", "a", bytes, stream0))...)
	ops = append(ops, record("stop", stream0), release, trace.Op{Op: trace.StreamSync, Stream: stream0})
	return job.Run{Name: name, Ops: ops, Rows: func(r *job.Replay) []report.Row {
		t := r.Elapsed("start", "stop")
		if c == "latency" { // the sample's latency is per copy, and not doubled on the diagonal
			return []report.Row{p.row(c, i, j, bytes, "latency", t*1e6/float64(n), "us")}
		}
		return []report.Row{p.row(c, i, j, bytes, "bandwidth", gbps(float64(bytes)*float64(n)*diag, t), "GB/s")}
	}}
}
