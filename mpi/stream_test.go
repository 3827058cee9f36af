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
// the last of the length asked for, reading the calls as a stream that
// hands them out one at a time, each gone once the next is read: staged,
// IPC and network messages, collectives, and a trace without MPI calls.
func TestCommandsAreExpand(t *testing.T) {
	c, err := config.Load(filepath.Join("..", "configs", "frontier-cluster.toml"), []string{"network.nodes=2"})
	if err != nil {
		t.Fatal(err)
	}
	p := mpi.FromConfig(c)
	var runs []func() ([]ir.Command, *mpi.Commands)
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
			runs = append(runs, func() ([]ir.Command, *mpi.Commands) {
				return mpi.Expand(r.Operations(), p), commands(r.Operations(), p)
			})
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
		runs = append(runs, func() ([]ir.Command, *mpi.Commands) {
			return mpi.Expand(r.Operations(), p), commands(r.Operations(), p)
		})
	}
	plain := make([]trace.Op, 15) // no MPI call: the ops as they are
	for i := range plain {
		plain[i] = trace.Op{Op: trace.HostCompute, Rank: i % 3, ComputeNs: float64(i)}
	}
	runs = append(runs, func() ([]ir.Command, *mpi.Commands) { return mpi.Expand(plain, p), commands(plain, p) })
	for k, run := range runs {
		want, src := run()
		var got []ir.Command
		drain(t, src, func(chunk []ir.Command) {
			if len(got)%7 != 0 || len(chunk) > 7 {
				t.Fatalf("run %d: a chunk of %d after %d commands, want chunks of 7 until the last", k, len(chunk), len(got))
			}
			got = append(got, chunk...)
		})
		if !reflect.DeepEqual(got, want) {
			t.Errorf("run %d: the chunks' %d commands are not Expand's %d", k, len(got), len(want))
		}
	}
}

// commands is NewCommands of ops in chunks of 7, read from a copy of
// each op that is spoilt once the next is read: what Commands keeps of a
// call it must copy.
func commands(ops []trace.Op, p mpi.Params) *mpi.Commands {
	read := func() trace.Reader {
		k := 0
		var cur trace.Op
		return func() *trace.Op {
			cur = trace.Op{Op: "spoilt", Buf: "spoilt", Rank: -1, Line: -1, Access: []trace.Access{{Buf: "spoilt"}}}
			if k == len(ops) {
				return nil
			}
			cur, k = ops[k], k+1
			return &cur
		}
	}
	return mpi.NewCommands(read, trace.Ranks(ops), p, 7)
}

// Interleaved as a run replays them (rounds of 64 calls of each rank),
// the calls are read ahead of their expansion only about as far as a
// round or two: what the messages of the call expanded next need. An MHD
// step on 64 ranks (each making about 1,900 calls) reads under three
// rounds ahead (1.8 when written), not the whole trace.
func TestCommandsReadLittleAhead(t *testing.T) {
	c, err := config.Load(filepath.Join("..", "configs", "frontier-cluster.toml"), []string{"network.nodes=8"})
	if err != nil {
		t.Fatal(err)
	}
	m := workloads.MHD{Strategy: "acm-batched-he", Decomp: halo.Hierarchical, FP64GFlops: c.GCD.FP64GFlops,
		ComputeUnits: c.GCD.XCDs * c.GCD.ComputeUnits, WorkgroupSlot: c.GCD.WorkgroupSlots, Warmup: 1, Steps: 1}
	m.Bench, m.Dims, m.Procs, m.Levels, m.GCDsPerNode = "mhd", []int{64, 64, 64}, 64, halo.LUMILevels, c.GCD.Count
	m.GCDNUMA, m.PostNs, m.QueryNs = c.GlobalGCDNUMA(), c.MPI.PostNs, c.Runtime.APICallNs
	rs, err := m.Runs()
	if err != nil {
		t.Fatal(err)
	}
	p := *rs[0].Program
	const quota = 64
	src := mpi.NewCommands(func() trace.Reader { return p.Interleaved(quota) }, p.Ranks(), mpi.FromConfig(c), 4096)
	most, cmds := 0, 0
	drain(t, src, func(chunk []ir.Command) {
		cmds += len(chunk)
		most = max(most, src.Ahead())
	})
	calls := len(p.Ops())
	if round := quota * m.Procs; most > 3*round || cmds < calls {
		t.Errorf("%d calls, %d commands: read up to %d calls ahead, want under three rounds (%d)", calls, cmds, most, 3*round)
	}
}

// drain hands each of src's chunks to f, until the last.
func drain(t *testing.T, src *mpi.Commands, f func([]ir.Command)) {
	for {
		chunk, err := src.Next()
		if err != nil {
			t.Fatal(err)
		}
		if len(chunk) == 0 {
			return
		}
		f(chunk)
	}
}
