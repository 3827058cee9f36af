package hugepages

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

const (
	supported    = true
	madvHugePage = 14 // MADV_HUGEPAGE
	madvCollapse = 25 // MADV_COLLAPSE (Linux 6.1)
	anonymousRWP = "rw-p"
)

// anonymous lists the process's private writable mappings backed by no
// file, from /proc/self/maps: Go's heap among them.
func anonymous() []region {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return nil
	}
	defer f.Close()
	var rs []region
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if r, ok := parse(sc.Text()); ok {
			rs = append(rs, r)
		}
	}
	return rs
}

// parse reads one line of /proc/self/maps ("lo-hi perms offset dev inode
// [path]"): ok for an anonymous private writable mapping.
func parse(line string) (region, bool) {
	fs := strings.Fields(line)
	if len(fs) != 5 || fs[1] != anonymousRWP {
		return region{}, false
	}
	lo, hi, ok := strings.Cut(fs[0], "-")
	if !ok {
		return region{}, false
	}
	l, err1 := strconv.ParseUint(lo, 16, 64)
	h, err2 := strconv.ParseUint(hi, 16, 64)
	if err1 != nil || err2 != nil || h <= l {
		return region{}, false
	}
	return region{l, h}, true
}

// markHuge asks for huge pages on [lo, hi) as its pages fault in. A hint:
// an error (THP off) leaves the pages as they are.
func markHuge(lo, hi uint64) {
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, uintptr(lo), uintptr(hi-lo), madvHugePage)
}

// collapseRange makes [at, at+n) huge pages now; it returns the error number
// (0: done; EINVAL before Linux 6.1).
func collapseRange(at, n uint64) syscall.Errno {
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, uintptr(at), uintptr(n), madvCollapse)
	return errno
}

// resident counts the small pages of [at, at+n) in memory (mincore).
func resident(at, n uint64) uint64 {
	var vec [hugeBytes / smallBytes]byte
	pages := n / smallBytes
	if pages > uint64(len(vec)) {
		pages = uint64(len(vec))
	}
	if _, _, errno := syscall.Syscall(syscall.SYS_MINCORE, uintptr(at), uintptr(pages*smallBytes), uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		return 0
	}
	var k uint64
	for _, b := range vec[:pages] {
		k += uint64(b & 1)
	}
	return k
}
