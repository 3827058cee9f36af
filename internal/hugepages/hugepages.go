// Package hugepages backs the akisim command's heap with transparent huge
// pages. A large simulation (hundreds of GCDs) reads gigabytes of state
// in no order the host can predict: with 4 KiB pages nearly every such
// read also misses the TLB. Linux's usual THP mode ("madvise") gives huge
// pages only to memory a program asks them for, and Go's runtime asks for
// none. So a goroutine asks for it: every second it marks the process's
// large anonymous mappings (Go's heap arenas) MADV_HUGEPAGE, so new pages
// come huge, and collapses what grew since into huge pages
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
			a := advisor{done: map[uint64]uint64{}}
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

// advisor remembers how far each mapping (by its start) was collapsed, so
// a pass collapses only what grew since.
type advisor struct {
	done     map[uint64]uint64
	collapse syscall.Errno // the last collapse's error number (0: none)
}

// minBytes is the least mapping worth advising: a huge page's worth twice
// over, so at least one aligned huge page fits.
const minBytes = 4 << 20

func (a *advisor) pass() {
	for _, r := range anonymous() {
		if r.hi-r.lo < minBytes || a.done[r.lo] >= r.hi {
			continue
		}
		from := max(r.lo, a.done[r.lo])
		a.collapse = advise(r.lo, r.hi, from)
		a.done[r.lo] = r.hi
	}
}
