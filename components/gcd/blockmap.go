package gcd

// blockMap finds resident L2 blocks by id: open addressing with linear
// probing over a table twice the L2's block count, deleting by shifting
// back. Go's map was half of the L2's time.
type blockMap struct {
	slots []*block
	mask  uint64
}

func newBlockMap(capacity int) blockMap {
	n := 16
	for n < 2*capacity {
		n *= 2
	}
	return blockMap{slots: make([]*block, n), mask: uint64(n - 1)}
}

func (m *blockMap) home(id int64) uint64 {
	return (uint64(id) * 0x9E3779B97F4A7C15) >> 32 & m.mask
}

func (m *blockMap) get(id int64) *block {
	for i := m.home(id); ; i = (i + 1) & m.mask {
		b := m.slots[i]
		if b == nil || b.id == id {
			return b
		}
	}
}

func (m *blockMap) put(b *block) {
	i := m.home(b.id)
	for m.slots[i] != nil {
		i = (i + 1) & m.mask
	}
	m.slots[i] = b
}

func (m *blockMap) remove(id int64) {
	i := m.home(id)
	for m.slots[i].id != id {
		i = (i + 1) & m.mask
	}
	// shift later entries of the probe run back into the hole
	for j := (i + 1) & m.mask; m.slots[j] != nil; j = (j + 1) & m.mask {
		h := m.home(m.slots[j].id)
		if (j > i && (h <= i || h > j)) || (j < i && h <= i && h > j) {
			m.slots[i] = m.slots[j]
			i = j
		}
	}
	m.slots[i] = nil
}
