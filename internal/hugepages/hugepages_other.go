//go:build !linux

package hugepages

import "syscall"

const supported = false

func anonymous() []region { return nil }

func markHuge(lo, hi uint64) {}

func collapseRange(at, n uint64) syscall.Errno { return 0 }

func resident(at, n uint64) uint64 { return 0 }
