package gcd

import (
	"math/rand"
	"testing"
)

// The block map agrees with Go's map over random inserts and removals at
// full load, ids clustered so probe runs wrap and collide.
func TestBlockMapAgreesWithMap(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	const capacity = 64
	m, ref := newBlockMap[block](capacity), map[int64]*block{}
	for step := 0; step < 200000; step++ {
		id := int64(rng.Intn(300))
		if b, ok := ref[id]; ok && (len(ref) == capacity || rng.Intn(2) == 0) {
			m.remove(id)
			delete(ref, id)
			_ = b
		} else if !ok && len(ref) < capacity {
			b := &block{id: id}
			m.put(id, b)
			ref[id] = b
		}
		probe := int64(rng.Intn(300))
		if got, want := m.get(probe), ref[probe]; got != want {
			t.Fatalf("step %d: get(%d) = %v, want %v", step, probe, got, want)
		}
	}
	for id, b := range ref {
		if m.get(id) != b {
			t.Fatalf("block %d lost", id)
		}
	}
}

// The block index agrees with Go's map over random inserts and removals,
// ids in a few neighbourhoods so groups fill, empty and come back.
func TestBlockIndexAgreesWithMap(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	const capacity = 64
	x, ref := newBlockIndex(capacity), map[int64]*block{}
	for step := 0; step < 200000; step++ {
		id := int64(rng.Intn(40)) + int64(rng.Intn(3))<<44
		if _, ok := ref[id]; ok && (len(ref) == capacity || rng.Intn(2) == 0) {
			x.remove(ref[id])
			delete(ref, id)
		} else if !ok && len(ref) < capacity {
			b := &block{id: id}
			x.put(b)
			ref[id] = b
		}
		probe := int64(rng.Intn(40)) + int64(rng.Intn(3))<<44
		if got, want := x.get(probe), ref[probe]; got != want {
			t.Fatalf("step %d: get(%d) = %v, want %v", step, probe, got, want)
		}
	}
}
