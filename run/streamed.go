package run

import (
	"slices"

	"github.com/akisim/akisim/config"
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

// calls are run's calls, checked (trace.Check): as a program to replay
// as a stream, with their ranks (ascending), or whole (ops). tally, if
// not nil, notes the flags they name.
func calls(c *config.Node, run job.Run, opt execOptions, tally *invariant.Tally) (ops []trace.Op, prog *trace.Program, ranks []int, err error) {
	s := surveyor{tally: tally, seen: map[int]bool{}}
	if streams(run, opt) && run.Program != nil {
		prog = run.Program
		err = trace.CheckProgram(*prog, job.Limits(c), run.Name, s.see)
	} else {
		ops = run.Operations()
		if run.Build != nil || run.Program != nil {
			err = trace.Check(ops, job.Limits(c), run.Name)
		}
		switch {
		case err == nil && streams(run, opt):
			p := trace.ProgramOf(ops)
			prog, ops = &p, nil
			p.Each(func(_ int, piece []trace.Op) bool {
				for i := range piece {
					s.see(&piece[i])
				}
				return true
			})
		case tally != nil:
			tally.Trace(ops) // the flags the trace names, taken before it is let go
		}
	}
	switch {
	case err != nil:
		return nil, nil, nil, err
	case prog != nil && s.whole:
		return prog.Ops(), nil, nil, nil
	case prog != nil:
		return nil, prog, slices.Sorted(slices.Values(s.ranks)), nil
	}
	return ops, nil, nil, nil
}

// surveyor notes what replaying calls as a stream needs to know of them,
// call by call: their ranks, whether one needs a lowering of the whole
// trace (RCCL), which a stream cannot give, and the flags they name
// (tally, if not nil).
type surveyor struct {
	seen  map[int]bool
	ranks []int
	last  int // the last call's rank: a rank's calls come together
	whole bool
	tally *invariant.Tally
}

func (s *surveyor) see(o *trace.Op) {
	if (len(s.ranks) == 0 || o.Rank != s.last) && !s.seen[o.Rank] {
		s.seen[o.Rank] = true
		s.ranks = append(s.ranks, o.Rank)
	}
	s.last = o.Rank
	s.whole = s.whole || o.IsRCCL()
	if s.tally != nil {
		s.tally.TraceOp(o)
	}
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
