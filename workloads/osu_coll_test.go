package workloads

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// e8Order is E8's GCD order as ranks are added.
var e8Order = []int{0, 1, 6, 7, 2, 3, 4, 5}

// Every collective test runs on 2 and on 8 GCDs: one latency row per size
// named as the csv/json contract says, above E8's lower bounds at 1 MiB
// (8.7 us one pass, 17.4 us two), and dearer on 8 GCDs than on 2.
func TestOSUCollectives(t *testing.T) {
	bound := map[string]float64{"osu_reduce": 8.7, "osu_bcast": 8.7, "osu_allreduce": 17.4,
		"osu_reduce_scatter": 17.4, "osu_allgather": 17.4, "osu_alltoall": 17.4}
	for bench, lb := range bound {
		var at [2]float64
		for k, n := range []int{2, 8} {
			o := OSU{Bench: bench, GCDs: e8Order[:n], Sizes: []int64{4, 1 << 20}, Iterations: 1}
			runs, err := o.Runs()
			rows := mustExecute(t, frontier(t), runs, err).Rows
			dst := report.GCDs(e8Order[:n])
			for i, r := range rows {
				want := report.Row{Workload: "osu", Case: bench, Src: "gcd0", Dst: dst, Bytes: o.Sizes[i], Metric: "latency", Value: r.Value, Unit: "us"}
				if r != want || math.IsNaN(r.Value) || r.Value <= 0 {
					t.Errorf("%s on %d GCDs: row %+v, want %+v with a positive value", bench, n, r, want)
				}
			}
			if rows[1].Value < lb {
				t.Errorf("%s on %d GCDs at 1 MiB: %.2f us beats the lower bound %.1f us", bench, n, rows[1].Value, lb)
			}
			at[k] = rows[1].Value
		}
		if at[1] <= at[0] {
			t.Errorf("%s at 1 MiB: %.2f us on 8 GCDs, %.2f us on 2: want 8 dearer", bench, at[1], at[0])
		}
	}
}

// The default warm-up leaves the timed calls in steady state: an 8-GCD
// osu_allreduce gives what it gives after OSU's own 10 skipped iterations
// (8 B through the shared-memory cells, which take a communicator's calls
// from its 5th on and are set up on that call; with one warm-up the timed
// call would be the 2nd, on the point-to-point path).
func TestOSUCollectiveWarmupReachesSteadyState(t *testing.T) {
	for _, n := range []int64{8, 128} {
		def := osuRow(t, OSU{Bench: "osu_allreduce", GCDs: e8Order, Sizes: []int64{n}, Iterations: 1})
		osu := osuRow(t, OSU{Bench: "osu_allreduce", GCDs: e8Order, Sizes: []int64{n}, Iterations: 1, Warmup: 10, WarmupSet: true})
		one := osuRow(t, OSU{Bench: "osu_allreduce", GCDs: e8Order, Sizes: []int64{n}, Iterations: 1, Warmup: 1, WarmupSet: true})
		if math.Abs(def-osu) > 1e-9*osu {
			t.Errorf("%d B: %.4f us with the default warm-up, %.4f us after 10: want the same", n, def, osu)
		}
		if one == def { // through the cells once warm
			t.Errorf("%d B: %.4f us after one warm-up as after the default: want the point-to-point call's own time", n, one)
		}
	}
}

// A broadcast between two ranks is one message: over IPC the root's send
// completes when the child's copy does, so the mean time per rank is
// osu_latency's one-way time of the same size between the same GCDs.
// (A staged message frees the root after its copy into the bounce
// buffer, so the mean is lower there.)
func TestOSUBcastIsOneMessage(t *testing.T) {
	for _, n := range []int64{4096, 1 << 20} {
		bcast := osuRow(t, OSU{Bench: "osu_bcast", GCDs: []int{0, 6}, Sizes: []int64{n}, Iterations: 1})
		lat := osuRow(t, OSU{Bench: "osu_latency", GCDs: []int{0, 6}, Sizes: []int64{n}, Iterations: 1})
		if math.Abs(bcast-lat) > 0.05*lat {
			t.Errorf("%d B: osu_bcast %.2f us, osu_latency %.2f us: want within 5%%", n, bcast, lat)
		}
	}
}

// Reductions stage through host memory and reduce on the CPU (Cray MPICH's
// default), so a 1 MiB allreduce costs more than an allgather moving the
// same bytes between GPUs.
func TestOSUReductionsStage(t *testing.T) {
	ar := osuRow(t, OSU{Bench: "osu_allreduce", GCDs: e8Order[:4], Sizes: []int64{1 << 20}, Iterations: 1})
	ag := osuRow(t, OSU{Bench: "osu_allgather", GCDs: e8Order[:4], Sizes: []int64{1 << 18}, Iterations: 1})
	if ar <= ag {
		t.Errorf("allreduce of 1 MiB %.2f us, allgather of 4 x 256 KiB %.2f us: want the staged allreduce dearer", ar, ag)
	}
}

