//go:build linux

package hugepages

import (
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"time"

	"github.com/akisim/akisim/internal/limit"
	"golang.org/x/sys/unix"
)

// hugeBytes is x86-64's and arm64's (4 KiB granule) huge page: a mapping
// smaller than one cannot hold one.
const hugeBytes = 2 << 20

// pollEvery is how often the runtime's mapped memory is read (a few
// microseconds); the maps are read and advised only when it grew. The heap
// grows a few MB at a time, so little of it is touched before its advice.
const pollEvery = time.Millisecond

var once sync.Once

// Start asks for huge pages on the anonymous mappings now and as the
// runtime maps more, if the kernel's mode is "madvise" and GODEBUG does not
// set disablethp=1 (Go's own switch against huge pages). In mode "always"
// the kernel gives them anyway, and "never" is the administrator's choice.
// A second call does nothing.
func Start() {
	once.Do(func() {
		if !onRequest() {
			return
		}
		premap()
		advise()
		go watch()
	})
}

// onRequest says whether huge pages are to be asked for: the kernel gives
// them on request (mode "madvise") and GODEBUG does not set disablethp=1.
func onRequest() bool {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && mode(string(b)) == "madvise" && !strings.Contains(os.Getenv("GODEBUG"), "disablethp=1")
}

// premapMost is the most address space the heap maps at the start,
// untouched: the runtime maps its heap a few MB at a time and touches it
// at once, faster than a watcher can advise it, so the heap's first
// gigabytes are mapped and advised before the simulation needs them.
const premapMost = 8 << 30

// premapChunk is the size of the blocks the premapped heap is taken in.
// A block the runtime finds on pages used before is cleared whole, so a
// small block bounds that cost to the few pages the heap had freed.
const premapChunk = 4 << 20

// premap has the runtime map up to premapMost of heap (at most half the
// memory a run may take, limit.Available: the machine's free memory or
// AKISIM_MEMORY_BYTES, and what ulimit -v and the cgroup's limit leave)
// and free it again. Memory the runtime maps fresh is zero already and not
// touched, so this costs address space, not memory: heap address space the
// run would take anyway, and never more than a limit leaves. Under strict
// overcommit (vm.overcommit_memory=2) address space is memory, so nothing
// is mapped.
func premap() {
	if b, err := os.ReadFile("/proc/sys/vm/overcommit_memory"); err != nil || strings.TrimSpace(string(b)) == "2" {
		return
	}
	n := min(limit.Available()/2, premapMost) / premapChunk
	blocks := make([][]byte, n) // all held until the last is made, so none is made on another's pages
	for i := range blocks {
		blocks[i] = make([]byte, premapChunk)
	}
	runtime.GC()
}

// watch advises the new mappings whenever the runtime has mapped more
// memory than at the last look.
func watch() {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	var seen uint64
	for range time.Tick(pollEvery) {
		metrics.Read(s)
		if s[0].Value.Kind() != metrics.KindUint64 {
			return
		}
		if v := s[0].Value.Uint64(); v > seen {
			seen = v
			advise()
		}
	}
}

// advise marks every anonymous mapping for huge pages. A mapping already
// marked costs a system call and no change; a failure (an old kernel, a
// mapping gone since the listing) leaves that mapping as it was.
func advise() {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return
	}
	spans := anonymous(f, hugeBytes)
	f.Close()
	for _, s := range spans {
		unix.Syscall(unix.SYS_MADVISE, s.start, s.end-s.start, unix.MADV_HUGEPAGE)
	}
}
