package run

import (
	"slices"
	"testing"

	"github.com/akisim/akisim/trace"
)

// interleave takes up to quota calls of each rank in turn, ranks in order
// of first call, and keeps each rank's calls in their order.
func TestInterleave(t *testing.T) {
	var ops []trace.Op
	for _, rc := range [][2]int{{2, 5}, {0, 3}, {1, 6}} { // rank, calls: rank 2 first
		for k := range rc[1] {
			ops = append(ops, trace.Op{Rank: rc[0], Stream: k})
		}
	}
	ranks, order := interleave(ops, 2)
	var got [][2]int
	for _, i := range order {
		got = append(got, [2]int{ops[i].Rank, ops[i].Stream})
	}
	want := [][2]int{{2, 0}, {2, 1}, {0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 2}, {2, 3}, {0, 2}, {1, 2}, {1, 3}, {2, 4}, {1, 4}, {1, 5}}
	if !slices.Equal(got, want) || !slices.Equal(ranks, []int{0, 1, 2}) {
		t.Errorf("interleaved %v, ranks %v; want %v, [0 1 2]", got, ranks, want)
	}
}
