package hip

import (
	"math/bits"
	"slices"

	"github.com/akisim/akisim/components/gcd"
	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/trace"
	"github.com/sarchlab/akita/v3/sim"
)

// Streams and events: the work queued on each stream, and the host thread
// waiting for an operation, an event, a stream or the device.

type item struct {
	op       int
	engine   *slot
	cus      *gcd.ComputeUnits // a kernel's GCD
	blit     bool              // a copy run as a blit kernel
	page     bool              // a copy from or to pageable memory (pageable.go)
	prefetch bool              // a prefetch of managed memory (managed.go)
	event    string
	wait     bool
	record   int // for a wait: the record op it waits for (-1: none)
	// unresolved is a copy queued before another rank allocated its
	// buffer (an MPI receive's IPC copy, posted before the sender got
	// there): how it runs is decided once its flag is set (flag.go).
	unresolved bool
}

type stream struct {
	id       int
	rank     int // the process that owns it
	queue    []item
	inflight int
	live     []int             // the ops in flight (kernels, copies, markers): not final yet
	last     any               // the SDMA queue or CU array running the stream's work
	dirty    *gcd.ComputeUnits // CUs whose kernels ran since the stream's last release
	acquire  bool              // the next kernel starts with a system-scope acquire (grain.go)
	library  bool              // a library's own queue (NIC commands, MPI's IPC copies): no HIP stream, hipDeviceSynchronize does not wait for it
	waits    int               // stream_wait items in queue (waiting lists it while > 0)
	owner    *thread           // the rank's host thread, which alone queues work on it
}

type blocker struct {
	kind       string // "op", "event", "stream", "device", "flag", "gpuflag"
	op         int
	event      string // the event, or the flag of a flag_wait
	count      int    // a GPU flag's count waited for
	stream     int
	s          *stream // the stream waited for, once looked up (a "stream" wait)
	unregister string  // host_unregister: the buffer pageable again once the device is idle
}

// unblock resumes every host thread whose wait is over, in rank order.
// It looks only at the threads that wait: looking at every rank's thread
// on every completion cost a 64-rank halo exchange a twentieth of its
// time. Resuming a thread only books its next step, so none starts to
// wait while this runs.
func (r *Runtime) unblock(now sim.VTimeInSec) {
	for w, word := range r.blocked {
		for word != 0 {
			i := w*64 + bits.TrailingZeros64(word)
			word &= word - 1
			r.unblockThread(now, r.procs[i])
		}
	}
}

// unblockThread resumes host thread th if what it waits for is done.
func (r *Runtime) unblockThread(now sim.VTimeInSec, th *thread) {
	b := th.blocked
	if b == nil {
		return
	}
	done := false
	switch b.kind {
	case "op":
		done = r.res(b.op).Done
	case "event":
		done = r.recordDone(b.op)
	case "flag":
		done = r.flags[b.event]
	case "gpuflag":
		t, ok := r.gpuFlag(b.event).ReadyAt(b.count)
		done = ok && t <= now
	case "stream", "device":
		done = r.synced(th)
	}
	if !done {
		return
	}
	th.blocked = nil
	r.blocked.Drop(th.idx, th.idx+1)
	delete(r.registered, b.unregister)
	i := th.cur
	t := now + ns(r.cost.SyncCallNs)
	if b.kind == "flag" || b.kind == "gpuflag" || r.op(i).Op == trace.HostAccess {
		t = now // a thread polling host memory, or doing its own loads and stores: no HIP call returns
	}
	if b.kind != "op" {
		r.res(i).Start, r.res(i).End, r.res(i).Done = r.res(i).Issue, t, true
	}
	r.resume(th, t)
}

// synced says whether thread th's stream or device sync is over: its
// stream, or every stream of its own, idle.
func (r *Runtime) synced(th *thread) bool {
	b := th.blocked
	if b.kind == "stream" {
		s := b.s
		if s == nil { // found once: a stream, once made, stays (the look-up was a twentieth of a 64-rank exchange)
			s = r.streams[streamKey(th.rank, b.stream)]
			b.s = s
		}
		return s == nil || (len(s.queue) == 0 && s.inflight == 0)
	}
	for _, s := range th.streams { // the rank's own streams: a process syncs its devices
		if !s.library && (len(s.queue) > 0 || s.inflight > 0) {
			return false // one busy stream is enough: a rank has many
		}
	}
	return true
}

// streamWent notes that stream s took an item off its queue or ended one:
// its owner, parked in a sync, is one for unblock to look at once the
// sync is over. Only the owner queues work on its streams, so the sync
// stays over until the owner goes on.
func (r *Runtime) streamWent(s *stream) {
	if th := s.owner; th != nil && th.parked && r.synced(th) {
		th.parked = false
		r.blocked.Add(th.idx, th.idx+1)
	}
}

// streamKey keys rank's stream id: each process has its own streams,
// null stream (0) included; keys order by rank, then id.
func streamKey(rank, id int) int { return rank<<32 | id }

// stream is the stream op is queued on, made at first use.
func (r *Runtime) stream(op *ir.Command) *stream {
	key := streamKey(op.Rank, op.Stream)
	s, ok := r.streams[key]
	if !ok {
		s = &stream{id: op.Stream, rank: op.Rank, library: op.NIC != nil || (op.IsCopy() && op.WaitFlag != "")}
		r.streams[key] = s
		if th := r.threadOf[op.Rank]; th != nil {
			th.streams = append(th.streams, s)
			s.owner = th
		}
		k, _ := slices.BinarySearch(r.streamOrder, key) // keep streamOrder sorted
		r.streamOrder = slices.Insert(r.streamOrder, k, key)
	}
	return s
}

// recordOf is the record op a wait on event issued now waits for: the
// event's latest record queued so far (hipStreamWaitEvent and
// hipEventSynchronize capture it), or -1 if it was never recorded.
func (r *Runtime) recordOf(rank int, event string) int {
	if i, ok := r.lastRecord[eventKey{rank, event}]; ok {
		return i
	}
	return -1
}

// recordDone says whether a record op completed (-1: nothing to wait for).
func (r *Runtime) recordDone(op int) bool { return op < 0 || r.recorded[op] }

// eventRecorded lets go the streams held at a wait, in id order: only a
// stream with a stream_wait queued can be (r.waiting), so a record costs
// the waiting streams, not every stream of every rank. The ids are taken
// before the first dispatch: a dispatch may record an event in turn and
// take streams off the list; none joins it (only a host call queues a
// wait).
func (r *Runtime) eventRecorded(now sim.VTimeInSec) {
	if len(r.waiting) == 0 {
		return
	}
	for _, id := range slices.Clone(r.waiting) {
		s := r.streams[id]
		if len(s.queue) > 0 && s.queue[0].wait && s.inflight == 0 {
			r.dispatch(now, s)
		}
	}
}

// queueWait queues a stream_wait item on s and lists s as waiting.
func (r *Runtime) queueWait(s *stream, it item) {
	s.queue = append(s.queue, it)
	if s.waits++; s.waits == 1 {
		key := streamKey(s.rank, s.id)
		k, _ := slices.BinarySearch(r.waiting, key)
		r.waiting = slices.Insert(r.waiting, k, key)
	}
}

// waitDone notes that s's head wait item left its queue: with no other
// queued, s is no longer waiting.
func (r *Runtime) waitDone(s *stream) {
	if s.waits--; s.waits == 0 {
		key := streamKey(s.rank, s.id)
		if k, ok := slices.BinarySearch(r.waiting, key); ok {
			r.waiting = slices.Delete(r.waiting, k, k+1)
		}
	}
}
