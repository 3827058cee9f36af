// Package benchmeter measures what a simulator benchmark costs: wall
// time, peak heap, the process's peak RSS, events per second and
// simulated seconds per wall second, as b.ReportMetric columns.
package benchmeter

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/akisim/akisim/internal/gctune"
	"github.com/akisim/akisim/internal/hugepages"
)

// Meter samples the heap in use while a benchmark's iteration runs.
type Meter struct {
	start time.Time
	cpu   time.Duration // the process's CPU time at the start
	peak  atomic.Uint64
	done  chan struct{}
	wg    sync.WaitGroup
}

// sampleEvery is how often the heap is read: ReadMemStats stops the
// world, so not much more often.
const sampleEvery = 10 * time.Millisecond

// Start tunes the collector and asks for huge pages as the akisim command
// does (gctune, hugepages), collects garbage (so the peak is this
// iteration's) and starts sampling HeapInuse.
func Start() *Meter {
	gctune.Start()
	hugepages.Start()
	runtime.GC()
	m := &Meter{done: make(chan struct{})}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > m.peak.Load() {
				m.peak.Store(ms.HeapInuse)
			}
			select {
			case <-m.done:
				return
			case <-time.After(sampleEvery):
			}
		}
	}()
	m.start, m.cpu = time.Now(), cpuTime()
	return m
}

// Stop ends the iteration and reports its wall time (wall-s), the CPU
// time the process spent in it (cpu-s, user and system, all goroutines:
// on a shared machine the steadier figure), the peak
// of HeapInuse sampled every 10 ms (peak-heap-MB), the process's peak
// resident set since it started (maxrss-MB, getrusage: over every
// benchmark the process ran before, so run one benchmark per process),
// and, when events or simSeconds are known (> 0), events per wall second
// (Mevents/s) and simulated seconds per wall second (sim-s/wall-s).
func (m *Meter) Stop(b *testing.B, events uint64, simSeconds float64) {
	wall := time.Since(m.start).Seconds()
	close(m.done)
	m.wg.Wait()
	b.ReportMetric(wall, "wall-s")
	if cpu := cpuTime(); cpu > 0 {
		b.ReportMetric((cpu - m.cpu).Seconds(), "cpu-s")
	}
	b.ReportMetric(float64(m.peak.Load())/(1<<20), "peak-heap-MB")
	if rss := maxRSS(); rss > 0 {
		b.ReportMetric(float64(rss)/(1<<20), "maxrss-MB")
	}
	if events > 0 {
		b.ReportMetric(float64(events)/wall/1e6, "Mevents/s")
	}
	if simSeconds > 0 {
		b.ReportMetric(simSeconds/wall, "sim-s/wall-s")
	}
}
