package workloads

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/halo"
	"github.com/akisim/akisim/hip"
	"github.com/akisim/akisim/invariant"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/node"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/trace"
)

func sampleTraces(t *testing.T) []job.Run {
	_, file, _, _ := runtime.Caller(0)
	paths, _ := filepath.Glob(filepath.Join(filepath.Dir(file), "..", "traces", "*.jsonl"))
	var runs []job.Run
	for _, p := range paths {
		ops, err := trace.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, TraceRun(p, ops))
	}
	if len(runs) == 0 {
		t.Fatal("no sample traces found")
	}
	return runs
}

// checked runs runs on c with the invariants checked and fails on any
// violation or if a run of more than one node sent nothing over its
// network (then the NIC, cable and switch checks saw no traffic).
func checked(t *testing.T, c *config.Node, runs []job.Run, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	run.AfterRun = func(n *node.Node, r job.Run, _ []hip.OpResult) {
		var carried uint64
		for _, l := range append(n.NICLinks, n.NetLinks...) {
			if l == nil {
				continue // not built: no route crossed it
			}
			_, p, _ := l.Stats(0)
			carried += p
		}
		if c.Nodes() > 1 && carried == 0 {
			t.Errorf("%s: nothing crossed the network", r.Name)
		}
	}
	defer func() { run.AfterRun = nil }()
	if _, err := run.Execute(c, runs, run.WithCheck()); err != nil {
		t.Fatal(err)
	}
}

// The invariants hold over every workload and every sample trace.
func TestInvariants(t *testing.T) {
	runs := append(granularityRuns(t), sampleTraces(t)...)
	cs := DefaultCommScope(8, 4)
	for _, r := range cs.Runs() {
		if strings.Contains(r.Name, "/0/1/") && strings.Contains(r.Name, "log2(N):20/") {
			runs = append(runs, r)
		}
	}
	checked(t, frontier(t), runs, nil)
}

// They hold over the libraries' runs too: RCCL's kernels and flags, MPI's
// copies and flags, halo's packs and exchanges, TransferBench's
// executors, and two nodes whose NICs, PCIe links, cables and switches
// carry the traffic.
func TestInvariantsLibraries(t *testing.T) {
	all := []int{0, 1, 2, 3, 4, 5, 6, 7}
	for _, proto := range []string{"LL", "Simple"} {
		t.Run("rccl-"+proto, func(t *testing.T) {
			runs, err := RCCLTests{Bench: "all_reduce_perf", GCDs: all, Sizes: []int64{1 << 10, 4 << 20},
				Datatype: "float", Warmup: 1, Iterations: 1}.Runs()
			checked(t, frontier(t, "env.NCCL_PROTO="+proto), runs, err)
		})
	}
	t.Run("osu_bw", func(t *testing.T) {
		runs, err := OSU{Bench: "osu_bw", GCDs: []int{0, 1}, Sizes: []int64{8, 1 << 20}, Window: 4, Iterations: 1}.Runs()
		checked(t, frontier(t), runs, err)
	})
	t.Run("osu_allreduce", func(t *testing.T) {
		runs, err := OSU{Bench: "osu_allreduce", GCDs: e8Order[:4], Sizes: []int64{4, 1 << 20}, Iterations: 1}.Runs()
		checked(t, frontier(t), runs, err)
	})
	t.Run("osu_latency-2nodes", func(t *testing.T) {
		runs, err := OSU{Bench: "osu_latency", GCDs: []int{0, 8}, Sizes: []int64{8, 1 << 20}, Iterations: 1}.Runs()
		checked(t, frontier(t, "network.nodes=2"), runs, err)
	})
	t.Run("rccl-2nodes", func(t *testing.T) {
		runs, err := RCCLTests{Bench: "all_reduce_perf", GCDs: []int{0, 1, 8, 9}, Sizes: []int64{1 << 20},
			Datatype: "float", Warmup: 1, Iterations: 1}.Runs()
		checked(t, frontier(t, "network.nodes=2"), runs, err)
	})
	t.Run("halo-pack", func(t *testing.T) {
		runs, err := haloPack(t, []int{32, 32, 32}, HaloPackLabels, 2).Runs()
		checked(t, frontier(t), runs, err)
	})
	t.Run("halo-exchange-2nodes", func(t *testing.T) {
		c := frontier(t, "network.nodes=2")
		h := Halo{Bench: "exchange", Dims: []int{16, 16, 16}, Radius: 2, Fields: []int{1}, Strategies: []string{"mpi-he"},
			QueryNs: c.Runtime.APICallNs, Yaksa: c.Env.EnableYaksa == 1, Warmup: 0, Samples: 1, Procs: 16,
			Decomps: []string{halo.MPIDefault}, Levels: halo.LUMILevels, GCDNUMA: c.GlobalGCDNUMA(), GCDsPerNode: c.GCD.Count,
			PostNs: c.MPI.PostNs}
		runs, err := h.Runs()
		checked(t, c, runs, err)
	})
	t.Run("transferbench", func(t *testing.T) {
		c := frontier(t)
		runs, err := tbOn(c, parseTB(t, "2 4 (G0->G0->G1) (C0->G2->G2)\n")).Runs()
		checked(t, c, runs, err)
	})
}

