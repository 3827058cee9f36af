package workloads

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// rcclRows runs rccl-tests bench on gcds for sizes, one warm-up and one
// timed iteration, and returns its rows keyed by size, then metric.
func rcclRows(t *testing.T, bench string, gcds []int, sizes ...int64) map[int64]map[string]report.Row {
	t.Helper()
	tt := RCCLTests{Bench: bench, GCDs: gcds, Sizes: sizes, Datatype: "float", Warmup: 1, Iterations: 1}
	runs, err := tt.Runs()
	res := mustExecute(t, frontier(t), runs, err)
	m := map[int64]map[string]report.Row{}
	for _, r := range res.Rows {
		if m[r.Bytes] == nil {
			m[r.Bytes] = map[string]report.Row{}
		}
		if _, dup := m[r.Bytes][r.Metric]; dup {
			t.Errorf("%s: two %s rows at %d bytes", bench, r.Metric, r.Bytes)
		}
		m[r.Bytes][r.Metric] = r
	}
	return m
}

// busFactors are rccl-tests' busbw / algbw (its *_perf.cu getBw) over n ranks.
func busFactors(n int) map[string]float64 {
	f := float64(n)
	return map[string]float64{
		"all_reduce_perf": 2 * (f - 1) / f, "all_gather_perf": (f - 1) / f, "reduce_scatter_perf": (f - 1) / f,
		"alltoall_perf": (f - 1) / f, "broadcast_perf": 1, "reduce_perf": 1, "sendrecv_perf": 1,
	}
}

// Every benchmark runs on 2 and 8 GCDs and gives, out of place and in
// place, a latency, algbw = size / time and busbw = algbw x the
// collective's factor, in the row contract (case = benchmark, src = the
// first GCD, dst = the GCDs).
func TestRCCLBenches(t *testing.T) {
	const size = 1 << 16
	for _, gcds := range [][]int{{0, 1}, {0, 1, 2, 3, 4, 5, 6, 7}} {
		for _, bench := range RCCLBenchNames {
			rows := rcclRows(t, bench, gcds, size)
			if len(rows) != 1 || len(rows[size]) != 6 {
				t.Errorf("%s on %v: rows %v, want 6 at %d bytes", bench, gcds, rows, size)
				continue
			}
			for _, place := range []string{"", "_inplace"} {
				lat, alg, bus := rows[size]["latency"+place], rows[size]["bandwidth"+place], rows[size]["busbw"+place]
				where := fmt.Sprintf("%s%s on %v", bench, place, gcds)
				if lat.Unit != "us" || alg.Unit != "GB/s" || bus.Unit != "GB/s" {
					t.Errorf("%s: units %q %q %q", where, lat.Unit, alg.Unit, bus.Unit)
				}
				if !(lat.Value > 0) || math.IsInf(lat.Value, 0) {
					t.Errorf("%s: latency %g us", where, lat.Value)
					continue
				}
				if want := size / (lat.Value * 1e3); math.Abs(alg.Value-want) > 1e-9*want {
					t.Errorf("%s: algbw %g GB/s, want size/time %g", where, alg.Value, want)
				}
				if want := alg.Value * busFactors(len(gcds))[bench]; math.Abs(bus.Value-want) > 1e-9*want {
					t.Errorf("%s: busbw %g GB/s, want algbw x factor %g", where, bus.Value, want)
				}
				for _, r := range []report.Row{lat, alg, bus} {
					if r.Workload != "rccl" || r.Case != bench || r.Src != report.GCD(gcds[0]) || r.Dst != report.GCDs(gcds) {
						t.Errorf("%s: row %+v", where, r)
					}
				}
			}
		}
	}
}

// Small AllReduces on the whole node take the same time, RCCL's latency
// (launch, LL steps around the ring): within 10% from 8 B to 1 KiB.
func TestRCCLAllReduceFlatSmall(t *testing.T) {
	var sizes []int64
	for s := int64(8); s <= 1024; s *= 2 {
		sizes = append(sizes, s)
	}
	rows := rcclRows(t, "all_reduce_perf", []int{0, 1, 2, 3, 4, 5, 6, 7}, sizes...)
	var lat []float64
	for _, s := range sizes {
		lat = append(lat, rows[s]["latency"].Value)
	}
	if lo, hi := slices.Min(lat), slices.Max(lat); !(lo > 0) || hi > 1.1*lo {
		t.Errorf("latency (us) from 8 B to 1 KiB %v: not within 10%%", lat)
	}
}

