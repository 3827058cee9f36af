package workloads

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// RCCLTests replicates rccl-tests (all_reduce_perf and its siblings) run
// as one process driving every GCD (`-g n`): per size it creates a
// communicator over the GCDs, allocates each GCD's send and receive
// buffers, runs Warmup collectives, then times Iterations collectives
// (each a group of one call per GCD on that GCD's stream) from the host,
// waiting for every stream at the end; out of place (send -> receive
// buffer), then in place (the receive buffer both). time = elapsed /
// iterations; algbw = size / time; busbw = algbw x the collective's factor.
type RCCLTests struct {
	Bench      string  // all_reduce_perf, ...
	GCDs       []int   // comm rank i on GCDs[i]
	Sizes      []int64 // bytes, rccl-tests' size
	Datatype   string  // rccl-tests -d (float)
	Root       int     // rccl-tests -r
	Warmup     int     // rccl-tests -w
	Iterations int     // rccl-tests -n
	RedOp      string  // rccl-tests -o ("": sum)
	// Blocking (rccl-tests -z 1) waits for every stream after each
	// collective, so no launch overlaps the one before
	Blocking bool
	// GCDsPerNode, if > 0 and the GCDs span nodes, runs one process per
	// node (rccl-tests under mpirun, -g per node): rank k drives node k's
	// GCDs, each in its own group.
	GCDsPerNode int
	// Threads (rccl-tests -t n -g 1) drives each GCD from its own host
	// thread of one process: thread r launches rank r's calls and times
	// its own loop after a barrier of the threads, and the time printed
	// is the threads' mean (rccl-tests' default -a 1).
	Threads bool
	// BudgetBytes, if > 0, bounds the bytes a size's collectives move in
	// simulation: above BudgetBytes / (Warmup + Iterations) a size runs one
	// warm-up and fewer timed iterations (at least one). A deterministic
	// simulation repeats the same iteration; the launch pipeline's fill,
	// which more iterations amortise, is a few us against the ms these
	// sizes take.
	BudgetBytes int64
	// MaxBytes is rccl-tests -e (0: the largest of Sizes). startColl
	// moves timed iteration i of a size to offset (i mod MaxBytes/size) x
	// size of its MaxBytes-sized buffers "so that we avoid cache effects"
	// (rccl-tests src/common.cu), so below -e an iteration's data is not
	// in the L2 from the one before. The untimed iteration before them is
	// at offset 0, as are the model's warm-ups.
	MaxBytes int64
	// OutOfPlace runs only the out-of-place half and gives only its rows
	// (validate reads no other): the in-place half comes after it in the
	// same run, so it changes nothing the out-of-place rows measure.
	OutOfPlace bool
}

// RCCLBudget is the CLI's BudgetBytes unless -iters or -warmup is given:
// rccl-tests' 5 + 20 iterations up to 1 MiB, fewer above.
const RCCLBudget = 32 << 20

// iterations is the warm-up and timed iterations of a collective of size bytes.
func (t RCCLTests) iterations(size int64) (warm, timed int) {
	total := t.Warmup + t.Iterations
	if t.BudgetBytes <= 0 || int64(total)*size <= t.BudgetBytes {
		return t.Warmup, t.Iterations
	}
	fit := int(max(2, min(int64(total), t.BudgetBytes/size)))
	return 1, fit - 1
}

// RCCLBenchmarks maps each rccl-tests binary to the collective it runs.
var RCCLBenchmarks = map[string]trace.Kind{
	"all_reduce_perf": trace.RCCLAllReduce, "all_gather_perf": trace.RCCLAllGather,
	"reduce_scatter_perf": trace.RCCLReduceScatter, "broadcast_perf": trace.RCCLBroadcast,
	"reduce_perf": trace.RCCLReduce, "alltoall_perf": trace.RCCLAllToAll, "sendrecv_perf": trace.RCCLSend,
}

// RCCLBenchNames are the binaries in rccl-tests' order.
var RCCLBenchNames = []string{"all_reduce_perf", "all_gather_perf", "reduce_scatter_perf", "broadcast_perf",
	"reduce_perf", "alltoall_perf", "sendrecv_perf"}

// BusFactor is rccl-tests' busbw / algbw for collective k over n ranks.
func BusFactor(k trace.Kind, n int) float64 {
	switch k {
	case trace.RCCLAllReduce:
		return 2 * float64(n-1) / float64(n)
	case trace.RCCLAllGather, trace.RCCLReduceScatter, trace.RCCLAllToAll:
		return float64(n-1) / float64(n)
	}
	return 1
}

// Runs lists one run per size.
func (t RCCLTests) Runs() ([]job.Run, error) {
	k, ok := RCCLBenchmarks[t.Bench]
	if !ok {
		return nil, fmt.Errorf("-bench: unknown rccl-tests benchmark %q (want %s)", t.Bench, strings.Join(RCCLBenchNames, ", "))
	}
	n, least := len(t.GCDs), 1
	if k == trace.RCCLSend {
		least = 2
	}
	if n < least {
		return nil, fmt.Errorf("-gcds: %s needs at least %d GCDs, got %d", t.Bench, least, n)
	}
	if t.Root < 0 || t.Root >= n {
		return nil, fmt.Errorf("-root: rank %d is outside the %d GCDs", t.Root, n)
	}
	sizes, err := t.RunBytes()
	if err != nil {
		return nil, err
	}
	var runs []job.Run
	for _, s := range sizes {
		runs = append(runs, t.run(k, s))
	}
	return runs, nil
}

