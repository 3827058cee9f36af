package mpi_test

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/halo"
	"github.com/akisim/akisim/ir"
	"github.com/akisim/akisim/mpi"
	"github.com/akisim/akisim/trace"
	"github.com/akisim/akisim/workloads"
)

// Commands hands out Expand's commands, chunk by chunk, each chunk but
// the last of the length asked for: staged, IPC and network messages,
// collectives, and a trace without MPI calls. Given an order, they are
// Expand's commands of the ops reordered so.
func TestCommandsAreExpand(t *testing.T) {
	c, err := config.Load(filepath.Join("..", "configs", "frontier-cluster.toml"), []string{"network.nodes=2"})
	if err != nil {
		t.Fatal(err)
	}
	p := mpi.FromConfig(c)
	var traces [][]trace.Op
	for _, b := range []string{"osu_bw", "osu_allreduce", "osu_alltoall"} {
		gcds := []int{0, 1, 2, 8, 9}
		if b == "osu_bw" {
			gcds = []int{0, 8}
		}
		rs, err := workloads.OSU{Bench: b, GCDs: gcds, Sizes: []int64{64, 1 << 20}, Window: 4, Iterations: 2}.Runs()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			traces = append(traces, r.Operations())
		}
	}
	h := workloads.Halo{Bench: "exchange", Dims: []int{32, 32, 32}, Radius: 4, Fields: []int{2}, Strategies: workloads.HaloExchangeLabels,
		QueryNs: c.Runtime.APICallNs, Warmup: 1, Samples: 1, Procs: 16, Decomps: []string{halo.Hierarchical}, Levels: halo.LUMILevels,
		GCDNUMA: c.GlobalGCDNUMA(), GCDsPerNode: c.GCD.Count, PostNs: c.MPI.PostNs, NUMA: c.Host.GCDNUMA[0]}
	rs, err := h.Runs()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		traces = append(traces, r.Operations())
	}
	plain := make([]trace.Op, 15) // no MPI call: the ops as they are
	for i := range plain {
		plain[i] = trace.Op{Op: trace.HostCompute, Rank: i % 3, ComputeNs: float64(i)}
	}
	traces = append(traces, plain)
	for k, ops := range traces {
		for _, order := range [][]int32{nil, byTurns(ops)} {
			want := mpi.Expand(reordered(ops, order), p)
			if got := chunks(t, k, commands(t, ops, order, p)); !reflect.DeepEqual(got, want) {
				t.Errorf("trace %d (order given: %t): the chunks' %d commands are not Expand's %d", k, order != nil, len(got), len(want))
			}
		}
	}
}

// byTurns orders ops a call of each rank in turn, each rank's calls in
// their order (as a streamed run interleaves them).
func byTurns(ops []trace.Op) []int32 {
	var ranks []int
	at := map[int][]int32{}
	for i, o := range ops {
		if at[o.Rank] == nil {
			ranks = append(ranks, o.Rank)
		}
		at[o.Rank] = append(at[o.Rank], int32(i))
	}
	var order []int32
	for len(order) < len(ops) {
		for _, r := range ranks {
			if l := at[r]; len(l) > 0 {
				order, at[r] = append(order, l[0]), l[1:]
			}
		}
	}
	return order
}

// reordered is ops in order (nil: as they are).
func reordered(ops []trace.Op, order []int32) []trace.Op {
	if order == nil {
		return ops
	}
	out := make([]trace.Op, len(ops))
	for k, i := range order {
		out[k] = ops[i]
	}
	return out
}

// chunks drains src, checking that every chunk but the last has 7
// commands.
func chunks(t *testing.T, k int, src *mpi.Commands) []ir.Command {
	t.Helper()
	var got []ir.Command
	for {
		chunk, err := src.Next()
		if err != nil {
			t.Fatal(err)
		}
		if len(chunk) == 0 {
			return got
		}
		if len(got)%7 != 0 || len(chunk) > 7 {
			t.Fatalf("trace %d: a chunk of %d after %d commands, want chunks of 7 until the last", k, len(chunk), len(got))
		}
		got = append(got, chunk...)
	}
}

// commands is mpi.NewCommands in chunks of 7, which a test's trace passes.
func commands(t *testing.T, ops []trace.Op, order []int32, p mpi.Params) *mpi.Commands {
	c, err := mpi.NewCommands(ops, order, p, 7)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
