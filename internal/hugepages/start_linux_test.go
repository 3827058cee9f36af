//go:build linux

package hugepages

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// Where the kernel gives huge pages on request, Start marks the heap for
// them: the mapping that holds a large block made after Start carries the
// "hg" flag (Go itself marks only some of its metadata).
func TestStartAdvises(t *testing.T) {
	if !onRequest() {
		t.Skip("the kernel's THP mode is not madvise, or GODEBUG sets disablethp=1")
	}
	Start()
	block := make([]byte, 16<<20)
	at := uint64(uintptr(unsafe.Pointer(&block[0])))
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps")
	}
	holds := false // the mapping being read holds the block
	for _, line := range strings.Split(string(smaps), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if lo, hi, ok := strings.Cut(f[0], "-"); ok && len(f) >= 5 {
			start, err1 := strconv.ParseUint(lo, 16, 64)
			end, err2 := strconv.ParseUint(hi, 16, 64)
			holds = err1 == nil && err2 == nil && start <= at && at < end
			continue
		}
		if holds && f[0] == "VmFlags:" {
			for _, flag := range f[1:] {
				if flag == "hg" {
					return
				}
			}
			t.Fatalf("the mapping holding a heap block is not marked for huge pages: %s", line)
		}
	}
	t.Error("no mapping holds the heap block")
}