// Large AllReduces on the whole node fill the rings more as they grow:
// busbw does not fall from 16 MiB to 256 MiB.
func TestRCCLAllReduceBusbwRises(t *testing.T) {
	if testing.Short() {
		t.Skip("256 MiB on 8 GCDs")
	}
	var sizes []int64
	for s := int64(16 << 20); s <= 256<<20; s *= 2 {
		sizes = append(sizes, s)
	}
	rows := rcclRows(t, "all_reduce_perf", []int{0, 1, 2, 3, 4, 5, 6, 7}, sizes...)
	var bus []float64
	for _, s := range sizes {
		bus = append(bus, rows[s]["busbw"].Value)
	}
	for i := 1; i < len(bus); i++ {
		if bus[i] < bus[i-1] {
			t.Errorf("busbw (GB/s) from 16 to 256 MiB %v: falls at %d MiB", bus, sizes[i]>>20)
		}
	}
}

// Bad benchmark settings are one line naming the flag.
func TestRCCLTestsErrors(t *testing.T) {
	for _, tc := range []struct {
		tt   RCCLTests
		want string
	}{
		{RCCLTests{Bench: "allreduce", GCDs: []int{0, 1}, Sizes: []int64{8}, Datatype: "float"},
			"-bench: unknown rccl-tests benchmark \"allreduce\" (want " + strings.Join(RCCLBenchNames, ", ") + ")"},
		{RCCLTests{Bench: "sendrecv_perf", GCDs: []int{0}, Sizes: []int64{8}, Datatype: "float"},
			"-gcds: sendrecv_perf needs at least 2 GCDs, got 1"},
		{RCCLTests{Bench: "all_reduce_perf", Sizes: []int64{8}, Datatype: "float"},
			"-gcds: all_reduce_perf needs at least 1 GCDs, got 0"},
		{RCCLTests{Bench: "broadcast_perf", GCDs: []int{0, 1}, Sizes: []int64{8}, Datatype: "float", Root: 2},
			"-root: rank 2 is outside the 2 GCDs"},
		{RCCLTests{Bench: "reduce_perf", GCDs: []int{0, 1}, Sizes: []int64{8}, Datatype: "float", Root: -1},
			"-root: rank -1 is outside the 2 GCDs"},
		{RCCLTests{Bench: "all_gather_perf", GCDs: []int{0, 1}, Sizes: []int64{4}, Datatype: "float"},
			"-sizes: 4 bytes is less than one float element per rank (8 bytes)"},
		{RCCLTests{Bench: "all_reduce_perf", GCDs: []int{0, 1}, Sizes: []int64{4}, Datatype: "double"},
			"-sizes: 4 bytes is less than one double element per rank (8 bytes)"},
	} {
		if _, err := tc.tt.Runs(); err == nil || err.Error() != tc.want {
			t.Errorf("%+v:\n got %v\nwant %s", tc.tt, err, tc.want)
		}
	}
}

// rccl-tests rounds a size down to whole elements (per rank where the
// data is split): rows report the size run.
func TestRCCLTestsRoundsSizes(t *testing.T) {
	tt := RCCLTests{Bench: "all_gather_perf", GCDs: []int{0, 1}, Sizes: []int64{100, 4096}, Datatype: "float", Warmup: 1, Iterations: 1}
	runs, err := tt.Runs()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range runs {
		names = append(names, r.Name)
	}
	if want := []string{"all_gather_perf/96", "all_gather_perf/4096"}; !slices.Equal(names, want) {
		t.Errorf("runs %v, want %v", names, want)
	}
}

// Below -e, rccl-tests' startColl runs timed iteration i at i x size
// into its -e bytes buffers (modulo how many fit): every timed call of
// every bench is at its iteration's offset, the warm-ups at 0, and the
// buffers reach the last offset used. On 8 GCDs at 1 MiB the shifted
// iterations find their data outside the L2, so they take longer than
// iterations that reuse one place.
func TestRCCLTestsShiftIterations(t *testing.T) {
	const size = 1 << 20
	for _, bench := range []string{"all_reduce_perf", "all_gather_perf", "reduce_scatter_perf", "broadcast_perf", "reduce_perf", "alltoall_perf", "sendrecv_perf"} {
		for _, c := range []struct {
			max  int64
			want []int64 // the timed iterations' offsets
		}{{size, []int64{0, 0, 0, 0}}, {3 * size, []int64{0, size, 2 * size, 0}}, {64 * size, []int64{0, size, 2 * size, 3 * size}}} {
			tt := RCCLTests{Bench: bench, GCDs: []int{0, 1}, Sizes: []int64{size}, Datatype: "float", Warmup: 2, Iterations: 4, MaxBytes: c.max}
			runs, err := tt.Runs()
			if err != nil {
				t.Fatal(err)
			}
			var offs []int64
			last := map[string]int64{}
			for _, o := range runs[0].Ops {
				if o.IsRCCL() && o.GCD != nil && *o.GCD == 0 && o.Op != trace.RCCLRecv && o.Op != trace.RCCLCommInit {
					offs = append(offs, o.SrcOff)
					if o.DstOff != o.SrcOff && o.Op != trace.RCCLSend {
						t.Errorf("%s: src_offset %d, dst_offset %d", bench, o.SrcOff, o.DstOff)
					}
				}
				if o.Op == trace.Malloc {
					last[o.Buf] = o.Bytes
				}
			}
			// out of place, then in place: two warm-ups at 0, then the timed ones
			want := slices.Concat([]int64{0, 0}, c.want, []int64{0, 0}, c.want)
			if !slices.Equal(offs, want) {
				t.Errorf("%s -e %d: offsets %v, want %v", bench, c.max, offs, want)
			}
			if got, reach := last["recv0"], slices.Max(c.want)+size; got < reach {
				t.Errorf("%s -e %d: receive buffer of %d bytes, the last iteration reaches %d", bench, c.max, got, reach)
			}
		}
	}
	time := func(max int64) float64 {
		tt := RCCLTests{Bench: "all_reduce_perf", GCDs: []int{0, 1, 2, 3, 4, 5, 6, 7}, Sizes: []int64{size}, Datatype: "float",
			Warmup: 1, Iterations: 4, MaxBytes: max}
		runs, err := tt.Runs()
		for _, r := range mustExecute(t, frontier(t), runs, err).Rows {
			if r.Metric == "latency" {
				return r.Value
			}
		}
		t.Fatal("no latency row")
		return 0
	}
	if same, shifted := time(size), time(1<<30); shifted <= same {
		t.Errorf("1 MiB all_reduce on 8 GCDs: %.2f us with shifted iterations, %.2f us in one place: want slower", shifted, same)
	}
}

