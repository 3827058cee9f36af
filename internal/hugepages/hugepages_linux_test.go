package hugepages

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

func TestParseTakesAnonymousWritableMappingsOnly(t *testing.T) {
	for _, c := range []struct {
		line string
		want region
		ok   bool
	}{
		{"c000000000-c004000000 rw-p 00000000 00:00 0", region{0xc000000000, 0xc004000000}, true},
		{"c000000000-c004000000 rw-p 00000000 00:00 0 ", region{0xc000000000, 0xc004000000}, true},
		{"7f00-8f00 rw-p 00000000 00:00 0 [heap]", region{}, false},
		{"00400000-00403000 r--p 00000000 08:01 42 /tmp/akisim", region{}, false},
		{"7f00-8f00 ---p 00000000 00:00 0", region{}, false},
		{"7f00-8f00 r-xp 00000000 00:00 0", region{}, false},
		{"zz-8f00 rw-p 00000000 00:00 0", region{}, false},
		{"8f00-7f00 rw-p 00000000 00:00 0", region{}, false},
	} {
		if got, ok := parse(c.line); got != c.want || ok != c.ok {
			t.Errorf("parse(%q) = %v, %v; want %v, %v", c.line, got, ok, c.want, c.ok)
		}
	}
}

// anonHuge is the process's AnonHugePages in bytes.
func anonHuge(t *testing.T) uint64 {
	s, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		t.Skip("no /proc/self/smaps_rollup:", err)
	}
	for _, l := range strings.Split(string(s), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "AnonHugePages:" {
			kb, _ := strconv.ParseUint(f[1], 10, 64)
			return kb << 10
		}
	}
	t.Skip("no AnonHugePages line")
	return 0
}

// A pass over a heap that grew by 64 MiB leaves huge pages in the
// process, where the kernel gives them at all.
func TestPassGivesTheHeapHugePages(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if runtime.GOOS != "linux" || err != nil || strings.Contains(string(mode), "[never]") {
		t.Skip("no transparent huge pages here")
	}
	before := anonHuge(t)
	heap := make([]byte, 64<<20)
	for i := 0; i < len(heap); i += 4096 {
		heap[i] = 1
	}
	a := newAdvisor()
	a.now = func() time.Duration { return time.Hour } // a long run: the budget holds nothing back
	a.pass()
	if a.errno == syscall.EINVAL || a.errno == syscall.ENOSYS {
		t.Skip("the kernel has no MADV_COLLAPSE (Linux 6.1): huge pages come only with khugepaged")
	}
	after := anonHuge(t)
	if after < before+16<<20 {
		t.Errorf("AnonHugePages %d -> %d bytes after a pass over a 64 MiB heap, want 16 MiB more at least", before, after)
	}
	runtime.KeepAlive(heap)
}

// A pass leaves sparse memory alone: a collapse would fill each huge
// page's absent small pages and grow the process.
func TestPassLeavesSparseMemory(t *testing.T) {
	const n = 64 << 20
	m, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("no anonymous mapping:", err)
	}
	defer syscall.Munmap(m)
	for i := 0; i < n; i += 4 * 4096 { // a quarter of the small pages
		m[i] = 1
	}
	at := uint64(uintptr(unsafe.Pointer(&m[0])))
	count := func() (k uint64) {
		for p := at; p < at+n; p += hugeBytes {
			k += resident(p, hugeBytes)
		}
		return k
	}
	before := count()
	a := newAdvisor()
	a.now = func() time.Duration { return time.Hour } // only the density rule holds it back
	a.pass()
	if after := count(); after > before+before/8 {
		t.Errorf("resident small pages %d -> %d after a pass over a quarter-touched 64 MiB", before, after)
	}
}

// Collapses stop once they took 1/Share of the run's time: a heap that
// comes and goes faster than the marks pays a bounded share for copies.
// Over budget a pass still marks the mappings that grew.
func TestCollapsesKeepToTheirShareOfTheTime(t *testing.T) {
	heap := make([]byte, 64<<20)
	for i := 0; i < len(heap); i += 4096 {
		heap[i] = 1
	}
	var now time.Duration
	a := newAdvisor()
	a.now = func() time.Duration { return now }
	collapsed := 0
	a.collapse = func(at, n uint64) syscall.Errno { now += 10 * time.Millisecond; collapsed++; return 0 } // each takes 10 ms
	a.pass()
	if collapsed != 1 {
		t.Fatalf("%d ranges collapsed at first, want 1: the second would pass the budget (%v spent by %v)", collapsed, a.spent, now)
	}
	grown, err := syscall.Mmap(-1, 0, 8<<20, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("no anonymous mapping:", err)
	}
	defer syscall.Munmap(grown)
	a.pass()
	if at := uint64(uintptr(unsafe.Pointer(&grown[0]))); collapsed != 1 || !marked(a, at) {
		t.Errorf("over budget: %d collapses (want 1), the grown mapping at %#x marked %v (want true)", collapsed, at, marked(a, at))
	}
	now += 10 * time.Second
	if a.pass(); collapsed < 8 {
		t.Errorf("%d ranges collapsed after %v, want the 64 MiB heap's dense ranges", collapsed, now)
	}
	runtime.KeepAlive(heap)
}

// marked says whether the advisor marked a mapping holding address at.
func marked(a *advisor, at uint64) bool {
	for lo, hi := range a.marked {
		if lo <= at && at < hi {
			return true
		}
	}
	return false
}
