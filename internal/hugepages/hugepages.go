// Package hugepages backs the akisim command's heap with transparent huge
// pages. A large simulation (hundreds of GCDs) reads gigabytes of state
// in no order the host can predict: with 4 KiB pages nearly every such
// read also misses the TLB. Linux's usual THP mode ("madvise") gives huge
// pages only to memory a program asks them for, and Go's runtime asks for
// none. So a goroutine asks for it: every second it marks the process's
// large anonymous mappings (Go's heap arenas) MADV_HUGEPAGE, so new pages
// come huge, and collapses their dense 2 MiB ranges into huge pages
// (MADV_COLLAPSE, Linux 6.1 and later; earlier kernels leave it to
// khugepaged). The results do not depend on it: it moves no simulated
// time. AKISIM_HUGEPAGES=0 turns it off.
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
	marked   map[uint64]uint64 // mapping start -> end marked MADV_HUGEPAGE
	huge     map[uint64]bool   // collapsed huge pages, by address
	collapse syscall.Errno     // the last collapse's error number (0: none)
}

func newAdvisor() *advisor { return &advisor{marked: map[uint64]uint64{}, huge: map[uint64]bool{}} }

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

func (a *advisor) pass() {
	for _, r := range anonymous() {
		if r.hi-r.lo < minBytes {
			continue
		}
		if a.marked[r.lo] < r.hi {
			markHuge(r.lo, r.hi)
			a.marked[r.lo] = r.hi
		}
		for at := (r.lo + hugeBytes - 1) &^ (hugeBytes - 1); at+hugeBytes <= r.hi; at += hugeBytes {
			if a.huge[at] || resident(at, hugeBytes)*8 < denseEighths*(hugeBytes/smallBytes) {
				continue
			}
			if a.collapse = collapse(at, hugeBytes); a.collapse == 0 {
				a.huge[at] = true
			}
		}
	}
}
