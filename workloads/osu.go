package workloads

import (
	"fmt"
	"slices"
	"strings"

	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// OSU replicates the point-to-point tests of the OSU micro-benchmarks with
// device buffers (`-d rocm D D`) between two ranks, rank i bound to
// GCDs[i], as MPI calls the mpi package turns into Cray MPICH's transport:
//
//   - osu_bw: rank 0 starts a window of MPI_Isend, rank 1 the matching
//     MPI_Irecv, both wait for all, then rank 1 answers with a 4-byte
//     MPI_Send; bandwidth = size x window x iterations / time;
//   - osu_bibw: both ranks start a window of receives and sends and wait
//     for all; twice the bytes over the time;
//   - osu_latency: ping-pong of MPI_Send / MPI_Recv; latency = time / 2 /
//     iterations.
//
// Rank 0 times on its host clock, from the first timed iteration to the
// end. The original repeats each size 100 times (20 above 8 KiB) after a
// warm-up; the simulator is deterministic, so one warm-up and Iterations
// timed iterations give the same mean (OSU's -x sets Warmup).
type OSU struct {
	Bench      string  // osu_bw, osu_bibw, osu_latency, osu_mbw_mr, osu_multi_lat (osu_multi.go) or a collective (osu_coll.go)
	GCDs       []int   // rank i runs on GCDs[i]
	Sizes      []int64 // message sizes in bytes
	Window     int     // messages in flight per iteration (OSU: 64)
	Iterations int     // timed iterations after the warm-up
	Warmup     int     // untimed iterations before them, if WarmupSet (else one)
	WarmupSet  bool
}

// warmups is the number of untimed iterations.
func (o OSU) warmups() int {
	if o.WarmupSet {
		return o.Warmup
	}
	return 1
}

// OSUBenchmarks are the tests OSU replicates, in OSU's order: point to
// point, then the collectives (osu_coll.go).
var OSUBenchmarks = []string{"osu_latency", "osu_bw", "osu_bibw", "osu_mbw_mr", "osu_multi_lat",
	"osu_reduce", "osu_bcast", "osu_allreduce", "osu_reduce_scatter", "osu_allgather", "osu_alltoall"}

// Runs lists one run per size.
func (o OSU) Runs() ([]job.Run, error) {
	_, coll := osuCollectives[o.Bench]
	multi := o.Bench == "osu_mbw_mr" || o.Bench == "osu_multi_lat"
	switch {
	case !slices.Contains(OSUBenchmarks, o.Bench):
		return nil, fmt.Errorf("-bench: unknown OSU benchmark %q (want one of %s)", o.Bench, strings.Join(OSUBenchmarks, ", "))
	case coll && len(o.GCDs) < 2:
		return nil, fmt.Errorf("-gcds: %s runs one rank per GCD and needs at least two, got %d GCDs", o.Bench, len(o.GCDs))
	case multi && (len(o.GCDs) < 2 || len(o.GCDs)%2 != 0):
		return nil, fmt.Errorf("-gcds: %s pairs rank i with rank i+n/2 and needs an even number of GCDs, got %d", o.Bench, len(o.GCDs))
	case !coll && !multi && len(o.GCDs) != 2:
		return nil, fmt.Errorf("-gcds: %s runs two ranks, got %d GCDs", o.Bench, len(o.GCDs))
	case o.Iterations < 1 || o.warmups() < 0:
		return nil, fmt.Errorf("-i %d -x %d: want at least one iteration and no negative warm-up", o.Iterations, o.warmups())
	}
	var runs []job.Run
	for _, n := range o.Sizes {
		if n < 1 {
			return nil, fmt.Errorf("-sizes: message sizes must be >= 1, got %d", n)
		}
		switch {
		case coll:
			runs = append(runs, o.collRun(n))
		case multi:
			runs = append(runs, o.multiRun(n))
		default:
			runs = append(runs, o.run(n))
		}
	}
	return runs, nil
}

// Labels of rank 0's clock readings.
const osuStart, osuStop = "osu.t_start", "osu.t_end"

func (o OSU) run(n int64) job.Run {
	var ops [2][]trace.Op // per rank, in program order
	for r := 0; r < 2; r++ {
		for _, b := range []string{"s", "r"} {
			ops[r] = append(ops[r], trace.Op{Op: trace.Malloc, Buf: fmt.Sprintf("%s%d", b, r), GCD: intp(o.GCDs[r]), Bytes: max(n, 4), Rank: r})
		}
	}
	call := func(r int, op trace.Op) { op.Rank = r; ops[r] = append(ops[r], op) }
	send := func(r int, bytes int64, tag int, req string) trace.Op {
		k := trace.MPISend
		if req != "" {
			k = trace.MPIIsend
		}
		return trace.Op{Op: k, Buf: fmt.Sprintf("s%d", r), Bytes: bytes, Peer: intp(1 - r), Tag: tag, Req: req}
	}
	recv := func(r int, bytes int64, tag int, req string) trace.Op {
		k := trace.MPIRecv
		if req != "" {
			k = trace.MPIIrecv
		}
		return trace.Op{Op: k, Buf: fmt.Sprintf("r%d", r), Bytes: bytes, Peer: intp(1 - r), Tag: tag, Req: req}
	}
	for it := 0; it < o.warmups()+o.Iterations; it++ {
		if it == o.warmups() { // after the warm-up
			call(0, trace.Op{Op: trace.HostCompute, Label: osuStart})
		}
		req := func(r, j int, what string) string { return fmt.Sprintf("%s%d.%d.%d", what, r, it, j) }
		switch o.Bench {
		case "osu_latency":
			call(0, send(0, n, 1, ""))
			call(0, recv(0, n, 1, ""))
			call(1, recv(1, n, 1, ""))
			call(1, send(1, n, 1, ""))
		case "osu_bw":
			for j := 0; j < o.Window; j++ {
				call(0, send(0, n, 100, req(0, j, "s")))
				call(1, recv(1, n, 100, req(1, j, "r")))
			}
			call(0, trace.Op{Op: trace.MPIWaitall})
			call(1, trace.Op{Op: trace.MPIWaitall})
			call(1, send(1, 4, 101, ""))
			call(0, recv(0, 4, 101, ""))
		case "osu_bibw":
			for r := 0; r < 2; r++ {
				for j := 0; j < o.Window; j++ {
					call(r, recv(r, n, 10, req(r, j, "r")))
				}
				for j := 0; j < o.Window; j++ {
					call(r, send(r, n, 10, req(r, j, "s")))
				}
				call(r, trace.Op{Op: trace.MPIWaitall})
			}
		}
	}
	call(0, trace.Op{Op: trace.HostCompute, Label: osuStop})
	all := append(ops[0], ops[1]...)
	return job.Run{Name: fmt.Sprintf("%s/%d", o.Bench, n), Ops: all, Rows: func(r *job.Replay) []report.Row {
		var t0, t1 float64
		for _, res := range r.Ops {
			switch res.Op.Label {
			case osuStart:
				t0 = float64(res.Issue)
			case osuStop:
				t1 = float64(res.Issue)
			}
		}
		row := report.Row{Workload: "osu", Case: o.Bench, Src: report.GCD(o.GCDs[0]), Dst: report.GCDs(o.GCDs), Bytes: n}
		t := (t1 - t0) / float64(o.Iterations)
		switch o.Bench {
		case "osu_latency":
			row.Metric, row.Value, row.Unit = "latency", t/2*1e6, "us"
		case "osu_bw":
			row.Metric, row.Value, row.Unit = "bandwidth", gbps(float64(n)*float64(o.Window), t), "GB/s"
		default:
			row.Metric, row.Value, row.Unit = "bandwidth", gbps(2*float64(n)*float64(o.Window), t), "GB/s"
		}
		return []report.Row{row}
	}}
}
