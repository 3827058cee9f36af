package commcheck

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/akisim/akisim/trace"
)

// collBufs gives ranks 0..n-1 device buffers s<r> and d<r> of bytes on
// GCD r.
func collBufs(n int, bytes int64) string {
	var b strings.Builder
	for r := 0; r < n; r++ {
		for _, x := range []string{"s", "d"} {
			fmt.Fprintf(&b, `{"op":"malloc","buf":"%s%d","gcd":%d,"bytes":%d,"rank":%d}`+"\n", x, r, r, bytes, r)
		}
	}
	return b.String()
}

// coll is the line of rank r making collective body (fields after "op").
func coll(kind string, r int, body string) string {
	return fmt.Sprintf(`{"op":"%s",%s"rank":%d}`, kind, body, r) + "\n"
}

// Every collective checks out when each rank makes it, with buffers
// holding what it moves: allgather's dst and alltoall's both buffers n
// blocks, reduce_scatter's dst its block only, reduce's dst at the root.
func TestMPICollectives(t *testing.T) {
	in := collBufs(3, 3072)
	for r := 0; r < 3; r++ {
		in += coll("mpi_bcast", r, fmt.Sprintf(`"buf":"s%d","bytes":3072,"root":2,`, r))
	}
	for r := 0; r < 3; r++ {
		dst := ""
		if r == 1 {
			dst = `"dst":"d1",`
		}
		in += coll("mpi_reduce", r, fmt.Sprintf(`"src":"s%d",%s"bytes":3072,"root":1,`, r, dst))
	}
	for _, k := range []struct {
		kind  string
		bytes int
	}{{"mpi_allreduce", 3072}, {"mpi_reduce_scatter", 3072}, {"mpi_allgather", 1024}, {"mpi_alltoall", 1024}, {"mpi_barrier", 0}} {
		for r := 0; r < 3; r++ {
			body := fmt.Sprintf(`"src":"s%d","dst":"d%d","bytes":%d,`, r, r, k.bytes)
			if k.bytes == 0 {
				body = ""
			}
			in += coll(k.kind, r, body)
		}
	}
	checked(t, in)
}

func TestReduceScatterBlock(t *testing.T) {
	for _, c := range []struct {
		total int64
		n, i  int
		want  int64
	}{{1048576, 8, 7, 131072}, {10, 3, 0, 4}, {10, 3, 1, 3}, {10, 3, 2, 3}, {2, 3, 2, 0}} {
		if got := trace.ReduceScatterBlock(c.total, c.n, c.i); got != c.want {
			t.Errorf("ReduceScatterBlock(%d, %d, %d) = %d, want %d", c.total, c.n, c.i, got, c.want)
		}
	}
}

