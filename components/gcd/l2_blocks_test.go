package gcd

import "testing"

// A range's walk by shifts gives the blocks and lines that dividing by the
// line and block sizes gives, for powers of two; other sizes are refused.
func TestBlocksOfShiftsAsDivisionWould(t *testing.T) {
	for _, g := range []struct{ line, lines int64 }{{64, 128}, {64, 64}, {128, 32}, {16, 256}} {
		c := &L2{line: g.line, lines: g.lines}
		c.lineShift, c.perShift = shifts(g.line, g.lines)
		for _, r := range [][2]int64{{0, 1}, {0, 0}, {63, 2}, {5000, 70000}, {1 << 40, 3 << 20}, {g.line*g.lines - 1, 1}} {
			first, end := r[0]/g.line, (r[0]+max(r[1], 1)-1)/g.line+1
			w := c.blocksOf(r[0], r[1])
			for l := first; l < end; {
				b, lo := l/g.lines, l%g.lines
				hi := min(g.lines, lo+end-l)
				if !w.next() || w.b != b || int64(w.lo) != lo || int64(w.hi) != hi {
					t.Fatalf("line %d, %d lines, [%d, +%d): walk at block %d lines %d..%d, want %d lines %d..%d", g.line, g.lines, r[0], r[1], w.b, w.lo, w.hi, b, lo, hi)
				}
				l += hi - lo
			}
			if w.next() {
				t.Fatalf("line %d, %d lines, [%d, +%d): the walk goes past the range", g.line, g.lines, r[0], r[1])
			}
		}
	}
	for _, g := range [][2]int64{{48, 128}, {64, 96}, {0, 1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("line %d, %d lines: not refused", g[0], g[1])
				}
			}()
			shifts(g[0], g[1])
		}()
	}
}
