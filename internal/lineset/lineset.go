// Package lineset is a bit per cache line of a block: which lines of a
// replacement block an L2 or a MALL holds valid, or dirty. The caches
// track residency per line while replacing whole blocks.
package lineset

import "math/bits"

// Set has a bit per line; line i is bit i%64 of word i/64.
type Set []uint64

// New is an empty set over lines lines.
func New(lines int) Set { return make(Set, Words(lines)) }

// Words is how many words a set over lines lines has.
func Words(lines int) int { return (lines + 63) / 64 }

// mask has bits [off, off+n) set.
func mask(off, n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return (1<<n - 1) << off
}

// Add sets lines [lo, hi).
func (s Set) Add(lo, hi int) {
	for lo < hi {
		w, off := lo/64, lo%64
		n := min(64-off, hi-lo)
		s[w] |= mask(off, n)
		lo += n
	}
}

// Drop clears lines [lo, hi).
func (s Set) Drop(lo, hi int) {
	for lo < hi {
		w, off := lo/64, lo%64
		n := min(64-off, hi-lo)
		s[w] &^= mask(off, n)
		lo += n
	}
}

// Count is the number of lines set in [lo, hi).
func (s Set) Count(lo, hi int) int {
	c := 0
	for lo < hi {
		w, off := lo/64, lo%64
		n := min(64-off, hi-lo)
		c += bits.OnesCount64(s[w] & mask(off, n))
		lo += n
	}
	return c
}
