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
// collectives, and a trace without MPI calls.
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
				return mpi.Expand(r.Operations(), p), commands(t, r.Operations(), p)
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
			return mpi.Expand(r.Operations(), p), commands(t, r.Operations(), p)
		})
	}
	plain := make([]trace.Op, 15) // no MPI call: the ops as they are
	for i := range plain {
		plain[i] = trace.Op{Op: trace.HostCompute, Rank: i % 3, ComputeNs: float64(i)}
	}
	runs = append(runs, func() ([]ir.Command, *mpi.Commands) { return mpi.Expand(plain, p), commands(t, plain, p) })
	for k, run := range runs {
		want, src := run()
		var got []ir.Command
		for {
			chunk, err := src.Next()
			if err != nil {
				t.Fatal(err)
			}
			if len(chunk) == 0 {
				break
			}
			if len(got)%7 != 0 || len(chunk) > 7 {
				t.Fatalf("run %d: a chunk of %d after %d commands, want chunks of 7 until the last", k, len(chunk), len(got))
			}
			got = append(got, chunk...)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("run %d: the chunks' %d commands are not Expand's %d", k, len(got), len(want))
		}
	}
}

// commands is mpi.NewCommands in chunks of 7, which a test's trace passes.
func commands(t *testing.T, ops []trace.Op, p mpi.Params) *mpi.Commands {
	c, err := mpi.NewCommands(ops, p, 7)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
