//go:build linux

package limit

import (
	"bufio"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// memAvailable reads MemAvailable (kB) of /proc/meminfo; 0 if it cannot.
func memAvailable() int64 {
	v, _ := procField("/proc/meminfo", "MemAvailable:")
	return v
}

// procField reads a "Name: N kB" line of a /proc file, in bytes.
func procField(path, name string) (int64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), name); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

// addrSpaceLeft is RLIMIT_AS's soft limit less the address space the
// process maps now (VmSize); 0 if unlimited. Go's heap is address space,
// so under ulimit -v it is the memory a run may take.
func addrSpaceLeft() int64 {
	var r unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_AS, &r) != nil || r.Cur == unix.RLIM_INFINITY || r.Cur > 1<<62 {
		return 0
	}
	used, _ := procField("/proc/self/status", "VmSize:")
	return max(int64(r.Cur)-used, 1) // 1: nothing left, not "no limit"
}

// cgroupLeft is the memory the process's cgroup may still take: its limit
// less its usage (cgroup v2's memory.max and memory.current, or v1's
// memory.limit_in_bytes and memory.usage_in_bytes); 0 if none is set.
func cgroupLeft() int64 {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		// "0::/path" (v2) or "4:memory:/path" (v1)
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		var lim, use string
		switch {
		case f[0] == "0" && f[1] == "":
			lim, use = "/sys/fs/cgroup"+f[2]+"/memory.max", "/sys/fs/cgroup"+f[2]+"/memory.current"
		case slices.Contains(strings.Split(f[1], ","), "memory"):
			dir := "/sys/fs/cgroup/memory" + f[2]
			if _, err := os.Stat(dir); err != nil {
				dir = "/sys/fs/cgroup/memory" // a cgroup namespace shows its own root
			}
			lim, use = dir+"/memory.limit_in_bytes", dir+"/memory.usage_in_bytes"
		default:
			continue
		}
		l, lok := readBytes(lim)
		u, _ := readBytes(use)
		if lok && l > 0 && l < 1<<62 { // "max", or v1's page-rounded 2^63
			return max(l-u, 1)
		}
	}
	return 0
}

// readBytes reads a file holding one number of bytes ("max" is none).
func readBytes(path string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return v, err == nil
}
