//go:build !linux

package hugepages

import "syscall"

const supported = false

func anonymous() []region { return nil }

func advise(lo, hi, from uint64) syscall.Errno { return 0 }
