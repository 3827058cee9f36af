package gcd

// blockIndex finds an L2's resident blocks by id through groups of
// groupBlocks neighbouring blocks, so a stream's run of blocks costs one
// table lookup per group rather than one per block: the table was a fifth
// of a copy kernel's time. A group leaves the table with its last block.
type blockIndex struct {
	groups blockMap[blockGroup] // by id >> groupShift
	free   []*blockGroup
}

const (
	groupShift  = 3
	groupBlocks = 1 << groupShift
)

// blockGroup holds the resident blocks among groupBlocks neighbours.
type blockGroup struct {
	blocks [groupBlocks]*block
	n      int
}

// newBlockIndex sizes the table for capacity blocks each in its own group.
func newBlockIndex(capacity int) blockIndex {
	return blockIndex{groups: newBlockMap[blockGroup](capacity)}
}

func (x *blockIndex) get(id int64) *block {
	if g := x.groups.get(id >> groupShift); g != nil {
		return g.blocks[id&(groupBlocks-1)]
	}
	return nil
}

// put adds block b, which is not resident.
func (x *blockIndex) put(b *block) {
	key := b.id >> groupShift
	g := x.groups.get(key)
	if g == nil {
		if n := len(x.free); n > 0 {
			g, x.free = x.free[n-1], x.free[:n-1]
		} else {
			g = &blockGroup{}
		}
		x.groups.put(key, g)
	}
	g.blocks[b.id&(groupBlocks-1)] = b
	g.n++
}

// remove drops the resident block id.
func (x *blockIndex) remove(id int64) {
	key := id >> groupShift
	g := x.groups.get(key)
	g.blocks[id&(groupBlocks-1)] = nil
	if g.n--; g.n == 0 {
		x.groups.remove(key)
		x.free = append(x.free, g)
	}
}
