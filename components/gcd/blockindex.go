package gcd

// blockIndex finds an L2's resident blocks by id through groups of
// groupBlocks neighbouring blocks, so a stream's run of blocks costs one
// table lookup per group rather than one per block: the table was a fifth
// of a copy kernel's time. A group leaves the table with its last block.
type blockIndex struct {
	groups blockMap[blockGroup] // by id >> groupShift
	free   []*blockGroup
	// the group last looked up (nil: none resident) and its key: a run
	// of blocks asks for one group several times in a row
	key    int64
	last   *blockGroup
	looked bool
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

// group is the group of key, nil if none of its blocks is resident.
func (x *blockIndex) group(key int64) *blockGroup {
	if !x.looked || x.key != key {
		x.key, x.last, x.looked = key, x.groups.get(key), true
	}
	return x.last
}

func (x *blockIndex) get(id int64) *block {
	if g := x.group(id >> groupShift); g != nil {
		return g.blocks[id&(groupBlocks-1)]
	}
	return nil
}

// put adds block b, which is not resident.
func (x *blockIndex) put(b *block) {
	key := b.id >> groupShift
	g := x.group(key)
	if g == nil {
		if n := len(x.free); n > 0 {
			g, x.free = x.free[n-1], x.free[:n-1]
		} else {
			g = &blockGroup{}
		}
		x.groups.put(key, g)
		x.last = g // group(key) was just looked up
	}
	g.blocks[b.id&(groupBlocks-1)] = b
	g.n++
	b.group = g
}

// remove drops resident block b.
func (x *blockIndex) remove(b *block) {
	g := b.group
	g.blocks[b.id&(groupBlocks-1)] = nil
	b.group = nil
	if g.n--; g.n == 0 {
		key := b.id >> groupShift
		x.groups.remove(key)
		x.free = append(x.free, g)
		if x.key == key {
			x.last = nil
		}
	}
}
