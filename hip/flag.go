package hip

import (
	"fmt"
	"maps"
	"slices"

	"github.com/akisim/akisim/components/gcd"
	"github.com/akisim/akisim/ir"
	"github.com/sarchlab/akita/v3/sim"
)

// Flags in mapped host memory: a kernel with a wait_flag (the delay kernel
// of p2pBandwidthLatencyTest) spins until the host sets its flag
// (flag_set), holding back the work queued behind it on its stream.
// Approximation: the runtime dispatches such a kernel only once the flag is
// set; its doorbell and launch costs stand for the poll that sees the flag.

// flagReady says whether the stream item it may start: it is not a kernel
// or copy waiting for a flag not set yet (a library's copy waits for its
// peer's readiness so).
func (r *Runtime) flagReady(it item) bool {
	op := r.op(it.op)
	return op.WaitFlag == "" || r.flags[op.WaitFlag]
}

// holdForFlag notes that stream s waits, at its head, for the flag its
// head item waits for; setFlag resumes it.
func (r *Runtime) holdForFlag(s *stream, it item) {
	name := r.op(it.op).WaitFlag
	if r.flagWaiters[name] == nil {
		r.flagWaiters[name] = map[int]bool{}
	}
	r.flagWaiters[name][streamKey(s.rank, s.id)] = true
}

// setFlag is the host's store to a flag: streams whose next kernel waits
// for it go on, and so do other ranks' threads polling it.
func (r *Runtime) setFlag(now sim.VTimeInSec, name string) {
	r.flags[name] = true
	for _, th := range r.polling[name] { // their polls see it from now on
		r.blocked.Add(th.idx, th.idx+1)
	}
	delete(r.polling, name)
	// the streams held for it, in stream order, as every stream was once;
	// a flag most often holds one, sorted in place without an allocation
	var few [4]int
	keys := few[:0]
	for id := range r.flagWaiters[name] {
		keys = append(keys, id)
	}
	slices.Sort(keys)
	delete(r.flagWaiters, name)
	for _, id := range keys {
		s := r.streams[id]
		if len(s.queue) > 0 && r.op(s.queue[0].op).WaitFlag == name {
			r.dispatch(now, s)
		}
	}
	r.unblock(now) // host threads polling it (flag_wait) go on
}

// gpuFlag is the flag in GPU-visible memory kernels poll by name (a
// library's head and tail counters), made at its first use.
func (r *Runtime) gpuFlag(name string) *gcd.Flag {
	f := r.gpuFlags[name]
	if f == nil {
		f = new(gcd.Flag)
		r.gpuFlags[name] = f
	}
	return f
}

// FlagSet says whether host flag name was set in the run.
func (r *Runtime) FlagSet(name string) bool { return r.flags[name] }

// GPUFlags are the GPU flags the run used, by name.
func (r *Runtime) GPUFlags() map[string]*gcd.Flag { return r.gpuFlags }

// Unfinished describes what the host threads and streams still hold once
// the run is over: a thread with calls left or blocked, a stream with
// queued or in-flight work. Empty when everything ran.
func (r *Runtime) Unfinished() []string {
	var out []string
	for _, th := range r.procs {
		if th.next < len(th.ops) || th.blocked != nil {
			out = append(out, fmt.Sprintf("rank %d: %d calls left", th.rank, len(th.ops)-th.next))
		}
	}
	for _, id := range slices.Sorted(maps.Keys(r.streams)) {
		if s := r.streams[id]; len(s.queue) > 0 || s.inflight > 0 {
			out = append(out, fmt.Sprintf("rank %d stream %d: %d queued, %d in flight", s.rank, s.id, len(s.queue), s.inflight))
		}
	}
	return out
}

// awaitsPeer says whether a copy names a buffer not allocated yet but
// waits for a flag not set yet: the flag's setter (the sender of an MPI
// message) allocates the buffer before it sets the flag, which trace.Check
// guarantees by the sender's own order.
func (r *Runtime) awaitsPeer(op *ir.Command) bool {
	_, src := r.bufs[op.Src]
	_, dst := r.bufs[op.Dst]
	return (!src || !dst) && op.WaitFlag != "" && !r.flags[op.WaitFlag]
}

// resolve decides how stream s's unresolved head copy runs, once its flag
// is set; false (with r.Err) if its buffers are still not there.
func (r *Runtime) resolve(s *stream) bool {
	i := s.queue[0].op
	it, err := r.copyItem(i, r.op(i))
	if err != nil {
		r.Err = fmt.Errorf("op %d (line %d): %v", i, r.op(i).Line, err)
		return false
	}
	s.queue[0] = it
	return true
}
