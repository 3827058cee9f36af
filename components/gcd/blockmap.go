package gcd

// blockMap finds resident entries (an L2's groups of blocks, a TLB's
// pages) by id: open addressing with linear probing over a table twice
// the capacity, deleting by shifting back. Go's map was half of the L2's
// time. Ids sit in the slots, so a probe does not chase a pointer.
type blockMap[T any] struct {
	slots []blockSlot[T] // made at the first put: most runs' L2s hold nothing
	mask  uint64
	shift uint // 64 - log2(len(slots)): home takes the product's top bits
}

type blockSlot[T any] struct {
	id int64
	b  *T
}

func newBlockMap[T any](capacity int) blockMap[T] {
	n, bits := 16, uint(4)
	for n < 2*capacity {
		n *= 2
		bits++
	}
	return blockMap[T]{mask: uint64(n - 1), shift: 64 - bits}
}

// home is Fibonacci hashing: the top bits of id times 2^64/phi, the bits
// every bit of id reaches. Middle bits missed the memory number (id >> 44),
// so a copy's source and destination blocks at one offset always collided.
func (m *blockMap[T]) home(id int64) uint64 {
	return (uint64(id) * 0x9E3779B97F4A7C15) >> m.shift
}

func (m *blockMap[T]) get(id int64) *T {
	if m.slots == nil {
		return nil
	}
	for i := m.home(id); ; i = (i + 1) & m.mask {
		sl := &m.slots[i]
		if sl.b == nil || sl.id == id {
			return sl.b
		}
	}
}

func (m *blockMap[T]) put(id int64, b *T) {
	if m.slots == nil {
		m.slots = make([]blockSlot[T], m.mask+1)
	}
	i := m.home(id)
	for m.slots[i].b != nil {
		i = (i + 1) & m.mask
	}
	m.slots[i] = blockSlot[T]{id, b}
}

func (m *blockMap[T]) remove(id int64) {
	i := m.home(id)
	for m.slots[i].b == nil || m.slots[i].id != id {
		i = (i + 1) & m.mask
	}
	// shift later entries of the probe run back into the hole
	for j := (i + 1) & m.mask; m.slots[j].b != nil; j = (j + 1) & m.mask {
		h := m.home(m.slots[j].id)
		if (j > i && (h <= i || h > j)) || (j < i && h <= i && h > j) {
			m.slots[i] = m.slots[j]
			i = j
		}
	}
	m.slots[i] = blockSlot[T]{}
}
