package workloads

import (
	"fmt"

	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// The OSU 7.4 tests of several pairs at once (c/mpi/pt2pt/standard), rank
// i on GCDs[i] paired with rank i+n/2, as LUMI's regression tests run
// them (n/2 pairs; between two nodes when the second half of -gcds is on
// the other node):
//
//   - osu_mbw_mr: per iteration a barrier, then every sender starts a
//     window of MPI_Isend to its partner, which has a window of MPI_Irecv
//     posted; both wait for all, and the receiver answers with a 4-byte
//     MPI_Send. Each sender times from its first timed iteration to the
//     end; bandwidth = pairs x size x window x iterations / the senders'
//     mean time, the message rate that over size.
//   - osu_multi_lat: every pair ping-pongs MPI_Send / MPI_Recv as
//     osu_latency does, after a barrier; latency = the senders' mean time
//     / 2 / iterations.

// multiRun builds one size of osu_mbw_mr or osu_multi_lat.
func (o OSU) multiRun(n int64) job.Run {
	np := len(o.GCDs)
	pairs := np / 2
	ops := make([][]trace.Op, np)
	call := func(r int, op trace.Op) { op.Rank = r; ops[r] = append(ops[r], op) }
	for r := range np {
		for _, b := range []string{"s", "r"} {
			call(r, trace.Op{Op: trace.Malloc, Buf: fmt.Sprintf("%s%d", b, r), GCD: intp(o.GCDs[r]), Bytes: max(n, 4)})
		}
		call(r, trace.Op{Op: trace.MPIBarrier})
	}
	p2p := func(r int, k trace.Kind, bytes int64, tag int, req string) {
		buf := "s"
		if k == trace.MPIRecv || k == trace.MPIIrecv {
			buf = "r"
		}
		peer := (r + pairs) % np
		call(r, trace.Op{Op: k, Buf: fmt.Sprintf("%s%d", buf, r), Bytes: bytes, Peer: intp(peer), Tag: tag, Req: req})
	}
	for it := 0; it < o.warmups()+o.Iterations; it++ {
		for r := range np {
			sender := r < pairs
			if o.Bench == "osu_mbw_mr" {
				call(r, trace.Op{Op: trace.MPIBarrier})
			}
			if sender && it == o.warmups() {
				call(r, trace.Op{Op: trace.HostCompute, Label: osuStart})
			}
			switch {
			case o.Bench == "osu_multi_lat" && sender:
				p2p(r, trace.MPISend, n, 1, "")
				p2p(r, trace.MPIRecv, n, 1, "")
			case o.Bench == "osu_multi_lat":
				p2p(r, trace.MPIRecv, n, 1, "")
				p2p(r, trace.MPISend, n, 1, "")
			case sender:
				for j := 0; j < o.Window; j++ {
					p2p(r, trace.MPIIsend, n, 100, fmt.Sprintf("s%d.%d.%d", r, it, j))
				}
				call(r, trace.Op{Op: trace.MPIWaitall})
				p2p(r, trace.MPIRecv, 4, 101, "")
			default:
				for j := 0; j < o.Window; j++ {
					p2p(r, trace.MPIIrecv, n, 100, fmt.Sprintf("r%d.%d.%d", r, it, j))
				}
				call(r, trace.Op{Op: trace.MPIWaitall})
				p2p(r, trace.MPISend, 4, 101, "")
			}
		}
	}
	var all []trace.Op
	for r := range np {
		if r < pairs {
			call(r, trace.Op{Op: trace.HostCompute, Label: osuStop})
		}
		all = append(all, ops[r]...)
	}
	return job.Run{Name: fmt.Sprintf("%s/%d", o.Bench, n), Ops: all, Rows: func(r *job.Replay) []report.Row {
		t := timed(r) / float64(pairs) / float64(o.Iterations) // a sender's mean time per iteration
		row := report.Row{Workload: "osu", Case: o.Bench, Src: report.GCD(o.GCDs[0]), Dst: report.GCDs(o.GCDs), Bytes: n}
		if o.Bench == "osu_multi_lat" {
			row.Metric, row.Value, row.Unit = "latency", t/2*1e6, "us"
		} else {
			row.Metric, row.Value, row.Unit = "bandwidth", gbps(float64(pairs)*float64(n)*float64(o.Window), t), "GB/s"
		}
		return []report.Row{row}
	}}
}
