//go:build linux

package hugepages

import (
	"os"
	"strings"
	"testing"
)

// Where the kernel gives huge pages on request, Start marks the heap for
// them: a mapping of the process carries the "hg" flag.
func TestStartAdvises(t *testing.T) {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || Mode(string(b)) != "madvise" {
		t.Skip("the kernel's THP mode is not madvise")
	}
	if strings.Contains(os.Getenv("GODEBUG"), "disablethp=1") {
		t.Skip("GODEBUG sets disablethp=1")
	}
	Start()
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps")
	}
	for _, line := range strings.Split(string(smaps), "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == "VmFlags:" {
			for _, flag := range f[1:] {
				if flag == "hg" {
					return
				}
			}
		}
	}
	t.Error("no mapping is marked for huge pages after Start")
}
