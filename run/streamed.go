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
// of ranks holds the window in progress, not every command and result at
// once; made by a program (job.Run.Program), its calls are made as the
// ranks reach them too, so it holds a few calls of each rank, not its
// trace.

// streamQuota is how many calls of each rank go in turn into the
// interleaved order: small against a rank's calls, so the window the
// ranks' threads span stays a few rounds.
const streamQuota = 64

// streamChunk is the commands the runtime loads at a time.
const streamChunk = 4096

// streams says whether run is replayed as a stream, as far as the run
// and what is asked of it say: it asks to be, and nothing asked of it
// needs every result (the timeline, the calls, AfterRun). Its calls may
// still need the whole trace (survey).
func streams(run job.Run, opt execOptions) bool {
	return run.Keep != nil && !opt.timeline && !opt.calls && AfterRun == nil
}

// survey reads p's calls once: their ranks, ascending, and whether one
// needs a lowering of the whole trace (RCCL), which a stream cannot give;
// tally, if not nil, notes the flags they name.
func survey(p trace.Program, tally *invariant.Tally) (ranks []int, whole bool) {
	seen := map[int]bool{}
	p.Each(func(_ int, piece []trace.Op) bool {
		for i := range piece {
			o := &piece[i]
			if (i == 0 || o.Rank != piece[i-1].Rank) && !seen[o.Rank] {
				seen[o.Rank] = true
				ranks = append(ranks, o.Rank)
			}
			whole = whole || o.IsRCCL()
			if tally != nil {
				tally.TraceOp(o)
			}
		}
		return true
	})
	return slices.Sorted(slices.Values(ranks)), whole
}

// replayStream replays p's calls (checked) of ranks (ascending) on n as a
// stream: interleaved by rank, streamQuota calls of each in turn, each
// result tallied in tally (if not nil) as it goes. The replay holds the
// results of the calls keep selects, in the interleaved order, and the
// events rank 0 recorded, else the lowest rank recording them.
func replayStream(n *node.Node, p trace.Program, ranks []int, keep func(*trace.Op) bool, mp mpi.Params, tally *invariant.Tally) (rp *job.Replay, stopped bool, err error) {
	src := mpi.NewCommands(func() trace.Reader { return p.Interleaved(streamQuota) }, ranks, mp, streamChunk)
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
		})
	})
	if stopped || err != nil {
		return nil, stopped, err
	}
	for e, r := range recorder {
		t, _ := n.Runtime.EventOf(r, e)
		rp.Events[e] = float64(t)
	}
	return rp, false, nil
}
