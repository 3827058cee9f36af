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

// sharedVariants are the cells from call threshold (256-byte cells, trees
// of 4 and 64) on one node, on nodes of 4 ranks, and turned off.
func sharedVariants(threshold int) (one, twoNodes, off Params) {
	one, twoNodes, off = sharedParams(threshold, 256, 4, 64), sharedParams(threshold, 256, 4, 64), sharedParams(threshold, 256, 4, 64)
	twoNodes.Net.GCDsPerNode = 4
	off.Shared.On = false
	return
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
	_, twoNodes, off := sharedVariants(1)
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

// From the threshold on, the cells' copies and reductions are the CPU's
// work in its caches: no host_access touches a cell, and a rank waits
// host.core_to_core_ns once per child's cell and once for the first
// rank's (in a k = 4 reduce tree over 8 ranks, rank 0 has children 1-4,
// rank 1 children 5-7, the others none; every rank but 0 copies the sum
// out of rank 0's cell).
func TestReleaseGatherFetches(t *testing.T) {
	p := sharedParams(1, 256, 4, 64)
	p.CoreToCoreNs = 100
	fetches := map[int]int{}
	for _, o := range lower(allreduceTrace(8, 8), p, "mpi.") {
		for _, a := range o.Access {
			if o.Op == trace.HostAccess && strings.HasSuffix(a.Buf, ".c") {
				t.Fatalf("rank %d: a host_access of a cell: %+v", o.Rank, o)
			}
		}
		if o.Op == trace.HostCompute && o.ComputeNs == p.CoreToCoreNs {
			fetches[o.Rank]++
		}
	}
	for r, want := range map[int]int{0: 4, 1: 4, 2: 1, 5: 1, 7: 1} {
		if fetches[r] != 2*want { // two calls
			t.Errorf("rank %d waits for %d lines of other cores, want %d", r, fetches[r], 2*want)
		}
	}
}

// MPI_Barrier from the threshold on is MPICH's composition: no message
// on a node, a dissemination between the nodes' first ranks; before it,
// and with the cells off, the flat dissemination (3 rounds on 8 ranks).
func TestCellBarrier(t *testing.T) {
	ops := func(p Params) []trace.Op { // two allreduces (c0, c1), then two barriers (c2, c3)
		tr := allreduceTrace(8, 8)
		for r := range 8 {
			tr = append(tr, trace.Op{Op: trace.MPIBarrier, Rank: r}, trace.Op{Op: trace.MPIBarrier, Rank: r})
		}
		return lower(tr, p, "mpi.")
	}
	one, two, off := sharedVariants(2)
	for _, c := range []struct {
		name              string
		p                 Params
		seq, rank         int
		wantHost, wantNet int
	}{
		{"one node, the first barrier", one, 2, 1, 3, 0},
		{"one node, from the threshold", one, 3, 1, 0, 0},
		{"cells off", off, 3, 1, 3, 0},
		{"two nodes, the first barrier", two, 2, 1, 2, 1},
		{"two nodes, a node's other rank", two, 3, 1, 0, 0},
		{"two nodes, a node's first rank", two, 3, 4, 0, 1},
	} {
		if host, net := posts(ops(c.p), c.rank, c.seq); host != c.wantHost || net != c.wantNet {
			t.Errorf("%s: rank %d posts %d host messages, %d between nodes; want %d, %d", c.name, c.rank, host, net, c.wantHost, c.wantNet)
		}
	}
	dataflow(t, ops(two), func(*machine) {}) // and every barrier ends
}

// posts counts rank's host messages (ready flags) and messages between
// nodes in its collective seq.
func posts(ops []trace.Op, rank, seq int) (host, net int) {
	prefix := fmt.Sprintf("mpi.c%d.", seq)
	for _, o := range ops {
		if o.Rank != rank {
			continue
		}
		if o.Op == trace.FlagSet && strings.HasPrefix(o.Flag, prefix) && strings.HasSuffix(o.Flag, ".rts") {
			host++
		}
		if o.Op == trace.MPIIsend && o.Tag == -1-seq {
			net++
		}
	}
	return host, net
}