// RunBytes are the sizes the runs move, in order: each of Sizes rounded
// down to whole elements (per rank where the data is split), as
// rccl-tests rounds them.
func (t RCCLTests) RunBytes() ([]int64, error) {
	k := RCCLBenchmarks[t.Bench]
	unit := trace.Datatypes[t.Datatype]
	if k == trace.RCCLAllGather || k == trace.RCCLReduceScatter || k == trace.RCCLAllToAll {
		unit *= int64(len(t.GCDs))
	}
	var out []int64
	for _, s := range t.Sizes {
		if unit < 1 || s/unit < 1 {
			return nil, fmt.Errorf("-sizes: %d bytes is less than one %s element per rank (%d bytes)", s, t.Datatype, unit)
		}
		out = append(out, s/unit*unit)
	}
	return out, nil
}

// Labels of the host clock readings.
const rcclStart, rcclStop = "rccl.t_start", "rccl.t_end"

func (t RCCLTests) run(k trace.Kind, size int64) job.Run {
	n := len(t.GCDs)
	var ops []trace.Op
	probe := trace.Op{Op: k, Bytes: size}
	in, out := probe.CollectiveBytes(n)
	warm, timed := t.iterations(size)
	// the shifts the timed iterations take; the buffers are allocated as
	// far as they reach (rccl-tests allocates -e bytes, the rest untouched)
	slots := max(1, min(int64(timed), t.maxBytes()/size))
	shift := func(i int) int64 { return size * (int64(i) % slots) }
	for r, g := range t.GCDs {
		ops = append(ops, trace.Op{Op: trace.Malloc, Buf: fmt.Sprintf("send%d", r), GCD: intp(g), Bytes: in + shift(int(slots-1))},
			// in place, the receive buffer holds the input too (rccl-tests
			// offsets the output inside it for AllGather and ReduceScatter)
			trace.Op{Op: trace.Malloc, Buf: fmt.Sprintf("recv%d", r), GCD: intp(g), Bytes: max(in, out) + shift(int(slots-1))})
	}
	rankOf := func(g int) int { // the process (or thread) driving GCD g
		if t.Threads {
			return slices.Index(t.GCDs, g)
		}
		if t.GCDsPerNode <= 0 {
			return 0
		}
		return g/t.GCDsPerNode - slices.Min(t.GCDs)/t.GCDsPerNode
	}
	procs := rankOf(slices.Max(t.GCDs)) + 1
	if t.Threads {
		procs = n
	}
	for r := range t.GCDs {
		ops[2*r].Rank, ops[2*r+1].Rank = rankOf(t.GCDs[r]), rankOf(t.GCDs[r])
	}
	ops = append(ops, trace.Op{Op: trace.RCCLCommInit, Comm: "world", GCDs: slices.Clone(t.GCDs)})
	if procs > 1 { // the other processes go on once the communicator exists (ncclCommInitRank is collective)
		ops = append(ops, trace.Op{Op: trace.FlagSet, Flag: "rccl-tests.init"})
		for p := 1; p < procs; p++ {
			ops = append(ops, trace.Op{Op: trace.FlagWait, Flag: "rccl-tests.init", Rank: p})
		}
	}
	// an iteration: one call per GCD, between ncclGroupStart and
	// ncclGroupEnd as rccl-tests makes them (its sends and receives launch
	// together), in each process
	group := func(inPlace bool, off int64) {
		for p := range procs {
			ops = append(ops, trace.Op{Op: trace.RCCLGroupStart, Rank: p})
			groupOf(&ops, t, k, size, p, rankOf, inPlace, off)
			ops = append(ops, trace.Op{Op: trace.RCCLGroupEnd, Rank: p})
		}
	}
	sync := func() {
		for r, g := range t.GCDs {
			ops = append(ops, trace.Op{Op: trace.StreamSync, Stream: r + 1, Rank: rankOf(g)})
		}
	}
	places := []bool{false, true}
	if t.OutOfPlace {
		places = places[:1]
	}
	for i, inPlace := range places {
		for range warm {
			group(inPlace, 0)
		}
		sync()
		for _, p := range t.timers(procs) {
			if t.Threads { // the threads' barrier before their clocks start
				barrier(&ops, fmt.Sprintf("rccl-tests.bar.%d", i), p, procs)
			}
			ops = append(ops, trace.Op{Op: trace.HostCompute, Label: fmt.Sprintf("%s.%d", rcclStart, i), Rank: p})
		}
		for it := range timed {
			group(inPlace, shift(it))
			if t.Blocking {
				sync()
			}
		}
		sync()
		for _, p := range t.timers(procs) {
			ops = append(ops, trace.Op{Op: trace.HostCompute, Label: fmt.Sprintf("%s.%d", rcclStop, i), Rank: p})
		}
	}
	// its cost: the bytes its calls move, out of place and in place
	cost := int64(len(places)*(warm+timed)) * int64(n) * max(in, out)
	return job.Run{Name: fmt.Sprintf("%s/%d", t.Bench, size), Ops: ops, Rows: t.rows(k, size, timed), Cost: cost}
}

