package trace

// A trace of thousands of ranks need not be held whole: a Program makes
// each rank's calls a piece at a time, as they are reached, so a run that
// reads them in passes (checked, matched, replayed) holds a few pieces
// per rank rather than every call.

// Program is a trace made a piece at a time, rank by rank. Makers are the
// ranks in order (of their first call); Rank(i) starts the i-th one's
// maker afresh, each call of which appends the rank's next calls (their
// Rank set) to ops, and returns ops as it was once the rank has no more.
type Program struct {
	Makers int
	Rank   func(i int) func(ops []Op) []Op
}

// Ops is every call of the program, rank after rank: the trace whole.
func (p Program) Ops() []Op {
	var ops []Op
	p.Each(func(_ int, piece []Op) bool { ops = append(ops, piece...); return true })
	return ops
}

// Each hands f the program's calls piece by piece, rank after rank (as
// Ops holds them), with where in Ops the piece starts; f returning false
// stops it. A piece is valid until f returns.
func (p Program) Each(f func(at int, piece []Op) bool) {
	var buf []Op
	at := 0
	for i := range p.Makers {
		next := p.Rank(i)
		for {
			buf = next(buf[:0])
			if len(buf) == 0 {
				break
			}
			if !f(at, buf) {
				return
			}
			at += len(buf)
		}
	}
}

// ProgramOf is ops as a Program: each rank's calls, in their order, one
// piece, ranks in order of their first call.
func ProgramOf(ops []Op) Program {
	var order []int
	by := map[int][]Op{}
	for _, o := range ops {
		if _, ok := by[o.Rank]; !ok {
			order = append(order, o.Rank)
		}
		by[o.Rank] = append(by[o.Rank], o)
	}
	return Program{Makers: len(order), Rank: func(i int) func([]Op) []Op {
		mine := by[order[i]]
		return func(buf []Op) []Op {
			buf, mine = append(buf, mine...), nil
			return buf
		}
	}}
}

// Reader hands out a trace's calls one at a time, nil after the last;
// each stays valid until the next is asked for.
type Reader func() *Op

// Interleaved reads p's calls in rounds of up to quota calls of each
// rank, ranks in their order, each rank's calls in theirs: what the ranks
// call at about the same time comes together. It makes a rank's next
// piece when its turn has handed out the last, so it holds at most a
// piece of each rank.
func (p Program) Interleaved(quota int) Reader {
	quota = max(quota, 1)
	ranks := make([]queue, p.Makers)
	for i := range ranks {
		ranks[i].next = p.Rank(i)
	}
	live := len(ranks)  // ranks with calls left
	turn, left := -1, 0 // whose turn it is, and its calls left
	var cur Op
	return func() *Op {
		for {
			if left == 0 {
				if live == 0 {
					return nil
				}
				turn, left = (turn+1)%len(ranks), quota
			}
			q := &ranks[turn]
			if q.next == nil { // gone: its turns hand out nothing
				left = 0
				continue
			}
			if q.head == len(q.ops) { // every call handed out was let go: the room is reused
				if q.ops, q.head = q.next(q.ops[:0]), 0; len(q.ops) == 0 {
					q.next, q.ops, live, left = nil, nil, live-1, 0
					continue
				}
			}
			cur, q.ops[q.head] = q.ops[q.head], Op{} // the queue lets go of what it handed out
			q.head++
			left--
			return &cur
		}
	}
}

// queue is one rank's piece of calls made: ops[head:] not handed out yet.
type queue struct {
	next func([]Op) []Op // the rank's maker; nil once it has no more
	ops  []Op
	head int
}

// Ranks is the ranks the program's calls name, ascending.
func (p Program) Ranks() []int {
	var l rankSet
	p.Each(func(_ int, piece []Op) bool {
		for i := range piece {
			l.add(piece[i].Rank)
		}
		return true
	})
	return l.sorted()
}

// CheckProgram is Check of p.Ops() without holding them: the same first
// problem, named at the same line. It makes the calls twice: once for
// what Check looks ahead for (the ranks, the flags set and waited on),
// then to check them. see, if not nil, is shown every call of the first
// reading: what its caller would read them for, without a reading of its
// own.
func CheckProgram(p Program, n Limits, name string, see func(*Op)) error {
	setters, hosts := map[string][]int{}, map[string]bool{}
	var ranks rankSet
	p.Each(func(_ int, piece []Op) bool {
		for i := range piece {
			noteSetter(setters, &piece[i])
			noteWaiter(hosts, &piece[i])
			ranks.add(piece[i].Rank)
			if see != nil {
				see(&piece[i])
			}
		}
		return true
	})
	c := newChecker(n, setters, hosts, newMPIStateOf(ranks.sorted()))
	var bad *Error
	p.Each(func(at int, piece []Op) bool {
		bad = c.ops(piece, at, name)
		return bad == nil
	})
	if bad != nil {
		return bad
	}
	return c.finish(name)
}
