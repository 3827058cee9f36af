package workloads

import (
	"fmt"

	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// The OSU 7.4 blocking collective tests (c/mpi/collective/blocking) with
// device buffers, one rank per GCD of -gcds, MPI_CHAR data, root 0. Each
// rank times every call on its own clock: a barrier before the size's
// iterations, then per iteration t_start, the collective, t_stop and a
// barrier (osu_reduce has its barrier before t_start instead). A rank's
// latency is its mean time per call; OSU prints the mean over ranks (an
// MPI_Reduce of the latencies with MPI_SUM, divided by the rank count).

// osuCollectives maps each collective test to the call it times.
var osuCollectives = map[string]trace.Kind{
	"osu_reduce":         trace.MPIReduce,
	"osu_bcast":          trace.MPIBcast,
	"osu_allreduce":      trace.MPIAllreduce,
	"osu_reduce_scatter": trace.MPIReduceScatter,
	"osu_allgather":      trace.MPIAllgather,
	"osu_alltoall":       trace.MPIAlltoall,
}

// collWarmup is the collectives' warm-up unless -x sets one. OSU skips
// 200 iterations (10 above 8 KiB); the model simulates as many of them as
// bring every state it keeps to what they leave: IPC handles, opened on
// the first call, and the shared-memory collectives, which a communicator
// takes from its MPICH_POSIX_NUM_COLLS_THRESHOLD-th call on (5) and sets
// up on that first call (MPICH allocates them lazily): five calls before
// the timed ones. The cells hold a few hundred bytes
// (MPICH_SHARED_MEM_COLL_CELLSZ), and a larger message's first call sets
// all it keeps, so above collWarmupBytes / collWarmup bytes the warm-ups
// shrink to what collWarmupBytes holds (one at least): E8's 1 MiB
// collectives simulate one, not five. A cell size past that needs -x.
const (
	collWarmup      = 5
	collWarmupBytes = 1 << 20
)

// collWarmups is the number of untimed iterations of a collective test
// of n bytes.
func (o OSU) collWarmups(n int64) int {
	if o.WarmupSet {
		return o.Warmup
	}
	return int(max(1, min(collWarmup, collWarmupBytes/max(n, 1))))
}

// collRun builds one size of a collective test.
func (o OSU) collRun(n int64) job.Run {
	kind := osuCollectives[o.Bench]
	np := len(o.GCDs)
	var ops [][]trace.Op
	for r := range o.GCDs {
		// buffer sizes as OSU allocates them: allgather's receive and both
		// of alltoall's hold a block per rank
		sb, rb := n, n
		switch kind {
		case trace.MPIAllgather:
			rb = n * int64(np)
		case trace.MPIAlltoall:
			sb, rb = n*int64(np), n*int64(np)
		}
		s, d := fmt.Sprintf("s%d", r), fmt.Sprintf("r%d", r)
		call := trace.Op{Op: kind, Src: s, Dst: d, Bytes: n}
		rank := []trace.Op{{Op: trace.Malloc, Buf: s, GCD: intp(o.GCDs[r]), Bytes: sb}}
		if kind == trace.MPIBcast {
			call = trace.Op{Op: kind, Buf: s, Bytes: n, Root: intp(0)}
		} else {
			rank = append(rank, trace.Op{Op: trace.Malloc, Buf: d, GCD: intp(o.GCDs[r]), Bytes: rb})
		}
		if kind == trace.MPIReduce {
			call.Root = intp(0)
		}
		barrier := trace.Op{Op: trace.MPIBarrier}
		rank = append(rank, barrier)
		for it := 0; it < o.collWarmups(n)+o.Iterations; it++ {
			start, stop := trace.Op{Op: trace.HostCompute}, trace.Op{Op: trace.HostCompute}
			if it >= o.collWarmups(n) { // after the warm-up
				start.Label, stop.Label = osuStart, osuStop
			}
			if kind == trace.MPIReduce {
				rank = append(rank, barrier, start, call, stop)
			} else {
				rank = append(rank, start, call, stop, barrier)
			}
		}
		for i := range rank {
			rank[i].Rank = r
		}
		ops = append(ops, rank)
	}
	var all []trace.Op
	for _, rank := range ops {
		all = append(all, rank...)
	}
	return job.Run{Name: fmt.Sprintf("%s/%d", o.Bench, n), Ops: all, Rows: func(r *job.Replay) []report.Row {
		lat := timed(r) / float64(o.Iterations) / float64(np) * 1e6
		return []report.Row{{Workload: "osu", Case: o.Bench, Src: report.GCD(o.GCDs[0]), Dst: report.GCDs(o.GCDs), Bytes: n,
			Metric: "latency", Value: lat, Unit: "us"}}
	}}
}

// timed is the sum over ranks of each one's time between its osuStart and
// osuStop readings (every rank's time in timed calls).
func timed(r *job.Replay) float64 {
	var sum float64
	for _, res := range r.Ops {
		switch res.Op.Label {
		case osuStart:
			sum -= float64(res.Issue)
		case osuStop:
			sum += float64(res.Issue)
		}
	}
	return sum
}
