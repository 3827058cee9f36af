package run

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/akisim/akisim/internal/limit"
)

// The runs of one Execute are independent simulations, each on its own
// node and engine, so several run at once, one per core: a run's result
// does not depend on what else runs, and the results are taken in run
// order, so rows, stats and output are those of one run after another.

// WithWorkers has Execute simulate up to n runs at once (n < 1: one);
// the default is runtime.GOMAXPROCS(0), so GOMAXPROCS=1 in the
// environment runs them one after another. WithTasks and AfterRun run
// them one at a time whatever n is: Akita's tracer names its tasks with
// process-wide message IDs, and AfterRun's callers share what it sees.
func WithWorkers(n int) Option { return func(o *execOptions) { o.workers = max(n, 1) } }

// workerCount is how many runs of count Execute simulates at once.
func (o *execOptions) workerCount(count int) int {
	w := o.workers
	if w == 0 {
		w = runtime.GOMAXPROCS(0)
	}
	if AfterRun != nil {
		w = 1
	}
	return max(1, min(w, count))
}

// ahead is how many results per worker may wait to be taken.
const ahead = 32

// outcome is what do made of one index, or the panic it raised.
type outcome[T any] struct {
	v        T
	panicked bool
	p        any
}

// InOrder calls do(i) for each i in 0..n-1, workers at a time, and hands
// each result to take in index order on the calling goroutine; take
// returning false ends it. Results wait for the ones before them, at
// most ahead per worker in all: enough that the short runs beside a long
// one (p2p's copy within a GCD, 20 times its neighbours) do not hold the
// next long one back, and few enough that the waiting results (a run's
// rows and stats, what Execute keeps anyway) stay small. A panic in do is raised again here when its index is taken, as if
// do had run on this goroutine one index after another. quit, given to
// do, turns true once InOrder is ending: do may give up (its result is
// not taken). InOrder returns once every do has returned.
func InOrder[T any](n, workers int, do func(i int, quit func() bool) T, take func(i int, v T) bool) {
	InOrderBy(n, workers, nil, do, take)
}

// InOrderBy is InOrder with every worker starting, of the indexes within
// the window of results that may wait, the one of the highest cost first
// (the lowest index among equals; nil: every worker in index order), the
// longest-first rule: a sweep's longest runs start at once and its short
// ones fill the end, so the workers finish together. With one worker on
// the costliest and the others in index order, the others met the next
// costliest runs last and ran them alone (all_reduce_perf 8 B .. 1 GiB:
// about 2 s of 30). The short runs' rows then wait
// for the long ones. Which index a worker runs does not change what do
// returns, and the results are still taken in index order.
func InOrderBy[T any](n, workers int, cost func(i int) int64, do func(i int, quit func() bool) T, take func(i int, v T) bool) {
	var ending atomic.Bool
	quit := ending.Load
	if workers <= 1 {
		for i := range n {
			if !take(i, do(i, quit)) {
				return
			}
		}
		return
	}
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	ready := map[int]outcome[T]{}
	next, taken, window := 0, 0, ahead*workers
	began := map[int]bool{} // with cost: the indexes started and not yet taken
	low := 0                // with cost: no index below it is left to start
	// pick is the index worker w starts next, or -1 if none may start now
	pick := func() int {
		end := min(n, taken+window)
		if cost == nil {
			if next < end {
				next++
				return next - 1
			}
			return -1
		}
		low = max(low, taken)
		for low < end && began[low] {
			low++
		}
		best := -1
		if low < end {
			best = low
		}
		for i := low; i < end; i++ {
			if !began[i] && cost(i) > cost(best) {
				best = i
			}
		}
		if best >= 0 {
			began[best] = true
			next++
		}
		return best
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := -1
				for !ending.Load() && next < n {
					if i = pick(); i >= 0 {
						break
					}
					cond.Wait()
				}
				if i < 0 {
					mu.Unlock()
					return
				}
				mu.Unlock()
				o := caught(func() T { return do(i, quit) })
				mu.Lock()
				ready[i] = o
				cond.Broadcast()
				mu.Unlock()
			}
		}()
	}
	end := func() {
		mu.Lock()
		ending.Store(true)
		cond.Broadcast()
		mu.Unlock()
		wg.Wait()
	}
	for i := range n {
		mu.Lock()
		o, ok := ready[i]
		for ; !ok; o, ok = ready[i] {
			cond.Wait()
		}
		delete(ready, i)
		delete(began, i)
		taken = i + 1
		cond.Broadcast()
		mu.Unlock()
		if o.panicked {
			end()
			panic(o.p)
		}
		if !take(i, o.v) {
			break
		}
	}
	end()
}

// caught is f's result, or the panic it raised.
func caught[T any](f func() T) (o outcome[T]) {
	defer func() {
		if p := recover(); p != nil {
			o = outcome[T]{panicked: true, p: p}
		}
	}()
	return outcome[T]{v: f()}
}

// A run beside others takes its own memory: two large runs at once (a
// halo exchange on 64 GCDs builds GBs) could exhaust the machine where
// one after the other fit. A run that is not the first of those under way
// waits, at its next stop check, while the heap holds more than half the
// memory the process may hold: its heap and what is left now
// (limit.Binding, read again each second, so another process's memory
// counts as it comes), or AKISIM_MEMORY_BYTES. The first run always goes
// on, and the others resume once it ends or the heap shrinks. Waiting
// moves no simulated time.

// memGuard tracks the runs under way, by index.
type memGuard struct {
	mu     sync.Mutex
	active map[int]bool
	budget func(heap uint64) uint64 // heap bytes above which runs but the first wait; 0: none
	sample []metrics.Sample
}

func newMemGuard() *memGuard {
	return &memGuard{active: map[int]bool{}, budget: halfOfWhatIsLeft,
		sample: []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}}
}

// halfOfWhatIsLeft is half of what a process holding heap bytes may hold.
func halfOfWhatIsLeft(heap uint64) uint64 { return uint64(limit.Holdable(heap)) / 2 }

func (g *memGuard) start(i int) { g.mu.Lock(); g.active[i] = true; g.mu.Unlock() }
func (g *memGuard) end(i int)   { g.mu.Lock(); delete(g.active, i); g.mu.Unlock() }

// first says whether i is the lowest index under way.
func (g *memGuard) first(i int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for j := range g.active {
		if j < i {
			return false
		}
	}
	return true
}

// over says whether the heap holds more than the budget.
func (g *memGuard) over() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	metrics.Read(g.sample)
	if g.sample[0].Value.Kind() != metrics.KindUint64 {
		return false
	}
	heap := g.sample[0].Value.Uint64()
	b := g.budget(heap)
	return b > 0 && heap > b
}

// wait holds run i while it is not the first under way and the heap is
// over budget, unless stop says to end.
func (g *memGuard) wait(i int, stop func() bool) {
	for !g.first(i) && g.over() && !stop() {
		time.Sleep(10 * time.Millisecond)
	}
}
