package mpi_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/halo"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/mpi"
	"github.com/akisim/akisim/workloads"
)

// The expansion makes its commands in a slice made at the size it counted
// first: the count must follow every path (staged, IPC, CPU-copied IPC,
// inline, eager and rendezvous puts, the collectives' host and device
// paths, the shared-memory cells, IPC handles missing the cache) command
// for command, or the slice grows or wastes room.
func TestCountIsExact(t *testing.T) {
	sizes := []int64{1, 64, 1024, 8192, 65536, 1 << 20, 4 << 20}
	for _, sets := range [][]string{{}, {"env.MPICH_GPU_ALLREDUCE_USE_KERNEL=1"}, {"env.MPICH_GPU_IPC_ENABLED=0"},
		{"env.MPICH_SHARED_MEM_COLL_OPT=0"}, {"env.MPICH_GPU_IPC_CACHE_MAX_SIZE=1"}} {
		c, err := config.Load(filepath.Join("..", "configs", "frontier-cluster.toml"), append([]string{"network.nodes=2"}, sets...))
		if err != nil {
			t.Fatal(err)
		}
		p := mpi.FromConfig(c)
		for _, gcds := range [][]int{{0, 1}, {0, 8}, {0, 1, 2, 3, 4, 5}, {0, 1, 2, 8, 9}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}} {
			for _, b := range []string{"osu_latency", "osu_bw", "osu_bibw", "osu_reduce", "osu_bcast", "osu_allreduce",
				"osu_reduce_scatter", "osu_allgather", "osu_alltoall"} {
				if len(gcds) != 2 && (b == "osu_latency" || b == "osu_bw" || b == "osu_bibw") {
					continue
				}
				runs, err := workloads.OSU{Bench: b, GCDs: gcds, Sizes: sizes, Window: 4, Iterations: 2}.Runs()
				if err != nil {
					t.Fatal(err)
				}
				countsRuns(t, fmt.Sprint(sets, gcds), runs, p)
			}
		}
	}
	c, err := config.Load(filepath.Join("..", "configs", "frontier-node.toml"), []string{"network.nodes=8"})
	if err != nil {
		t.Fatal(err)
	}
	h := workloads.Halo{Bench: "exchange", Dims: []int{64, 64, 64}, Radius: 4, Fields: []int{1, 2}, Strategies: workloads.HaloExchangeLabels,
		QueryNs: c.Runtime.APICallNs, Yaksa: c.Env.EnableYaksa == 1, Warmup: 1, Samples: 1, Procs: 64,
		Decomps: []string{halo.MPIDefault, halo.Hierarchical}, Levels: halo.LUMILevels, GCDNUMA: c.GlobalGCDNUMA(),
		GCDsPerNode: c.GCD.Count, PostNs: c.MPI.PostNs, NUMA: c.Host.GCDNUMA[0]}
	runs, err := h.Runs()
	if err != nil {
		t.Fatal(err)
	}
	countsRuns(t, "halo", runs, mpi.FromConfig(c))
}

// countsRuns expands each run's ops and checks the count was exact.
func countsRuns(t *testing.T, what string, runs []job.Run, p mpi.Params) {
	t.Helper()
	for _, r := range runs {
		cmds, counted := mpi.ExpandCounted(r.Operations(), p)
		if counted != len(cmds) {
			t.Errorf("%s %s: counted %d commands, made %d", what, r.Name, counted, len(cmds))
		}
	}
}
