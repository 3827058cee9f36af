package hip

import (
	"fmt"
	"maps"
	"slices"

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
	// aside holds, by index, ops a thread or stream still held when they
	// were moved out of their chunks (setAside): each retires once final,
	// after later ops
	aside    map[int]*asideOp
	anyOrder bool // ops may be set aside
	pass     int  // retirement passes so far: an op set aside held in this one has it as held
}

// asideOp is an operation kept past its chunk, and its result.
type asideOp struct {
	cmd  ir.Command
	res  OpResult
	held int // the last retirement pass that found it held
}

// windowChunks is how many of the newest chunks held ops may keep: older
// ones go, those ops set aside. An exchange's copies in flight across a
// step's kernels kept a fifth of the run's commands.
const windowChunks = 2

// op is operation i, which must be loaded and not retired.
func (r *Runtime) op(i int) *ir.Command {
	if c := r.store.chunks[i/r.store.chunkLen]; c != nil {
		return &c.ops[i%r.store.chunkLen]
	}
	return &r.store.aside[i].cmd
}

// res is operation i's result.
func (r *Runtime) res(i int) *OpResult {
	if c := r.store.chunks[i/r.store.chunkLen]; c != nil {
		return &c.res[i%r.store.chunkLen]
	}
	return &r.store.aside[i].res
}

// LoadStream sets a streamed trace to replay, starting at time zero with a
// host thread for each of ranks (every rank the trace names). retire gets
// each operation's result once it is final, in order unless anyOrder
// (then ops a stream holds long are set aside, and come after later
// ones); its error stops the run.
func (r *Runtime) LoadStream(src OpSource, ranks []int, retire func(*OpResult) error, anyOrder bool) {
	r.reset()
	r.store = opStore{src: src, retire: retire, anyOrder: anyOrder}
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
// made that no thread waits for and no stream holds or runs. Ops held so
// in chunks older than the newest windowChunks are set aside and handed
// on once final, after later ones. Then it drops chunks whose operations
// all went.
func (r *Runtime) retireFinal() {
	st := &r.store
	if st.retire == nil {
		return
	}
	bound := 0 // ops held below it are set aside
	if st.anyOrder {
		bound = st.loaded - windowChunks*st.chunkLen
	}
	low := r.heldLow(bound)
	for ; st.retired < low; st.retired++ {
		if st.aside[st.retired] != nil {
			continue // handed on once final (below)
		}
		if err := st.retire(r.res(st.retired)); err != nil {
			r.Err = err
			return
		}
	}
	for ; st.chunkLen > 0 && (st.freed+1)*st.chunkLen <= st.retired; st.freed++ {
		st.chunks[st.freed] = nil
	}
	r.retireAside()
}

// heldLow is the first op a thread has yet to call or is blocked in, or
// a stream holds (the ops loaded if none); ops so held below bound are
// set aside first, and not counted. Every op set aside that it finds held
// is marked so for this pass (retireAside).
func (r *Runtime) heldLow(bound int) int {
	st := &r.store
	st.pass++
	low := st.loaded
	hold := func(i int) {
		a := st.aside[i]
		if a == nil && i < bound {
			a = r.setAside(i)
		}
		if a != nil {
			a.held = st.pass
			return
		}
		low = min(low, i)
	}
	for _, th := range r.procs {
		for _, i := range th.ops[th.next:] {
			if hold(i); i >= bound {
				break // its later calls come later
			}
		}
		if th.blocked != nil {
			hold(th.cur)
		}
	}
	for _, s := range r.streams {
		for k := range s.queue {
			if s.queue[k].op >= low && s.queue[k].op >= bound {
				break // a stream's items are in call order
			}
			hold(s.queue[k].op)
		}
		for _, i := range s.live {
			hold(i)
		}
	}
	return low
}

// setAside moves op i and its result out of their chunk.
func (r *Runtime) setAside(i int) *asideOp {
	st := &r.store
	if st.aside == nil {
		st.aside = map[int]*asideOp{}
	}
	a := &asideOp{cmd: *r.op(i), res: *r.res(i)}
	a.res.Op = &a.cmd
	st.aside[i] = a
	return a
}

// retireAside hands on, in index order, the ops set aside that this
// pass's heldLow found no thread or stream holding.
func (r *Runtime) retireAside() {
	st := &r.store
	var done []int
	for i, a := range st.aside {
		if a.held != st.pass && i < st.retired {
			done = append(done, i)
		}
	}
	slices.Sort(done)
	for _, i := range done {
		if err := st.retire(&st.aside[i].res); err != nil {
			r.Err = err
			return
		}
		delete(st.aside, i)
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
	if len(st.aside) > 0 { // held by a stream to the end: the first never completed
		st.retired = slices.Min(slices.Collect(maps.Keys(st.aside)))
	}
	if st.retired < st.loaded || !st.srcDone || len(st.aside) > 0 {
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
