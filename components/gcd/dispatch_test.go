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

// A kernel keeps each CU's shares that have bytes, with their streams in
// order, and none of the empty ones: the streams a CU does not touch cost
// nothing for the kernel's life.
func TestKeepHoldsTheSharesWithBytes(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	const ns = 40
	var dense []*cuState
	nonzero := 0
	for i := range 12 {
		cu := &cuState{id: i, base: make([]int64, ns), bytes: make([]int64, ns)}
		for j := range ns {
			if rng.Intn(3) == 0 {
				cu.base[j], cu.bytes[j] = int64(rng.Intn(1<<30)), int64(1+rng.Intn(1<<16))
				nonzero++
			}
		}
		dense = append(dense, cu)
	}
	kept := keep(dense, ns)
	held := 0
	for i, cu := range kept {
		held += len(cu.bytes)
		if cu.id != dense[i].id || len(cu.base) != len(cu.bytes) || len(cu.streams) != len(cu.bytes) {
			t.Fatalf("CU %d: id %d, %d bases, %d sizes, %d streams", i, cu.id, len(cu.base), len(cu.bytes), len(cu.streams))
		}
		for n := range cu.bytes {
			j := cu.stream(n)
			if n > 0 && j <= cu.stream(n-1) || cu.bytes[n] != dense[i].bytes[j] || cu.base[n] != dense[i].base[j] {
				t.Fatalf("CU %d, share %d: stream %d, %d bytes at %d; dense %d at %d", i, n, j, cu.bytes[n], cu.base[n], dense[i].bytes[j], dense[i].base[j])
			}
		}
		lo, hi := cu.sharesOf(10, 20)
		for n := range cu.streams {
			if in := cu.streams[n] >= 10 && cu.streams[n] < 30; in != (n >= lo && n < hi) {
				t.Errorf("CU %d: shares [%d, %d) of streams [10, 30) in %v", i, lo, hi, cu.streams)
				break
			}
		}
	}
	if held != nonzero {
		t.Errorf("kept %d shares, want the %d with bytes", held, nonzero)
	}
}
