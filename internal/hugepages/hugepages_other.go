//go:build !linux

package hugepages

const supported = false

func anonymous() []region { return nil }

func advise(lo, hi, from uint64) {}
