package workloads

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/halo"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/trace"
)

// newMHD is the MHD step of strategy over decomposition decomp on c.
func newMHD(c *config.Node, dims []int, procs int, strategy, decomp string) MHD {
	m := MHD{Strategy: strategy, Decomp: decomp, FP64GFlops: c.GCD.FP64GFlops, ComputeUnits: c.GCD.ComputeUnits,
		WorkgroupSlot: c.GCD.WorkgroupSlots, Warmup: 1, Steps: 1}
	m.Bench, m.Dims, m.Procs, m.Levels, m.GCDsPerNode = "mhd", dims, procs, halo.LUMILevels, c.GCD.Count
	m.GCDNUMA, m.PostNs, m.QueryNs, m.Yaksa = c.GlobalGCDNUMA(), c.MPI.PostNs, c.Runtime.APICallNs, c.Env.EnableYaksa == 1
	return m
}

// What a rank calls per step: three substeps of 2 hydro and 8 test-field
// kernels (shell and inner box) and a reduction, each stencil kernel
// moving its fields' bytes per point once, and two exchanges per substep,
// each launched before the inner box and waited for in the next.
func TestMHDOps(t *testing.T) {
	c := frontier(t)
	m := newMHD(c, []int{64, 64, 64}, 2, "acm-batched-he", halo.Hierarchical)
	m.Warmup, m.Steps = 0, 1
	runs, err := m.Runs()
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs %d, err %v", len(runs), err)
	}
	if want := "mhd/64x64x64/p:2/acm-batched-he/hierarchical"; runs[0].Name != want {
		t.Errorf("case %q, want %q", runs[0].Name, want)
	}
	var kernels = map[string]int{}
	var packs int
	perPoint := map[string]int64{} // bytes per point of the inner box's kernels
	d, _ := halo.Decompose(halo.Hierarchical, m.Dims, 2, halo.LUMILevels)
	_, inner := mhdRegions(d.Local)
	for _, o := range runs[0].Operations() {
		if o.Rank != 0 || o.Op != trace.Kernel {
			continue
		}
		if o.Name == "pack_batched" {
			packs++
			continue
		}
		kernels[o.Name]++
		if o.Grid == roundUp(inner, haloTPB) {
			var b int64
			for _, a := range o.Access {
				b += a.Bytes
			}
			perPoint[o.Name] = b / inner
		}
	}
	for s, name := range []string{"singlepass_solve_step0", "singlepass_solve_step1", "singlepass_solve_step2"} {
		if kernels[name] != 2 {
			t.Errorf("%s: %d launches, want 2 (shell, inner box)", name, kernels[name])
		}
		hydro := int64(12 * 8) // 4 fields in, 4 previous, 4 written
		if s == 2 {
			hydro += 4 * 8 // curl(UU), UU.curl(UU)
		}
		if perPoint[name] != hydro {
			t.Errorf("%s: %d B per point, want %d", name, perPoint[name], hydro)
		}
		tf := "singlepass_solve_step" + string(rune('0'+s)) + "_tfm_b12"
		want := int64(15 * 8) // a, previous a, UU read; a, u x b written
		if s == 2 {
			want += 3 * 8 // b
		}
		if kernels[tf] != 2 || perPoint[tf] != want {
			t.Errorf("%s: %d launches, %d B per point; want 2, %d", tf, kernels[tf], perPoint[tf], want)
		}
	}
	if kernels["reduce_xy_averages"] != 3 {
		t.Errorf("%d reductions, want one per substep", kernels["reduce_xy_averages"])
	}
	// the first launches before the step, then two per substep
	if packs != 2+2*3 {
		t.Errorf("%d batched packs, want 8", packs)
	}
}

// The compute per workgroup is the workgroup's flops at a CU's share of
// the FP64 peak, its slots sharing the CU: halving the peak doubles it.
func TestMHDComputeFromFlops(t *testing.T) {
	c := frontier(t)
	m := newMHD(c, []int{64, 64, 64}, 2, "acm-batched-he", halo.Hierarchical)
	k := m.stencil("k", 1024, 100, nil)
	want := 100.0 * haloTPB * float64(c.GCD.WorkgroupSlots) * float64(c.GCD.ComputeUnits) / c.GCD.FP64GFlops
	if k.ComputeNs != want || k.Grid != 1024 || k.Workgroup != haloTPB {
		t.Errorf("kernel %+v, want compute %g ns per workgroup of %d", k, want, haloTPB)
	}
	m.FP64GFlops /= 2
	if got := m.stencil("k", 1024, 100, nil).ComputeNs; got != 2*want {
		t.Errorf("half the peak: %g ns, want %g", got, 2*want)
	}
}

// acm's launch() ends where its wait() starts: at the first MPI_Wait.
func TestMHDSplit(t *testing.T) {
	ops := []trace.Op{{Op: trace.Kernel}, {Op: trace.MPIIrecv}, {Op: trace.MPIIsend}, {Op: trace.MPIWait}, {Op: trace.Kernel}}
	l, w := split(ops)
	if len(l) != 3 || len(w) != 2 || w[0].Op != trace.MPIWait {
		t.Errorf("launch %d ops, wait %d ops starting %v", len(l), len(w), w)
	}
	if l, w := split(ops[:2]); len(l) != 2 || w != nil {
		t.Errorf("no wait: launch %d, wait %d", len(l), len(w))
	}
}

