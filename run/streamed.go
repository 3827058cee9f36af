package run

import (
	"slices"

	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/invariant"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/mpi"
	"github.com/akisim/akisim/node"
	"github.com/akisim/akisim/trace"
)

// A run that says which results it reads (job.Run.Keep) is replayed as a
// stream: its ops interleaved by rank, expanded a chunk at a time as the
// host threads reach them, and dropped once final, so a run of thousands
// of ranks holds its trace and the window in progress, not every command
// and result at once.

// streamQuota is how many calls of each rank go in turn into the
// interleaved order: small against a rank's calls, so the window the
// ranks' threads span stays a few rounds. A rank's next calls come a
// round later, and a round's calls wait set aside until made (hip): at
// 512 ranks, 64 held 117,000 commands, 71 MB.
const streamQuota = 16

// streamChunk is the commands the runtime loads at a time.
const streamChunk = 4096

// streams says whether run is replayed as a stream: it asks to be, and
// nothing asked of it needs every result (the timeline, the calls,
// AfterRun) or a lowering of the whole trace (rccl: its ops hold RCCL
// calls, asked last).
func streams(run job.Run, opt execOptions, rccl func() bool) bool {
	return run.Keep != nil && !opt.timeline && !opt.calls && AfterRun == nil && !rccl()
}

// interleave orders ops in rounds of up to quota calls of each rank,
// ranks in order of first call, each rank's calls in their order: what the
// ranks call at about the same time comes together. It returns the ranks,
// ascending, and the order (order[k]: the index in ops of the k-th call);
// the ops stay where they are, so the trace is copied once, in order, as
// its chunks are made (mpi.NewCommands).
func interleave(ops []trace.Op, quota int) (ranks []int, order []int32) {
	at := map[int][]int32{} // rank -> its calls' indices
	for i := range ops {
		r := ops[i].Rank
		if at[r] == nil {
			ranks = append(ranks, r)
		}
		at[r] = append(at[r], int32(i))
	}
	order = make([]int32, 0, len(ops))
	for len(order) < len(ops) {
		for _, r := range ranks {
			l := at[r]
			n := min(quota, len(l))
			order, at[r] = append(order, l[:n]...), l[n:]
		}
	}
	return slices.Sorted(slices.Values(ranks)), order
}

// replayStream replays ops (checked) on n as a stream, each result
// tallied in tally (if not nil) as it goes; the replay holds the results
// of the ops keep selects, in the interleaved order, and the events rank
// 0 recorded, else the lowest rank recording them.
func replayStream(n *node.Node, ops []trace.Op, keep func(*trace.Op) bool, p mpi.Params, tally *invariant.Tally) (rp *job.Replay, stopped bool, err error) {
	ranks, order := interleave(ops, streamQuota)
	src, err := mpi.NewCommands(ops, order, p, streamChunk)
	if err != nil {
		return nil, false, err
	}
	ops = nil // the source keeps what it needs of them
	rp = &job.Replay{Events: map[string]float64{}}
	recorder := map[string]int{} // event -> the rank whose record is reported
	stopped, err = runStoppable(func() error {
		return n.RunStream(src, ranks, func(o *hip.OpResult) error {
			if tally != nil {
				tally.Add(o)
			}
			if c := &o.Op.Call; c.Op == trace.EventRecord {
				if r, seen := recorder[c.Event]; !seen || c.Rank < r {
					recorder[c.Event] = c.Rank
				}
			}
			if keep(&o.Op.Call) {
				r, call := result(o), o.Op.Call // a copy: the result must not hold its chunk
				r.Op = &call
				rp.Ops = append(rp.Ops, r)
			}
			return nil
		}, true)
	})
	if stopped || err != nil {
		return nil, stopped, err
	}
	slices.SortFunc(rp.Ops, func(a, b job.OpResult) int { return a.Index - b.Index }) // ops set aside came later
	for e, r := range recorder {
		t, _ := n.Runtime.EventOf(r, e)
		rp.Events[e] = float64(t)
	}
	return rp, false, nil
}
