// Package hugepages backs the akisim command's heap with transparent huge
// pages. A large simulation (hundreds of GCDs) reads gigabytes of state
// in no order the host can predict: with 4 KiB pages nearly every such
// read also misses the TLB. Linux's usual THP mode ("madvise") gives huge
// pages only to memory a program asks them for, and Go's runtime asks for
// none. So a goroutine asks for it: every second it marks the process's
// large anonymous mappings (Go's heap arenas) MADV_HUGEPAGE, so new pages
// come huge, and collapses their dense 2 MiB ranges into huge pages
// (MADV_COLLAPSE, Linux 6.1 and later; earlier kernels leave it to
// khugepaged), within a budget of the time the run has taken. The results
// do not depend on it: it moves no simulated time. AKISIM_HUGEPAGES=0
// turns it off.
package hugepages

import (
	"os"
	"sync"
	"syscall"
	"time"
)

// Every is how often the mappings are looked at again.
const Every = time.Second

// Start begins advising; a second call, or AKISIM_HUGEPAGES=0, does
// nothing.
func Start() {
	once.Do(func() {
		if os.Getenv("AKISIM_HUGEPAGES") == "0" || !supported {
			return
		}
		go func() {
			a := newAdvisor()
			for {
				a.pass()
				time.Sleep(Every)
			}
		}()
	})
}

var once sync.Once

// region is a mapping's address range.
type region struct{ lo, hi uint64 }

// advisor remembers which mappings it marked and which huge pages it
// collapsed, so a pass looks only at what changed.
type advisor struct {
	marked   map[uint64]uint64                // mapping start -> end marked MADV_HUGEPAGE
	huge     map[uint64]bool                  // collapsed huge pages, by address
	now      func() time.Duration             // time since the advisor began
	collapse func(at, n uint64) syscall.Errno // makes a range huge pages (collapseRange)
	spent    time.Duration                    // in collapses so far
	errno    syscall.Errno                    // the last collapse's error number (0: none)
}

func newAdvisor() *advisor {
	start := time.Now()
	return &advisor{marked: map[uint64]uint64{}, huge: map[uint64]bool{},
		now: func() time.Duration { return time.Since(start) }, collapse: collapseRange}
}

// Share is the most of the run's time collapses may take: a pass stops
// collapsing once they took 1/Share of it. A collapse copies a range that
// came in small pages (in a virtual machine it also faults in a fresh
// 2 MiB of the host's memory): about 8 ms each on the test machine. A
// 64-GCD exchange grows a 4 GB heap before the marks, and collapsing all
// of it took 17 of the run's 55 CPU-s; pages that fault in after a mark
// come huge without one.
const Share = 16

// minBytes is the least mapping worth advising: a huge page's worth twice
// over, so at least one aligned huge page fits.
const minBytes = 4 << 20

// hugeBytes and smallBytes are an x86-64 huge and small page.
const hugeBytes, smallBytes = 2 << 20, 4096

// denseEighths: a huge page's worth is collapsed only when seven eighths
// of its small pages are resident. A collapse fills the rest, so sparse
// ranges (Go's heap after its scavenger released pages) would take back
// the memory released: about half again on the comm-aggr case.
const denseEighths = 7

// pass marks every large mapping not yet marked, and collapses dense
// ranges while the budget lasts: over it, the pass still marks the rest,
// and looks at no range's pages.
func (a *advisor) pass() {
	collapsing := true
	for _, r := range anonymous() {
		if r.hi-r.lo < minBytes {
			continue
		}
		if a.marked[r.lo] < r.hi {
			markHuge(r.lo, r.hi)
			a.marked[r.lo] = r.hi
		}
		for at := (r.lo + hugeBytes - 1) &^ (hugeBytes - 1); collapsing && at+hugeBytes <= r.hi; at += hugeBytes {
			if a.huge[at] {
				continue
			}
			t := a.now()
			if collapsing = a.spent*Share <= t; !collapsing || resident(at, hugeBytes)*8 < denseEighths*(hugeBytes/smallBytes) {
				continue
			}
			a.errno = a.collapse(at, hugeBytes)
			if a.spent += a.now() - t; a.errno == 0 {
				a.huge[at] = true
			}
		}
	}
}
