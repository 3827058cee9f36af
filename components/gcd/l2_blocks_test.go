package gcd

import "testing"

// A range's walk gives the same blocks and lines whether the L2 shifts
// (line and lines per block powers of two) or divides (any other sizes).
func TestBlocksOfShiftsAsItDivides(t *testing.T) {
	for _, g := range []struct{ line, lines int64 }{{64, 128}, {64, 64}, {128, 32}, {48, 3}, {64, 96}} {
		shifted := &L2{line: g.line, lines: g.lines}
		shifted.lineShift, shifted.perShift = shifts(g.line, g.lines)
		divided := &L2{line: g.line, lines: g.lines, perShift: -1}
		pow2 := g.line&(g.line-1) == 0 && g.lines&(g.lines-1) == 0
		if (shifted.perShift >= 0) != pow2 {
			t.Errorf("line %d, %d lines: shifts say %d", g.line, g.lines, shifted.perShift)
		}
		for _, r := range [][2]int64{{0, 1}, {0, 0}, {63, 2}, {5000, 70000}, {1 << 40, 3 << 20}, {g.line*g.lines - 1, 1}} {
			a, b := shifted.blocksOf(r[0], r[1]), divided.blocksOf(r[0], r[1])
			for {
				na, nb := a.next(), b.next()
				if na != nb || a.b != b.b || a.lo != b.lo || a.hi != b.hi {
					t.Fatalf("line %d, %d lines, [%d, +%d): shifted walk at block %d lines %d..%d, divided at %d lines %d..%d",
						g.line, g.lines, r[0], r[1], a.b, a.lo, a.hi, b.b, b.lo, b.hi)
				}
				if !na {
					break
				}
			}
		}
	}
}
