package gcd

// blockMap finds resident L2 blocks by id: open addressing with linear
// probing over a table twice the L2's block count, deleting by shifting
// back. Go's map was half of the L2's time. Ids sit in the slots, so a
// probe does not chase a block pointer.
type blockMap struct {
	slots []blockSlot // made at the first put: most runs' L2s hold nothing
	mask  uint64
	shift uint // 64 - log2(len(slots)): home takes the product's top bits
}

type blockSlot struct {
	id int64
	b  *block
}

func newBlockMap(capacity int) blockMap {
	n, bits := 16, uint(4)
	for n < 2*capacity {
		n *= 2
		bits++
	}
	return blockMap{mask: uint64(n - 1), shift: 64 - bits}
}

// home is Fibonacci hashing: the top bits of id times 2^64/phi, the bits
// every bit of id reaches. Middle bits missed the memory number (id >> 44),
// so a copy's source and destination blocks at one offset always collided.
func (m *blockMap) home(id int64) uint64 {
	return (uint64(id) * 0x9E3779B97F4A7C15) >> m.shift
}

func (m *blockMap) get(id int64) *block {
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

func (m *blockMap) put(b *block) {
	if m.slots == nil {
		m.slots = make([]blockSlot, m.mask+1)
	}
	i := m.home(b.id)
	for m.slots[i].b != nil {
		i = (i + 1) & m.mask
	}
	m.slots[i] = blockSlot{b.id, b}
}

func (m *blockMap) remove(id int64) {
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
	m.slots[i] = blockSlot{}
}
