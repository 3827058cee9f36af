package hip

import (
	"fmt"

	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"
)

// A long trace is streamed: the runtime pulls its operations a chunk at a
// time when a host thread runs out of calls, hands each operation's result
// on once it is final, and drops chunks whose operations are all final, so
// a run holds only the window of operations in progress.

// OpSource hands out a trace's operations in order, a chunk at a time:
// every chunk but the last has the same length; nil, nil at the end.
type OpSource interface {
	Next() ([]ir.Command, error)
}

// opChunk is a chunk of loaded operations and their results.
type opChunk struct {
	ops []ir.Command
	res []OpResult
}

// opStore is the operations loaded, by index.
type opStore struct {
	chunks   []*opChunk // nil once retired
	chunkLen int        // ops per chunk (the last may have fewer)
	loaded   int        // ops loaded so far
	src      OpSource   // nil: everything was loaded at once (Load)
	srcDone  bool       // the source has no more
	retired  int        // ops handed to retire so far, in index order
	freed    int        // chunks dropped so far
	lastLen  int        // ops in the last chunk loaded
	retire   func(*OpResult) error
}

// op is operation i, which must be loaded and not retired.
func (r *Runtime) op(i int) *ir.Command {
	return &r.store.chunks[i/r.store.chunkLen].ops[i%r.store.chunkLen]
}

// res is operation i's result.
func (r *Runtime) res(i int) *OpResult {
	return &r.store.chunks[i/r.store.chunkLen].res[i%r.store.chunkLen]
}

// LoadStream sets a streamed trace to replay, starting at time zero with a
// host thread for each of ranks (every rank the trace names). retire gets
// each operation's result, in order, once it is final; its error stops
// the run.
func (r *Runtime) LoadStream(src OpSource, ranks []int, retire func(*OpResult) error) {
	r.reset()
	r.store = opStore{src: src, retire: retire}
	r.startThreads(ranks)
}

// pull loads the source's next chunk; false at its end or on an error.
func (r *Runtime) pull() bool {
	st := &r.store
	if st.srcDone || r.Err != nil {
		return false
	}
	if r.retireFinal(); r.Err != nil {
		return false
	}
	ops, err := st.src.Next()
	switch {
	case err != nil:
		r.Err = err
	case len(ops) == 0:
		st.srcDone = true
		return false
	case st.chunkLen == 0:
		st.chunkLen = len(ops)
	case len(ops) > st.chunkLen || st.lastLen < st.chunkLen:
		r.Err = fmt.Errorf("op source: only the last chunk may be shorter than %d ops", st.chunkLen)
	}
	if r.Err != nil {
		st.srcDone = true
		return false
	}
	c := &opChunk{ops: ops, res: make([]OpResult, len(ops))}
	for k := range ops {
		i := st.loaded + k
		c.res[k] = OpResult{Index: i, Op: &ops[k]}
		th := r.threadOf[ops[k].Rank]
		if th == nil {
			r.Err = fmt.Errorf("op %d (line %d): rank %d was not among the ranks the run started with", i, ops[k].Line, ops[k].Rank)
			st.srcDone = true
			return false
		}
		th.ops = append(th.ops, i)
	}
	st.chunks = append(st.chunks, c)
	st.loaded += len(ops)
	st.lastLen = len(ops)
	for _, th := range r.procs { // calls made are not needed again
		if th.next > 0 && 2*th.next >= len(th.ops) {
			th.ops = append(th.ops[:0], th.ops[th.next:]...)
			th.next = 0
		}
	}
	return true
}

// retireFinal hands on, in order, the results that are final: of calls
// made that no thread waits for and no stream holds or runs. Then it
// drops chunks whose operations all went.
func (r *Runtime) retireFinal() {
	st := &r.store
	if st.retire == nil {
		return
	}
	low := st.loaded
	for _, th := range r.procs {
		if th.next < len(th.ops) {
			low = min(low, th.ops[th.next])
		}
		if th.blocked != nil {
			low = min(low, th.cur)
		}
	}
	for _, s := range r.streams {
		if len(s.queue) > 0 {
			low = min(low, s.queue[0].op) // a stream's items are in call order
		}
		for _, i := range s.live {
			low = min(low, i)
		}
	}
	for ; st.retired < low; st.retired++ {
		if err := st.retire(r.res(st.retired)); err != nil {
			r.Err = err
			return
		}
	}
	for ; st.chunkLen > 0 && (st.freed+1)*st.chunkLen <= st.retired; st.freed++ {
		st.chunks[st.freed] = nil
	}
}

// FinishStream hands on the results left once a streamed run has ended;
// the first operation that never completed, if any, is an error.
func (r *Runtime) FinishStream() error {
	if r.Err != nil {
		return r.Err
	}
	st := &r.store
	if len(r.procs) == 0 && !st.srcDone {
		r.pull() // no rank to read the source: an empty trace ends here, a rank's op is an error
	}
	r.retireFinal()
	if r.Err != nil {
		return r.Err
	}
	if st.retired < st.loaded || !st.srcDone {
		if st.retired == st.loaded { // threads stopped before the trace's end
			return fmt.Errorf("the host threads stopped after op %d, before the trace's end", st.loaded)
		}
		op := r.op(st.retired)
		if r.res(st.retired).Done { // its call returned, its stream's work never ended
			if err := r.Stalled(); err != nil {
				return err
			}
		}
		if len(r.procs) > 1 {
			return &trace.Error{Line: op.Line, Field: "op",
				Msg: "this call never returns: what it waits for never comes (host threads waiting for each other)"}
		}
		return fmt.Errorf("op %d (line %d, %s) never completed", st.retired, op.Line, op.Op)
	}
	return nil
}
