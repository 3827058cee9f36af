package gcd

import (
	"math/rand"
	"testing"
)

// Dealing a stream's workgroups gives each CU the workgroups w in
// [from, end) with w mod n = its index, and the run of the stream's
// traffic they stand for, whether the stream covers every CU or a few.
func TestDealGivesEachCUItsWorkgroups(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	c := &ComputeUnits{line: 64}
	for trial := 0; trial < 3000; trial++ {
		n := int64(1 + rng.Intn(12))
		wg := int64(1 + rng.Intn(40))
		m := MemStream{Addr: int64(rng.Intn(1 << 20)), Bytes: int64(rng.Intn(1 << 16))}
		if rng.Intn(2) == 0 {
			m.First = int64(rng.Intn(int(wg)))
			m.End = m.First + int64(1+rng.Intn(int(wg)))
		}
		used := min(wg, n)
		cus := make([]cuState, used)
		for i := range cus {
			cus[i].base, cus[i].bytes = make([]int64, 1), make([]int64, 1)
		}
		s := c.cutOf(&m, wg, n)
		s.deal(c, cus, 0, n)
		from, end := int64(0), wg
		if m.End > 0 {
			from, end = m.First, min(m.End, wg)
		}
		var given int64
		for i := range used {
			count := int64(0)
			for w := max(from, 0); w < end; w++ {
				if w%n == i {
					count++
				}
			}
			lo, hi := c.split(m.Traffic(c.line), given, end-from), c.split(m.Traffic(c.line), given+count, end-from)
			given += count
			if cus[i].bytes[0] != hi-lo || (hi > lo && cus[i].base[0] != m.Addr+lo) {
				t.Fatalf("n %d, wg %d, workgroups [%d, %d): CU %d got %d bytes at %d, want %d at %d",
					n, wg, from, end, i, cus[i].bytes[0], cus[i].base[0], hi-lo, m.Addr+lo)
			}
		}
	}
}
