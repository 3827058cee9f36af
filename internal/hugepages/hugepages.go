// Package hugepages asks the kernel to back akisim's heap with transparent
// huge pages where it gives them only on request (THP "madvise", the
// default of Debian and Ubuntu and this project's machines). A simulation
// reaches its packets, events and cache blocks all over a heap of hundreds
// of MB: with 4 KiB pages nearly every such access misses the TLB, which
// under a hypervisor walks two page tables, and every first touch of a
// page is a fault (about 12 us each on the 2-core development VM). Go's
// runtime stopped asking for huge pages itself in Go 1.21.1, so Start asks
// for them on the process's anonymous mappings, and again whenever the
// runtime has mapped more. The results do not depend on it: no simulated
// time or order reads an address.
package hugepages

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// mode is the kernel's THP mode from the text of
// /sys/kernel/mm/transparent_hugepage/enabled: the bracketed word
// ("always", "madvise" or "never"), "" if there is none.
func mode(enabled string) string {
	i := strings.IndexByte(enabled, '[')
	j := strings.IndexByte(enabled, ']')
	if i < 0 || j < i {
		return ""
	}
	return enabled[i+1 : j]
}

// span is a range of addresses, [start, end).
type span struct{ start, end uintptr }

// anonymous lists the private, writable, anonymous mappings of a
// /proc/PID/maps listing that can hold a huge page: the Go heap, its
// metadata and the goroutines' stacks (named "[anon: Go: ...]" where the
// kernel keeps names, unnamed elsewhere). The main thread's stack, files
// and the kernel's own pages are left alone.
func anonymous(maps io.Reader, huge uintptr) []span {
	var out []span
	sc := bufio.NewScanner(maps)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 5 || !strings.HasPrefix(f[1], "rw") || !strings.HasSuffix(f[1], "p") || f[4] != "0" {
			continue
		}
		if len(f) > 5 && !strings.HasPrefix(f[5], "[anon:") {
			continue // a file, [heap], [stack], [vvar], ...
		}
		lo, hi, ok := strings.Cut(f[0], "-")
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || end-start < uint64(huge) {
			continue
		}
		out = append(out, span{uintptr(start), uintptr(end)})
	}
	return out
}