// OutOfPlace runs only the out-of-place half: its rows are the full run's
// out-of-place rows, value for value, from fewer operations.
func TestRCCLTestsOutOfPlaceOnly(t *testing.T) {
	c := frontier(t)
	tt := RCCLTests{Bench: "all_reduce_perf", GCDs: []int{0, 1, 2, 3}, Sizes: []int64{4096, 1 << 20}, Datatype: "float", Warmup: 1, Iterations: 2}
	full, err := tt.Runs()
	both := mustExecute(t, c, full, err).Rows
	tt.OutOfPlace = true
	half, err := tt.Runs()
	out := mustExecute(t, c, half, err).Rows
	var want []report.Row
	for _, r := range both {
		if !strings.HasSuffix(r.Metric, "_inplace") {
			want = append(want, r)
		}
	}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("out-of-place only:\n%v\nwant the full run's out-of-place rows:\n%v", out, want)
	}
	if len(half[0].Ops) >= len(full[0].Ops) {
		t.Errorf("%d ops out of place only, %d in the full run: want fewer", len(half[0].Ops), len(full[0].Ops))
	}
}

// With Threads (rccl-tests -t n -g 1) each GCD's calls and clock belong
// to its own thread, and the time is the threads' mean. A Broadcast
// root's kernels end once the next rank's FIFO holds their data, so its
// thread stops before the chain's last rank, and the mean drops below the
// one thread's time, which waits for every stream. An AllGather's ranks
// finish together: its mean drops only by the launches the threads issue
// side by side, less than half the Broadcast's drop.
func TestRCCLTestsThreads(t *testing.T) {
	c := frontier(t)
	gcds := []int{0, 1, 6}
	timeOf := func(bench string, threads bool) float64 {
		t.Helper()
		tt := RCCLTests{Bench: bench, GCDs: gcds, Sizes: []int64{1 << 20}, Datatype: "float", Warmup: 1, Iterations: 5,
			OutOfPlace: true, Threads: threads}
		runs, err := tt.Runs()
		if threads && err == nil {
			clocks := map[int]int{}
			for _, o := range runs[0].Ops {
				if strings.HasPrefix(o.Label, rcclStart) {
					clocks[o.Rank]++
				}
				if o.Op == trace.RCCLAllGather || o.Op == trace.RCCLBroadcast {
					if g := gcds[o.Rank]; *o.GCD != g {
						t.Errorf("%s: thread %d calls on GCD %d, want %d", bench, o.Rank, *o.GCD, g)
					}
				}
			}
			if want := map[int]int{0: 1, 1: 1, 2: 1}; !reflect.DeepEqual(clocks, want) {
				t.Errorf("%s: clocks started per thread %v, want %v", bench, clocks, want)
			}
		}
		return mustExecute(t, c, runs, err).Rows[0].Value
	}
	drop := func(bench string) float64 {
		t.Helper()
		one, threads := timeOf(bench, false), timeOf(bench, true)
		return 1 - threads/one
	}
	bc, ag := drop("broadcast_perf"), drop("all_gather_perf")
	if bc <= 0 || ag < 0 || bc < 2*ag {
		t.Errorf("the threads' mean drops %.1f%% for broadcast_perf, %.1f%% for all_gather_perf: want the Broadcast's above twice the AllGather's, neither negative",
			100*bc, 100*ag)
	}
}
