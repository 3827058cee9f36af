//go:build linux || darwin || freebsd

package benchmeter

import (
	"runtime"
	"syscall"
	"time"
)

// cpuTime is the CPU time the process used so far, user and system (0
// if unknown).
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// maxRSS is the process's peak resident set in bytes (0 if unknown).
func maxRSS() int64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return u.Maxrss // bytes there
	}
	return u.Maxrss << 10 // KiB on Linux and FreeBSD
}