// timers are the ranks whose clocks time the loop: every thread with
// Threads, else rank 0.
func (t RCCLTests) timers(procs int) []int {
	if !t.Threads {
		return []int{0}
	}
	ps := make([]int, procs)
	for p := range ps {
		ps[p] = p
	}
	return ps
}

// barrier appends thread p's part of a barrier of n threads: it sets its
// flag, then waits for every other thread's.
func barrier(ops *[]trace.Op, name string, p, n int) {
	*ops = append(*ops, trace.Op{Op: trace.FlagSet, Flag: fmt.Sprintf("%s.%d", name, p), Rank: p})
	for q := range n {
		if q != p {
			*ops = append(*ops, trace.Op{Op: trace.FlagWait, Flag: fmt.Sprintf("%s.%d", name, q), Rank: p})
		}
	}
}

// maxBytes is rccl-tests' -e: MaxBytes, or the largest size.
func (t RCCLTests) maxBytes() int64 {
	if t.MaxBytes > 0 {
		return t.MaxBytes
	}
	return slices.Max(t.Sizes)
}

// groupOf appends process p's calls of one iteration of collective k of
// size bytes, off bytes into their buffers: one per GCD it drives.
func groupOf(ops *[]trace.Op, t RCCLTests, k trace.Kind, size int64, p int, rankOf func(int) int, inPlace bool, off int64) {
	n := len(t.GCDs)
	for r, g := range t.GCDs {
		if rankOf(g) != p {
			continue
		}
		src := fmt.Sprintf("send%d", r)
		if inPlace {
			src = fmt.Sprintf("recv%d", r)
		}
		call := trace.Op{Op: k, Comm: "world", GCD: intp(g), Src: src, Dst: fmt.Sprintf("recv%d", r),
			SrcOff: off, DstOff: off, Bytes: size, Datatype: t.Datatype, Stream: r + 1, Rank: p}
		switch k {
		case trace.RCCLAllReduce, trace.RCCLReduceScatter, trace.RCCLReduce:
			call.RedOp = cmp.Or(t.RedOp, "sum")
		}
		if k == trace.RCCLBroadcast || k == trace.RCCLReduce {
			call.Root = intp(t.Root)
		}
		if k == trace.RCCLSend { // sendrecv_perf: to the next rank, from the previous
			recv := trace.Op{Op: trace.RCCLRecv, Comm: "world", GCD: intp(g), Buf: fmt.Sprintf("recv%d", r), DstOff: off,
				Bytes: size, Datatype: t.Datatype, Peer: intp((r + n - 1) % n), Stream: r + 1, Rank: p}
			call = trace.Op{Op: trace.RCCLSend, Comm: "world", GCD: intp(g), Buf: src, SrcOff: off,
				Bytes: size, Datatype: t.Datatype, Peer: intp((r + 1) % n), Stream: r + 1, Rank: p}
			*ops = append(*ops, call, recv)
			continue
		}
		*ops = append(*ops, call)
	}
}

// rows reads a run's timing: the host clock around the timed iterations,
// rank 0's or the mean of the threads'.
func (t RCCLTests) rows(k trace.Kind, size int64, timed int) func(r *job.Replay) []report.Row {
	n := len(t.GCDs)
	return func(r *job.Replay) []report.Row {
		at, count := map[string]float64{}, map[string]float64{}
		for _, res := range r.Ops {
			if strings.HasPrefix(res.Op.Label, "rccl.t_") {
				at[res.Op.Label] += float64(res.Issue)
				count[res.Op.Label]++
			}
		}
		for l := range at {
			at[l] /= count[l]
		}
		var rows []report.Row
		places := []string{"", "_inplace"}
		if t.OutOfPlace {
			places = places[:1]
		}
		for i, place := range places {
			sec := (at[fmt.Sprintf("%s.%d", rcclStop, i)] - at[fmt.Sprintf("%s.%d", rcclStart, i)]) / float64(timed)
			row := report.Row{Workload: "rccl", Case: t.Bench, Src: report.GCD(t.GCDs[0]), Dst: report.GCDs(t.GCDs), Bytes: size}
			algbw := gbps(float64(size), sec)
			for _, m := range []struct {
				name, unit string
				v          float64
			}{{"latency", "us", sec * 1e6}, {"bandwidth", "GB/s", algbw}, {"busbw", "GB/s", algbw * BusFactor(k, n)}} {
				row.Metric, row.Value, row.Unit = m.name+place, m.v, m.unit
				rows = append(rows, row)
			}
		}
		return rows
	}
}