// The same run gives the same rows.
func TestOSUCollectiveDeterministic(t *testing.T) {
	o := OSU{Bench: "osu_allreduce", GCDs: e8Order[:5], Sizes: []int64{1 << 16, 1 << 20}, Iterations: 1}
	var got [2][]report.Row
	for i := range got {
		runs, err := o.Runs()
		got[i] = mustExecute(t, frontier(t), runs, err).Rows
	}
	if !reflect.DeepEqual(got[0], got[1]) {
		t.Errorf("two runs differ:\n%v\n%v", got[0], got[1])
	}
}

func TestOSUCollectiveErrors(t *testing.T) {
	for _, c := range []struct {
		o    OSU
		want string
	}{
		{OSU{Bench: "osu_allreduce", GCDs: []int{0}, Sizes: []int64{8}}, "-gcds: osu_allreduce runs one rank per GCD and needs at least two, got 1 GCDs"},
		{OSU{Bench: "osu_bw", GCDs: []int{0, 1, 2}, Sizes: []int64{8}}, "-gcds: osu_bw runs two ranks, got 3 GCDs"},
		{OSU{Bench: "osu_gather", GCDs: []int{0, 1}, Sizes: []int64{8}}, `-bench: unknown OSU benchmark "osu_gather" (want one of osu_latency, osu_bw, osu_bibw, osu_mbw_mr, osu_multi_lat, osu_reduce, osu_bcast, osu_allreduce, osu_reduce_scatter, osu_allgather, osu_alltoall)`},
	} {
		if _, err := c.o.Runs(); err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}

// A trace's collectives replay on their ranks: rows name the call and its
// line, a host reduction's first row is the staging copy down to the rank's
// NUMA domain, its last the copy back up, and the call returns after both.
// With GPU kernels (8.1.31's default) no row touches a NUMA domain.
func TestReplayCollective(t *testing.T) {
	for _, kernel := range []string{"0", "1"} {
		t.Run("MPICH_GPU_ALLREDUCE_USE_KERNEL="+kernel, func(t *testing.T) {
			replayCollective(t, kernel == "1")
		})
	}
}

func replayCollective(t *testing.T, kernel bool) {
	var ops []trace.Op
	for r := 0; r < 2; r++ {
		for _, b := range []string{"s", "d"} {
			a := alloc(fmt.Sprintf("%s%d", b, r), r, 1<<20)
			a.Rank = r
			ops = append(ops, a)
		}
	}
	for r := 0; r < 2; r++ {
		ops = append(ops, trace.Op{Op: trace.MPIAllreduce, Src: fmt.Sprintf("s%d", r), Dst: fmt.Sprintf("d%d", r), Bytes: 1 << 20, Rank: r})
	}
	for i := range ops {
		ops[i].Line = i + 1
	}
	set := "env.MPICH_GPU_ALLREDUCE_USE_KERNEL=0"
	if kernel {
		set = "env.MPICH_GPU_ALLREDUCE_USE_KERNEL=1"
	}
	res := mustExecute(t, frontier(t, set), []job.Run{TraceRun("ar.jsonl", ops)}, nil)
	var mine []report.Row // rank 0's call, line 5
	for _, r := range res.Rows {
		if r.Case == "line5:mpi_allreduce" {
			mine = append(mine, r)
		}
	}
	if len(mine) < 4 {
		t.Fatalf("rows of line 5: %v", mine)
	}
	first, last, ret := mine[0], mine[len(mine)-2], mine[len(mine)-1]
	if ret.Metric != "return" || ret.Value <= first.Value {
		t.Errorf("return row %+v after start %v", ret, first.Value)
	}
	if kernel {
		for _, r := range mine {
			if strings.HasPrefix(r.Src, "numa") || strings.HasPrefix(r.Dst, "numa") {
				t.Errorf("row %+v stages through the host with GPU kernels", r)
			}
		}
		return
	}
	if first.Src != "gcd0" || first.Dst != "numa3" || first.Metric != "start" {
		t.Errorf("first row %+v: want the staging copy from gcd0 to numa3", first)
	}
	if last.Src != "numa3" || last.Dst != "gcd0" || last.Metric != "bandwidth" {
		t.Errorf("last copy row %+v: want the copy back from numa3 to gcd0", last)
	}
}
