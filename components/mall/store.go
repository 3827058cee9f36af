package mall

import "github.com/akisim/akisim/internal/lineset"

// store is the cache's tag and line state: sets of ways frames, each
// holding one block of lines; the least recently used frame of a set is
// the one replaced.
type store struct {
	sets, ways, lines int
	frames            []frame // set s is frames[s*ways : (s+1)*ways]
	clock             uint64  // use stamps, rising
}

// frame is one way of a set.
type frame struct {
	id           int64  // block number (address / block bytes)
	used         bool   // holds a block
	last         uint64 // when it was last used
	valid, dirty lineset.Set
}

func newStore(sets, ways, lines int) *store {
	return &store{sets: sets, ways: ways, lines: lines, frames: make([]frame, sets*ways)}
}

func (s *store) set(id int64) []frame {
	k := int(id % int64(s.sets))
	return s.frames[k*s.ways : (k+1)*s.ways]
}

// find returns the frame holding block id, or nil.
func (s *store) find(id int64) *frame {
	set := s.set(id)
	for i := range set {
		if set[i].used && set[i].id == id {
			return &set[i]
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
	set := s.set(id)
	f = &set[0]
	for i := range set {
		if !set[i].used {
			f = &set[i]
			break
		}
		if set[i].last < f.last {
			f = &set[i]
		}
	}
	victim = -1
	if f.used {
		victim, dirty = f.id, f.dirty.Count(0, s.lines)
	}
	if f.valid == nil { // line sets are made as frames are first used
		f.valid, f.dirty = lineset.New(s.lines), lineset.New(s.lines)
	}
	f.id, f.used = id, true
	clear(f.valid)
	clear(f.dirty)
	s.touch(f)
	return f, victim, dirty
}

// bytes counts the valid (or, with dirty, the dirty) lines of every frame.
func (s *store) count(dirty bool) int {
	n := 0
	for i := range s.frames {
		f := &s.frames[i]
		switch {
		case !f.used:
		case dirty:
			n += f.dirty.Count(0, s.lines)
		default:
			n += f.valid.Count(0, s.lines)
		}
	}
	return n
}