// Steps after the warm-up take the same time (the model is
// deterministic and the step has no state), and the fully fused exchange
// over the hierarchical placement beats the pipelined one and MPI datatypes
// on 8 GCDs of one node. No barrier ends a step, so the first timed step
// still carries the ranks' skew from the warm-up (its IPC handle opens):
// it may differ by a few parts in a million (20 ns of 7.8 ms), the later
// ones by rounding only.
func TestMHDStepsAgreeAndFusedWins(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates two MHD steps on 8 GCDs")
	}
	c := frontier(t)
	var times []float64
	for _, s := range MHDStrategies {
		m := newMHD(c, []int{64, 64, 64}, 8, s, MHDDefaultDecomp[s])
		if s == "acm-batched-he" {
			m.Steps = 3
		}
		runs, err := m.Runs()
		var replay *job.Replay
		if err == nil {
			rows := runs[0].Rows
			runs[0].Rows = func(r *job.Replay) []report.Row { replay = r; return rows(r) }
		}
		res := mustExecute(t, c, runs, err)
		times = append(times, res.Rows[0].Value)
		if s == "acm-batched-he" {
			var at [5]float64
			for _, r := range replay.Ops {
				if r.Op.Rank == 0 && strings.HasPrefix(r.Op.Label, mhdStep+".") {
					at[r.Op.Label[len(mhdStep)+1]-'0'] = float64(r.Issue)
				}
			}
			first, a, b := at[2]-at[1], at[3]-at[2], at[4]-at[3]
			if a <= 0 || math.Abs(a-b)/a > 1e-9 {
				t.Errorf("the second and third timed steps take %g and %g s, want equal", a, b)
			}
			if math.Abs(first-a)/a > 1e-5 {
				t.Errorf("the first timed step takes %g s, the next %g: want within 1e-5", first, a)
			}
		}
	}
	for i, s := range MHDStrategies[1:] {
		if times[0] <= 0 || times[0] >= times[i+1] {
			t.Errorf("step: acm-batched-he %g us, %s %g us; want the fused exchange faster", times[0], s, times[i+1])
		}
	}
}

func TestMHDErrors(t *testing.T) {
	c := frontier(t)
	cases := []struct {
		edit func(*MHD)
		want string
	}{
		{func(m *MHD) { m.Strategy = "mpi-he-hindexed" }, `-strategy: the MHD step runs with acm-batched-he, acm-packed-he, mpi-he, not "mpi-he-hindexed"`},
		{func(m *MHD) { m.Dims = []int{128, 128} }, "-dims: the MHD solver's grid has 3 axes, got 2"},
		{func(m *MHD) { m.Procs = 64 }, "-procs 64: 64 ranks at 8 per node need 8 nodes, the run has 1 (-nodes)"},
		{func(m *MHD) { m.Dims = []int{8, 8, 8} }, "-dims 8,8,8 -procs 8: the local box has 4 points on axis 0, the stencils need at least 6"},
		{func(m *MHD) { m.Decomp = "rings" }, "-decomp rings -dims 128,128,128 -procs 8: "},
		{func(m *MHD) { m.Steps = 0 }, "mhd: want 1..100 steps in all, got 1 warm-up and 0 timed"},
	}
	for _, tc := range cases {
		m := newMHD(c, []int{128, 128, 128}, 8, "acm-batched-he", halo.Hierarchical)
		tc.edit(&m)
		_, err := m.Runs()
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
}

// A run that names the results it reads (job.Run.Keep) is replayed as a
// stream, its ranks' calls interleaved: the same simulation as the whole
// trace's, to the event, the stat and the row (the MHD step and the
// exchange, staged and IPC messages, on one node and across two).
func TestStreamedIsWhole(t *testing.T) {
	c := frontier(t, "network.nodes=2")
	m := newMHD(c, []int{64, 64, 64}, 16, "acm-batched-he", halo.Hierarchical)
	mhd, err := m.Runs()
	if err != nil {
		t.Fatal(err)
	}
	h := Halo{Bench: "exchange", Dims: []int{32, 32, 32}, Radius: 4, Fields: []int{2}, Strategies: []string{"mpi-he", "acm-packed-he"},
		QueryNs: c.Runtime.APICallNs, Warmup: 1, Samples: 2, Procs: 16, Decomps: []string{halo.MPIDefault}, Levels: halo.LUMILevels,
		GCDNUMA: c.GlobalGCDNUMA(), GCDsPerNode: c.GCD.Count, PostNs: c.MPI.PostNs, NUMA: c.Host.GCDNUMA[0]}
	x, err := h.Runs()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range append(mhd, x...) {
		if r.Keep == nil {
			t.Fatalf("%s: no Keep, so no stream", r.Name)
		}
		whole := r
		whole.Keep = nil
		got, want := mustExecute(t, c, []job.Run{r}, nil), mustExecute(t, c, []job.Run{whole}, nil)
		if got.Events != want.Events || !reflect.DeepEqual(got.Rows, want.Rows) {
			t.Errorf("%s: streamed %d events, rows %v; whole %d, %v", r.Name, got.Events, got.Rows, want.Events, want.Rows)
		}
		if g, w := statValues(got), statValues(want); !reflect.DeepEqual(g, w) {
			t.Errorf("%s: the streamed run's %d stats are not the whole run's %d", r.Name, len(g), len(w))
		}
	}
}

// statValues are a result's stats, name and value, the host's time aside.
func statValues(res *run.Result) map[string]float64 {
	v := map[string]float64{}
	for d := range res.Stats.List() {
		for _, s := range d {
			if s.Name != "hostSeconds" && s.Name != "hostTickRate" {
				v[s.Name] = s.Value
			}
		}
	}
	return v
}