func TestMPICollectiveErrors(t *testing.T) {
	bufs := collBufs(2, 4096)
	ar := func(r int, bytes int) string {
		return coll("mpi_allreduce", r, fmt.Sprintf(`"src":"s%d","dst":"d%d","bytes":%d,`, r, r, bytes))
	}
	for _, tc := range []struct{ in, want string }{
		{bufs + ar(0, 64), `t.jsonl:5: op: rank 1 never makes this mpi_allreduce (its collective 1): every rank of the communicator must`},
		{bufs + ar(0, 64) + ar(1, 64) + ar(1, 64), `t.jsonl:7: op: rank 0 never makes this mpi_allreduce (its collective 2): every rank of the communicator must`},
		{bufs + ar(0, 64) + ar(1, 128), `t.jsonl:6: bytes: 128, but rank 0's mpi_allreduce (collective 1, line 5) has 64`},
		{bufs + ar(0, 64) + coll("mpi_barrier", 1, ""), `t.jsonl:6: op: mpi_barrier, but rank 0's collective 1 (line 5) is mpi_allreduce: every rank makes the same collectives in the same order`},
		{bufs + coll("mpi_bcast", 0, `"buf":"s0","bytes":64,"root":0,`) + coll("mpi_bcast", 1, `"buf":"s1","bytes":64,"root":1,`),
			`t.jsonl:6: root: 1, but rank 0's mpi_bcast (collective 1, line 5) has root 0`},
		{bufs + coll("mpi_bcast", 0, `"buf":"s0","bytes":64,"root":2,`), `t.jsonl:5: root: rank 2 is not in the communicator (the trace's ranks 0,1)`},
		{bufs + coll("mpi_bcast", 0, `"buf":"s0","bytes":64,`), `t.jsonl:5: root: required by mpi_bcast`},
		{bufs + coll("mpi_reduce", 0, `"src":"s0","bytes":64,"root":0,`), `t.jsonl:5: dst: required by mpi_reduce`},
		{bufs + ar(0, 0), `t.jsonl:5: bytes: must be > 0, got 0`},
		{bufs + ar(0, 8192), `t.jsonl:5: bytes: mpi_allreduce src of 8192 bytes at offset 0 exceeds buffer "s0" of 4096 bytes`},
		{bufs + coll("mpi_allgather", 0, `"src":"s0","dst":"d0","bytes":4096,`), `t.jsonl:5: bytes: mpi_allgather dst of 8192 bytes at offset 0 exceeds buffer "d0" of 4096 bytes`},
		{bufs + coll("mpi_alltoall", 0, `"src":"s0","dst":"d0","bytes":4096,`), `t.jsonl:5: bytes: mpi_alltoall src of 8192 bytes at offset 0 exceeds buffer "s0" of 4096 bytes`},
		{bufs + coll("mpi_allreduce", 0, `"src":"s1","dst":"d0","bytes":64,`), `t.jsonl:5: src: buffer "s1" belongs to rank 1 (allocated on line 3): a rank reaches another's memory only through MPI`},
		{bufs + `{"op":"host_malloc","buf":"h","numa":0,"bytes":64}` + "\n" + coll("mpi_allreduce", 0, `"src":"h","dst":"d0","bytes":64,`),
			`t.jsonl:6: src: "h" is host memory: MPI on host buffers is not modelled yet (GPU buffers only)`},
		{bufs + coll("mpi_barrier", 0, `"root":0,`), `t.jsonl:5: root: not used by mpi_barrier`},
		{collBufs(1, 64) + coll("mpi_barrier", 0, ""), `t.jsonl:3: op: mpi_barrier needs a communicator of at least 2 ranks, the trace has 1`},
	} {
		checkFails(t, tc.in, tc.want)
	}
}

// With lines ascending, the collective left open that collLeft reports
// from the shortest sequence is the one every pair of ranks compared
// finds: random ranks' sequences of random lengths, interleaved.
func TestCollLeftShortest(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 500; trial++ {
		n := 2 + rng.IntN(6)
		m := newMPIStateOf(nil)
		want := make([]int, n) // each rank's number of calls
		left := 0
		for r := range n {
			m.ranks = append(m.ranks, 2*r) // not 0..n-1: ranks are names
			want[r] = rng.IntN(4)
			left += want[r]
		}
		for line := 1; left > 0; line++ {
			r := rng.IntN(n)
			if len(m.colls[2*r]) == want[r] {
				continue
			}
			kind := trace.MPIBarrier
			if rng.IntN(2) == 0 {
				kind = trace.MPIAllreduce
			}
			m.colls[2*r] = append(m.colls[2*r], collCall{kind: kind, line: line})
			left--
		}
		got, all := m.collLeft("t"), m.collLeftAny("t")
		if (got == nil) != (all == nil) || got != nil && got.Error() != all.Error() {
			t.Fatalf("lengths %v: collLeft %v, every pair %v", want, got, all)
		}
	}
}

// Collectives whose lines do not ascend (ops made in memory) are
// compared pair by pair: the open call at the earliest line is rank 2's
// third, which rank 1 never makes, though rank 0 made fewer.
func TestCollLeftUnordered(t *testing.T) {
	var ops []trace.Op
	for _, c := range []struct{ rank, line int }{{0, 50}, {1, 51}, {2, 52}, {1, 53}, {2, 54}, {2, 3}} {
		ops = append(ops, trace.Op{Op: trace.MPIBarrier, Rank: c.rank, Line: c.line})
	}
	err := trace.Check(ops, testNode, "t")
	want := "t:3: op: rank 1 never makes this mpi_barrier (its collective 3): every rank of the communicator must"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}
