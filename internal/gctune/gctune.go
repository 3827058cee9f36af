// Package gctune sets how far Go's heap grows between garbage collections
// in the akisim command. A simulation allocates its packets and events
// fast and keeps little of them live (tens of MB on a node), so at Go's
// default (GOGC=100) the collector runs every few tens of MB of allocation
// and costs a tenth of the run: its marking competes for the machine's
// cores and its write barriers and preemptions slow the simulation. A
// larger growth while the live heap is small, capped in bytes as it
// grows, costs memory only where there is little of it. The results do
// not depend on it: the collector moves no simulated time.
package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"github.com/akisim/akisim/internal/limit"
)

const (
	// Small is the growth (GOGC percent) while the live heap is small.
	Small = 400
	// Headroom is the most garbage, in bytes, the heap may gather between
	// collections at Small percent; a larger live heap gets a smaller
	// percent, down to Go's default of 100.
	Headroom = 256 << 20
	// LargeHeadroom is the most garbage a heap of gigabytes gathers: past
	// it, the percent falls below 100, to Floor. At 100 percent a run of
	// thousands of GCDs would take twice its live heap; the collector's
	// marking runs beside the simulation on a second core (512 GCDs'
	// MHD step at GOGC 35: 28% less memory, 2% more CPU time).
	LargeHeadroom = 2 << 30
	// Floor is the smallest percent.
	Floor = 25
)

// Percent is the GOGC percent for a live heap of live bytes: Small while
// Small percent of it is at most Headroom, then Headroom bytes of it, but
// not below 100 while 100 percent is at most LargeHeadroom, then
// LargeHeadroom bytes of it, never below Floor.
func Percent(live uint64) int {
	p := Small
	if live*Small/100 > Headroom {
		p = int(Headroom * 100 / live)
	}
	if p = max(p, 100); live > LargeHeadroom {
		p = max(int(LargeHeadroom*100/live), Floor)
	}
	return p
}

// Start sets the percent for the heap at hand and, after every
// collection, for the heap it left live; a second call does nothing. GOGC
// in the environment wins: then Start does nothing.
func Start() { once.Do(start) }

var once sync.Once

func start() {
	// Near the memory a run may take (limit.Available: free memory,
	// ulimit -v, a cgroup's limit) the collector works harder rather than
	// let the heap's garbage run the process out of it.
	memoryLimit(0)
	if _, ok := os.LookupEnv("GOGC"); ok {
		return
	}
	t := &tuner{sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/total:bytes"}}}
	t.set(t.live())
	t.arm()
}

type tuner struct {
	percent int
	sample  []metrics.Sample
}

// sentinel is garbage at once: its cleanup runs after the next collection.
// It holds a pointer and is larger than the tiny allocator's 16 bytes,
// whose blocks may keep an object alive past its collection.
type sentinel struct {
	_ *int
	_ [3]uint64
}

func (t *tuner) arm() {
	runtime.AddCleanup(new(sentinel), func(t *tuner) {
		t.set(t.live())
		if held := t.sample[1].Value; held.Kind() == metrics.KindUint64 {
			memoryLimit(held.Uint64())
		}
		t.arm()
	}, t)
}

// memoryLimit sets Go's soft memory limit an eighth below what the run
// may hold (limit.Holdable: held bytes mapped by Go and what is left now,
// read again as other processes come and go). GOMEMLIMIT in the
// environment wins.
func memoryLimit(held uint64) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	if a := limit.Holdable(held); a > 0 {
		debug.SetMemoryLimit(a - a/8)
	}
}

func (t *tuner) live() uint64 {
	metrics.Read(t.sample)
	if t.sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return t.sample[0].Value.Uint64()
}

// set changes the percent when it moved by more than a tenth.
func (t *tuner) set(live uint64) {
	p := Percent(live)
	if d := p - t.percent; d*10 > t.percent || -d*10 > t.percent {
		t.percent = p
		debug.SetGCPercent(p)
	}
}
