package mpi

import (
	"fmt"
	"strings"
	"testing"

	"github.com/akisim/akisim/trace"
)

// sharedParams turns the shared-memory cells on from call threshold, with
// cells of cell bytes (128 of them header) and the given trees.
func sharedParams(threshold int, cell int64, reduceK, releaseK int) Params {
	p := testParams
	p.Shared = Shared{On: true, Threshold: threshold, CellBytes: cell, Cells: 8, ReduceK: reduceK, ReleaseK: releaseK}
	return p
}

// allreduceTrace is n ranks each making an allreduce of size bytes twice.
func allreduceTrace(n int, size int64) []trace.Op {
	return collTrace(n, size, size, func(r int) trace.Op {
		return trace.Op{Op: trace.MPIAllreduce, Src: fmt.Sprintf("s%d", r), Dst: fmt.Sprintf("d%d", r), Bytes: size}
	})
}

// Every rank ends with every contribution on every rank count and tree
// shape: from the first call (threshold 1) and from the second (the first
// taking the point-to-point algorithm), in a cell it fills or not, on one
// node and with 1, 2 or 3 ranks a node (the nodes' first ranks folding in
// where they are not a power of two).
func TestReleaseGatherDataFlow(t *testing.T) {
	own := func(r int, _ int64) uint64 { return bit(r, 0) }
	for n := 2; n <= 8; n++ {
		for _, size := range []int64{1, 8, 128} {
			for _, tree := range [][2]int{{4, 64}, {2, 2}, {1, 1}} {
				for _, threshold := range []int{1, 2} {
					for _, perNode := range []int{0, 1, 2, 3} {
						name := fmt.Sprintf("n%d/%dB/k%d-%d/from%d/pernode%d", n, size, tree[0], tree[1], threshold, perNode)
						t.Run(name, func(t *testing.T) {
							p := sharedParams(threshold, 256, tree[0], tree[1])
							p.Net.GCDsPerNode = perNode
							m := runColl(t, allreduceTrace(n, size), p, own)
							for r := 0; r < n; r++ {
								want(t, m, fmt.Sprintf("d%d", r), 0, size, all(n), "result")
							}
						})
					}
				}
			}
		}
	}
}

// The calls before MPICH_POSIX_NUM_COLLS_THRESHOLD post host messages;
// from it on a call posts none on its node and takes the cells, on one
// node or several; MPICH_SHARED_MEM_COLL_OPT=0 or a message larger than a
// cell's data never take them.
func TestReleaseGatherSelection(t *testing.T) {
	count := func(ops []trace.Op, rank int) (rts, gathered int) {
		for _, o := range ops {
			if o.Rank != rank || o.Op != trace.FlagSet {
				continue
			}
			switch {
			case strings.HasSuffix(o.Flag, ".rts"):
				rts++
			case strings.HasSuffix(o.Flag, ".gathered"):
				gathered++
			}
		}
		return
	}
	twoNodes := sharedParams(1, 256, 4, 64)
	twoNodes.Net.GCDsPerNode = 4
	off := sharedParams(1, 256, 4, 64)
	off.Shared.On = false
	for _, c := range []struct {
		name             string
		p                Params
		size             int64
		wantRTS, wantGat bool // on the second call (rank 1: a leaf of the reduce tree)
		firstRTS         bool // on the first call
	}{
		{"from the second call", sharedParams(2, 256, 4, 64), 8, false, true, true},
		{"from the third call", sharedParams(3, 256, 4, 64), 8, true, false, true},
		{"a full cell", sharedParams(1, 256, 4, 64), 128, false, true, false},
		{"off", off, 8, true, false, true},
		{"two nodes: gather, the first ranks' allreduce, release", twoNodes, 8, false, true, false},
		{"past a cell", sharedParams(1, 256, 4, 64), 129, true, false, true},
	} {
		n := 8
		ops := lower(allreduceTrace(n, c.size), c.p, "mpi.")
		var first, second []trace.Op
		for _, o := range ops {
			if o.Rank != 1 {
				continue
			}
			if strings.HasPrefix(o.Flag, "mpi.c0.") {
				first = append(first, o)
			}
			if strings.HasPrefix(o.Flag, "mpi.c1.") {
				second = append(second, o)
			}
		}
		rts1, _ := count(first, 1)
		rts2, gat2 := count(second, 1)
		if (rts1 > 0) != c.firstRTS || (rts2 > 0) != c.wantRTS || (gat2 > 0) != c.wantGat {
			t.Errorf("%s: first call %d host messages; second %d host messages, %d cells flagged; want messages %v, %v, cells %v",
				c.name, rts1, rts2, gat2, c.firstRTS, c.wantRTS, c.wantGat)
		}
	}
}
