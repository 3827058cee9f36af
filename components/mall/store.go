package mall

import (
	"math/bits"

	"github.com/akisim/akisim/internal/lineset"
)

// store is the cache's tag and line state: sets of ways frames, each
// holding one block of lines; the least recently used frame of a set is
// the one replaced.
type store struct {
	sets, ways, lines int
	frames            []frame // set s is frames[s*ways : (s+1)*ways]
	// tags is each frame's block number plus one (0: the frame is empty),
	// beside the frames: a lookup reads a set's tags in two cache lines,
	// not its frames across fourteen
	tags  []int64
	clock uint64 // use stamps, rising
}

// frame is one way of a set.
type frame struct {
	last         uint64 // when it was last used
	valid, dirty lineset.Set
	// bits holds valid's and dirty's words for a block of up to 128
	// lines: a replacement then finds them in the frame, not two misses away
	bits [4]uint64
}

func newStore(sets, ways, lines int) *store {
	return &store{sets: sets, ways: ways, lines: lines, frames: make([]frame, sets*ways), tags: make([]int64, sets*ways)}
}

// base is the index of block id's set's first frame.
func (s *store) base(id int64) int {
	return int(id%int64(s.sets)) * s.ways
}

// find returns the frame holding block id, or nil.
func (s *store) find(id int64) *frame {
	b := s.base(id)
	for i, t := range s.tags[b : b+s.ways] {
		if t == id+1 {
			return &s.frames[b+i]
		}
	}
	return nil
}

func (s *store) touch(f *frame) {
	s.clock++
	f.last = s.clock
}

// take returns the frame of block id, most recently used, replacing the
// least recently used block of its set if it is not there: victim is the
// block replaced (-1 if none) and dirty how many of its lines were dirty.
func (s *store) take(id int64) (f *frame, victim int64, dirty int) {
	if f = s.find(id); f != nil {
		s.touch(f)
		return f, -1, 0
	}
	b := s.base(id)
	set, tags := s.frames[b:b+s.ways], s.tags[b:b+s.ways]
	k := 0
	for i := range set {
		if tags[i] == 0 {
			k = i
			break
		}
		if set[i].last < set[k].last {
			k = i
		}
	}
	f = &set[k]
	victim = -1
	if tags[k] != 0 {
		victim, dirty = tags[k]-1, lines(f.dirty)
	}
	if f.valid == nil { // line sets are made as frames are first used
		if words := (s.lines + 63) / 64; 2*words <= len(f.bits) {
			f.valid, f.dirty = f.bits[0:words:words], f.bits[words:2*words:2*words]
		} else {
			f.valid, f.dirty = lineset.New(s.lines), lineset.New(s.lines)
		}
	}
	tags[k] = id + 1
	clear(f.valid)
	clear(f.dirty)
	s.touch(f)
	return f, victim, dirty
}

// lines counts the lines set in all of l: a frame's sets hold no bits
// past its lines, so this is Count(0, lines) without its masks per word,
// which every replacement paid.
func lines(l lineset.Set) int {
	n := 0
	for _, w := range l {
		n += bits.OnesCount64(w)
	}
	return n
}

// bytes counts the valid (or, with dirty, the dirty) lines of every frame.
func (s *store) count(dirty bool) int {
	n := 0
	for i := range s.frames {
		f := &s.frames[i]
		switch {
		case s.tags[i] == 0:
		case dirty:
			n += f.dirty.Count(0, s.lines)
		default:
			n += f.valid.Count(0, s.lines)
		}
	}
	return n
}