// A deliberately broken component is caught: an HBM that moved more than
// its peak allows, and an L2 that served bytes it never got.
func TestInvariantsCatchABrokenComponent(t *testing.T) {
	invariant.Corrupt = func(n *node.Node) {
		n.GCDs[0].HBM.BytesRead += 1 << 40
		n.GCDs[0].L2.HitBytes = n.GCDs[0].L2.ReadBytes + 1
	}
	defer func() { invariant.Corrupt = nil }()
	st := Stream{GCDs: []int{0}, Alloc: "local", Sizes: []int64{1 << 20}, Kernels: []string{"copy"},
		Iterations: 1, Workgroup: 128, NUMA: frontier(t).Host.GCDNUMA}
	runs, _ := st.Runs()
	_, err := run.Execute(frontier(t), runs, run.WithCheck())
	var hbm, l2 bool
	if e, ok := err.(*invariant.Error); ok {
		for _, v := range e.Violations {
			hbm = hbm || v.Invariant == invariant.Peak && v.Component == "Node.GCD[0].HBM"
			l2 = l2 || v.Invariant == invariant.L2Hits && v.Component == "Node.GCD[0].L2"
		}
	}
	if !hbm || !l2 {
		t.Errorf("broken HBM caught %v, broken L2 caught %v: %v", hbm, l2, err)
	}
}

// The peak invariant is the physical bound of a collective ("bytes over
// peak bandwidth") on every resource it crosses: claimed a thousand times
// slower after the run, the xGMI bundles, HBM, NIC PCIe links, NIC DMA
// engines and network cables an RCCL all_reduce over two nodes used each
// break it.
func TestPeakCoversACollective(t *testing.T) {
	invariant.Corrupt = func(n *node.Node) {
		c := *n.Config
		c.XGMI.LaneBandwidthGBps /= 1000
		c.GCD.HBMBandwidthGBps /= 1000
		c.NIC.PCIe.BandwidthGBps /= 1000
		c.Network.Link.BandwidthGBps /= 1000
		n.Config = &c
	}
	defer func() { invariant.Corrupt = nil }()
	runs, err := RCCLTests{Bench: "all_reduce_perf", GCDs: []int{0, 1, 2, 3, 8, 9, 10, 11}, Sizes: []int64{4 << 20},
		Datatype: "float", Warmup: 0, Iterations: 1}.Runs()
	if err != nil {
		t.Fatal(err)
	}
	_, err = run.Execute(frontier(t, "network.nodes=2"), runs, run.WithCheck())
	e, ok := err.(*invariant.Error)
	if !ok {
		t.Fatalf("want violations, got %v", err)
	}
	kinds := []string{".XGMI[", ".HBM", ".PCIe dir", ".DMA[0].datapath", "Network.Cable["}
	broke := map[string]bool{}
	for _, v := range e.Violations {
		if v.Invariant == invariant.Peak {
			for _, kind := range kinds {
				broke[kind] = broke[kind] || strings.Contains(v.Component, kind)
			}
		}
	}
	for _, kind := range kinds {
		if !broke[kind] {
			t.Errorf("no %s resource broke its peak: %v", kind, e)
		}
	}
}
