package hugepages

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
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

// advise marks [lo, hi) for huge pages and collapses [from, hi). Both are
// hints: an error (an old kernel, THP off) leaves the pages as they are.
// It returns the collapse's error number (0: none).
func advise(lo, hi, from uint64) syscall.Errno {
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, uintptr(lo), uintptr(hi-lo), madvHugePage)
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, uintptr(from), uintptr(hi-from), madvCollapse)
	return errno
}
