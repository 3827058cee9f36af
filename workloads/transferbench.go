package workloads

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// TransferBench replicates ROCm's TransferBench v1.52 running a config file
// (docs/model/transferbench.md "TransferBench"). Per test, every iteration the main
// thread starts one host thread per GPU kernel executor and per DMA or CPU
// transfer, and joins them; the warm-ups are dropped and the times of the
// timed iterations averaged:
//
//   - G<gpu>: one kernel on the GPU for all its transfers, SE threadblocks of
//     BlockSize threads each, launched between two events on one stream;
//     a transfer's time is its kernel's (TransferBench reads the blocks'
//     wall clocks, the kernel here runs its transfers' blocks side by side);
//   - D<gpu>: hipMemcpyAsync between two events on the thread's stream;
//   - C<numa>: SE threads on the NUMA domain load the sources and store the
//     destinations, timed by the CPU clock.
//
// The aggregate is the CPU time from starting the threads to joining them.
type TransferBench struct {
	Config     *TBConfig
	Sizes      []int64 // bytes per transfer where a line gives none (the command line's N)
	Iterations int     // NUM_ITERATIONS
	Warmups    int     // NUM_WARMUPS
	BlockSize  int     // GFX_BLOCK_SIZE: threads per threadblock
	Unroll     int     // GFX_UNROLL: float4 loads in flight per thread
	GCDs       int     // GPUs of the node
	NUMA       int     // NUMA domains of the node
}

// tbExeOrder is TransferBench's executor order (ExeType: CPU, GPU, DMA).
var tbExeOrder = map[byte]int{'C': 0, 'G': 1, 'D': 2}

// tbExecutor is one executor of a test and its transfers (indices).
type tbExecutor struct {
	exe       byte
	index     int
	transfers []int
}

// tbTest is one test: a config line at one size.
type tbTest struct {
	num  int
	line TBLine
	size int64
}

// Runs checks the config against the node and lists one run per test.
func (tb TransferBench) Runs() ([]job.Run, error) {
	if tb.Iterations < 1 || tb.Warmups < 0 {
		return nil, fmt.Errorf("want at least 1 timed iteration and no negative warm-ups, got %d and %d", tb.Iterations, tb.Warmups)
	}
	if tb.BlockSize < 64 || tb.BlockSize > 512 || tb.BlockSize%64 != 0 {
		return nil, fmt.Errorf("env.GFX_BLOCK_SIZE: want a multiple of 64 up to 512, got %d", tb.BlockSize)
	}
	for _, n := range tb.Sizes {
		if n < 4 || n%4 != 0 {
			return nil, fmt.Errorf("-sizes: TransferBench moves floats, want a multiple of 4 bytes, got %d", n)
		}
	}
	for _, l := range tb.Config.Lines {
		if err := tb.checkLine(l); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", tb.Config.Path, l.Line, err)
		}
	}
	var runs []job.Run
	num := 0
	for _, l := range tb.Config.Lines {
		for _, n := range tb.Sizes {
			num++
			runs = append(runs, tb.run(tbTest{num: num, line: l, size: n}))
		}
	}
	return runs, nil
}

// checkLine checks a line's devices and executors against the node.
func (tb TransferBench) checkLine(l TBLine) error {
	for i, t := range l.Transfers {
		for _, m := range slices.Concat(t.Srcs, t.Dsts) {
			switch {
			case m.Kind == 'M':
				return fmt.Errorf("transfer %d: memory type M (managed) is not modelled by the transferbench workload", i)
			case (m.Kind == 'G' || m.Kind == 'F') && m.Index >= tb.GCDs:
				return fmt.Errorf("transfer %d: %c%d: the node has GPUs 0..%d", i, m.Kind, m.Index, tb.GCDs-1)
			case (m.Kind == 'C' || m.Kind == 'B' || m.Kind == 'U') && m.Index >= tb.NUMA:
				return fmt.Errorf("transfer %d: %c%d: the node has NUMA domains 0..%d", i, m.Kind, m.Index, tb.NUMA-1)
			}
		}
		switch {
		case t.Exe == 'C' && t.ExeIndex >= tb.NUMA:
			return fmt.Errorf("transfer %d: C%d: the node has NUMA domains 0..%d", i, t.ExeIndex, tb.NUMA-1)
		case t.Exe != 'C' && t.ExeIndex >= tb.GCDs:
			return fmt.Errorf("transfer %d: %c%d: the node has GPUs 0..%d", i, t.Exe, t.ExeIndex, tb.GCDs-1)
		case t.Exe == 'D' && t.ExeSub >= 0:
			return fmt.Errorf("transfer %d: D%d.%d: a DMA executor on one SDMA engine is not modelled (akisim's runtime picks the engine, as hipMemcpyAsync)", i, t.ExeIndex, t.ExeSub)
		case t.Exe == 'D':
			g, ok := tbCopyGPU(t.Srcs[0], t.Dsts[0])
			if !ok {
				return fmt.Errorf("transfer %d: a DMA copy between two host memories is not modelled", i)
			}
			if g != t.ExeIndex {
				return fmt.Errorf("transfer %d: D%d: the copy runs on GPU %d's engines in akisim's runtime (the source's for a peer copy, the device side's for a host copy), not on GPU %d's", i, t.ExeIndex, g, t.ExeIndex)
			}
		}
	}
	return nil
}

// tbCopyGPU is the GPU whose SDMA engines run a copy from src to dst in
// akisim's runtime (hip.engineFor): the source's for a peer copy, the
// device side's for a host copy; false for host to host.
func tbCopyGPU(src, dst TBMem) (int, bool) {
	onGPU := func(m TBMem) bool { return m.Kind == 'G' || m.Kind == 'F' }
	switch {
	case onGPU(src):
		return src.Index, true
	case onGPU(dst):
		return dst.Index, true
	}
	return 0, false
}

// executors groups a test's transfers by executor, in TransferBench's order.
func tbExecutors(ts []TBTransfer) []tbExecutor {
	var es []tbExecutor
	for i, t := range ts {
		k := slices.IndexFunc(es, func(e tbExecutor) bool { return e.exe == t.Exe && e.index == t.ExeIndex })
		if k < 0 {
			es = append(es, tbExecutor{exe: t.Exe, index: t.ExeIndex})
			k = len(es) - 1
		}
		es[k].transfers = append(es[k].transfers, i)
	}
	slices.SortStableFunc(es, func(a, b tbExecutor) int {
		return cmp.Or(cmp.Compare(tbExeOrder[a.exe], tbExeOrder[b.exe]), cmp.Compare(a.index, b.index))
	})
	return es
}

// bytes is transfer t's size in test x.
func (x tbTest) bytes(t TBTransfer) int64 {
	if t.Bytes != 0 {
		return t.Bytes
	}
	return x.size
}

// tbBuf names transfer i's j-th source or destination buffer.
func tbBuf(i int, side string, j int) string { return fmt.Sprintf("x%d.%s%d", i, side, j) }

// tbAlloc allocates memory m as TransferBench does (AllocateMemory).
func tbAlloc(name string, m TBMem, bytes int64) trace.Op {
	switch m.Kind {
	case 'C': // hipHostMalloc NUMA-user, non-coherent
		return trace.Op{Op: trace.HostMalloc, Buf: name, NUMA: intp(m.Index), Bytes: bytes, NonCoherent: true}
	case 'B':
		return hostAlloc(name, m.Index, bytes)
	case 'U': // numa_alloc_onnode
		return trace.Op{Op: trace.MallocPageable, Buf: name, NUMA: intp(m.Index), Bytes: bytes}
	case 'F': // hipExtMallocWithFlags, fine-grained
		return trace.Op{Op: trace.Malloc, Buf: name, GCD: intp(m.Index), Bytes: bytes, Fine: true}
	}
	return alloc(name, m.Index, bytes)
}

// tbAccess is what transfer i's executor touches: its sources read and
// its destinations written.
func (x tbTest) access(i int) []trace.Access {
	t := x.line.Transfers[i]
	var as []trace.Access
	for j := range t.Srcs {
		as = append(as, trace.Access{Buf: tbBuf(i, "src", j), Mode: "read", Bytes: x.bytes(t)})
	}
	for j := range t.Dsts {
		as = append(as, trace.Access{Buf: tbBuf(i, "dst", j), Mode: "write", Bytes: x.bytes(t)})
	}
	return as
}

// tbThread is one host thread of an iteration: an executor's (GPU) or a
// transfer's (DMA, CPU).
type tbThread struct {
	rank      int
	exe       tbExecutor
	transfers []int
}

// threads are the test's worker threads, ranks 1.. in executor order.
func (x tbTest) threads() []tbThread {
	var th []tbThread
	for _, e := range tbExecutors(x.line.Transfers) {
		if e.exe == 'G' {
			th = append(th, tbThread{rank: len(th) + 1, exe: e, transfers: e.transfers})
			continue
		}
		for _, i := range e.transfers {
			th = append(th, tbThread{rank: len(th) + 1, exe: e, transfers: []int{i}})
		}
	}
	return th
}

// tbLabel names what a thread does in an iteration.
func tbLabel(it, rank int, what string) string { return fmt.Sprintf("tb.%d.%d.%s", it, rank, what) }

func (tb TransferBench) run(x tbTest) job.Run {
	name := fmt.Sprintf("transferbench/test%d", x.num)
	return job.Run{Name: name, Build: func() []trace.Op { return tb.ops(x) }, Rows: func(r *job.Replay) []report.Row { return tb.rows(x, r) }}
}

// ops are the test's operations: the allocations, then per iteration the
// main thread (rank 0) and the worker threads.
func (tb TransferBench) ops(x tbTest) []trace.Op {
	// A rank reaches only its own memory (trace "Ranks"): each thread
	// allocates its transfers' buffers, and the main thread starts the
	// iterations once all have.
	var ops []trace.Op
	threads := x.threads()
	for _, th := range threads {
		first := len(ops)
		for _, i := range th.transfers {
			t := x.line.Transfers[i]
			for j, m := range t.Srcs {
				ops = append(ops, tbAlloc(tbBuf(i, "src", j), m, x.bytes(t)))
			}
			for j, m := range t.Dsts {
				ops = append(ops, tbAlloc(tbBuf(i, "dst", j), m, x.bytes(t)))
			}
		}
		ops = append(ops, trace.Op{Op: trace.FlagSet, Flag: fmt.Sprintf("tb.ready.%d", th.rank)})
		for k := first; k < len(ops); k++ {
			ops[k].Rank = th.rank
		}
	}
	for _, th := range threads {
		ops = append(ops, trace.Op{Op: trace.FlagWait, Flag: fmt.Sprintf("tb.ready.%d", th.rank)})
	}
	for it := range tb.Warmups + tb.Iterations {
		goFlag := fmt.Sprintf("tb.go.%d", it)
		ops = append(ops, trace.Op{Op: trace.FlagSet, Flag: goFlag, Label: tbLabel(it, 0, "start")})
		for _, th := range threads {
			ops = append(ops, tb.work(x, it, th, goFlag)...)
		}
		for _, th := range threads { // join
			ops = append(ops, trace.Op{Op: trace.FlagWait, Flag: fmt.Sprintf("tb.done.%d.%d", it, th.rank)})
		}
		ops = append(ops, trace.Op{Op: trace.HostCompute, Label: tbLabel(it, 0, "stop")}) // the clock read after the joins
	}
	return ops
}

// work is a worker thread's part of iteration it.
func (tb TransferBench) work(x tbTest, it int, th tbThread, goFlag string) []trace.Op {
	r := th.rank
	ops := []trace.Op{{Op: trace.FlagWait, Flag: goFlag}}
	switch th.exe.exe {
	case 'G':
		// A threadblock per CU (TransferBench asks for over half a CU's
		// shared memory so that two never share one), each thread with
		// Unroll float4 loads in flight.
		k := trace.Op{Op: trace.Kernel, Name: "GpuReduceKernel", GCD: intp(th.exe.index), Stream: 1, Workgroup: tb.BlockSize,
			InFlight: int64(tb.BlockSize * tb.Unroll * 16), Label: tbLabel(it, r, "kernel")}
		var blocks int64
		for _, i := range th.transfers {
			se := int64(x.line.Transfers[i].SE)
			for _, a := range x.access(i) {
				a.Workgroups = []int64{blocks, blocks + se}
				k.Access = append(k.Access, a)
			}
			blocks += se
		}
		k.Grid = blocks * int64(tb.BlockSize)
		ops = append(ops, record(tbLabel(it, r, "begin"), 1), k, record(tbLabel(it, r, "end"), 1),
			trace.Op{Op: trace.StreamSync, Stream: 1})
	case 'D':
		i := th.transfers[0]
		ops = append(ops, record(tbLabel(it, r, "begin"), 1),
			trace.Op{Op: trace.MemcpyAsync, Src: tbBuf(i, "src", 0), Dst: tbBuf(i, "dst", 0), Bytes: x.bytes(x.line.Transfers[i]), Stream: 1,
				Label: tbLabel(it, r, "copy")},
			record(tbLabel(it, r, "end"), 1), trace.Op{Op: trace.StreamSync, Stream: 1})
	case 'C':
		i := th.transfers[0]
		ops = append(ops, trace.Op{Op: trace.HostAccess, NUMA: intp(th.exe.index), Threads: x.line.Transfers[i].SE, Access: x.access(i),
			Label: tbLabel(it, r, "cpu")})
	}
	ops = append(ops, trace.Op{Op: trace.FlagSet, Flag: fmt.Sprintf("tb.done.%d.%d", it, r)})
	for k := range ops {
		ops[k].Rank = r
	}
	return ops
}

// tbTimes are one test's mean times (seconds) over the timed iterations.
type tbTimes struct {
	cpu      float64
	transfer []float64 // by transfer
	exe      []float64 // by executor, in tbExecutors order
}

// times reads the replay: per timed iteration the kernel's, copy's or CPU
// threads' span per transfer, the events around a GPU executor's kernel,
// and the main thread's clock.
func (tb TransferBench) times(x tbTest, r *job.Replay) tbTimes {
	type span struct {
		issue, start, end float64
		begin             float64 // a kernel's workgroups dispatched: its blocks' first clock read
		accessEnd         []float64
	}
	at := map[string]*span{}
	for _, res := range r.Ops {
		if res.Op.Label != "" {
			at[res.Op.Label] = &span{res.Issue, res.Start, res.End, res.Begin, res.AccessEnd}
		}
	}
	// TransferBench times a transfer by its own blocks' clocks: one that
	// shares a GPU executor's kernel ends when its blocks' last bytes do,
	// earlier than the kernel's last by this much.
	earlier := func(th tbThread, k int, kern *span) float64 {
		if th.exe.exe != 'G' || kern == nil || kern.accessEnd == nil {
			return 0
		}
		first := 0
		for _, i := range th.transfers[:k] {
			first += len(x.access(i))
		}
		n := len(x.access(th.transfers[k]))
		var mine, last float64
		for j, e := range kern.accessEnd {
			last = max(last, e)
			if j >= first && j < first+n {
				mine = max(mine, e)
			}
		}
		return float64(last - mine)
	}
	threads := x.threads()
	es := tbExecutors(x.line.Transfers)
	t := tbTimes{transfer: make([]float64, len(x.line.Transfers)), exe: make([]float64, len(es))}
	for it := tb.Warmups; it < tb.Warmups+tb.Iterations; it++ {
		t.cpu += float64(at[tbLabel(it, 0, "stop")].issue - at[tbLabel(it, 0, "start")].issue)
		for _, th := range threads {
			var sp float64
			switch th.exe.exe {
			case 'G': // the blocks' clocks: from the first block's start (not the queue's wake-up or the launch) to the last store made visible (__threadfence_system)
				sp = r.Events[tbLabel(it, th.rank, "end")] - at[tbLabel(it, th.rank, "kernel")].begin
			case 'D':
				sp = r.Elapsed(tbLabel(it, th.rank, "begin"), tbLabel(it, th.rank, "end"))
			case 'C':
				s := at[tbLabel(it, th.rank, "cpu")]
				sp = float64(s.end - s.start)
			}
			for k, i := range th.transfers {
				t.transfer[i] += sp - earlier(th, k, at[tbLabel(it, th.rank, "kernel")])
			}
			if th.exe.exe == 'G' {
				t.exe[slices.IndexFunc(es, func(e tbExecutor) bool { return e.exe == 'G' && e.index == th.exe.index })] +=
					r.Elapsed(tbLabel(it, th.rank, "begin"), tbLabel(it, th.rank, "end"))
			}
		}
	}
	n := float64(tb.Iterations)
	t.cpu /= n
	for i := range t.transfer {
		t.transfer[i] /= n
	}
	for k, e := range es {
		if e.exe != 'G' { // the slowest of its transfers (TransferBench.cpp:774-779)
			for _, i := range e.transfers {
				t.exe[k] = max(t.exe[k], t.transfer[i])
			}
			continue
		}
		t.exe[k] /= n
	}
	return t
}

// TBTransferCase is a transfer row's case: test, executor, transfer and
// TransferBench's description of it, e.g. test1/GPU00/transfer00/G0->GPU00:004->G1.
func TBTransferCase(test int, t TBTransfer, i int) string {
	sub := ""
	if t.Exe == 'D' {
		sub = ".*"
	}
	return fmt.Sprintf("test%d/%s%02d/transfer%02d/%s->%s%02d%s:%03d->%s", test, TBExeName(t.Exe), t.ExeIndex, i,
		tbMemStr(t.Srcs), TBExeName(t.Exe), t.ExeIndex, sub, t.SE, tbMemStr(t.Dsts))
}

// tbMemStr is TransferBench's SrcToStr/DstToStr: G0G1, or N for none.
func tbMemStr(ms []TBMem) string {
	if len(ms) == 0 {
		return "N"
	}
	s := ""
	for _, m := range ms {
		s += fmt.Sprintf("%c%d", m.Kind, m.Index)
	}
	return s
}

// tbWhere is the akisim endpoint of memory locations.
func tbWhere(ms []TBMem) string {
	var w []string
	for _, m := range ms {
		if m.Kind == 'G' || m.Kind == 'F' {
			w = append(w, report.GCD(m.Index))
		} else {
			w = append(w, report.NUMA(m.Index))
		}
	}
	return report.List(w...)
}

// rows are a test's results as TransferBench computes them: per executor
// its bandwidth, time and the sum of its transfers' bandwidths; per
// transfer its bandwidth and time; the aggregate over the CPU time and the
// overhead beyond the slowest executor. Bandwidths in GB/s (1e9), times in ms.
func (tb TransferBench) rows(x tbTest, r *job.Replay) []report.Row {
	t := tb.times(x, r)
	var rows []report.Row
	var total int64
	slowest := 0.0
	for k, e := range tbExecutors(x.line.Transfers) {
		var bytes int64
		sum := 0.0
		var trows []report.Row
		for _, i := range e.transfers {
			tr := x.line.Transfers[i]
			b := x.bytes(tr)
			bytes += b
			bw := gbps(float64(b), t.transfer[i])
			sum += bw
			c := TBTransferCase(x.num, tr, i)
			src, dst := tbWhere(tr.Srcs), tbWhere(tr.Dsts)
			trows = append(trows,
				report.Row{Workload: "transferbench", Case: c, Src: src, Dst: dst, Bytes: b, Metric: "bandwidth", Value: bw, Unit: "GB/s"},
				report.Row{Workload: "transferbench", Case: c, Src: src, Dst: dst, Bytes: b, Metric: "time", Value: t.transfer[i] * 1e3, Unit: "ms"})
		}
		total += bytes
		slowest = max(slowest, t.exe[k])
		c := fmt.Sprintf("test%d/%s%02d", x.num, TBExeName(e.exe), e.index)
		rows = append(rows,
			report.Row{Workload: "transferbench", Case: c, Bytes: bytes, Metric: "bandwidth", Value: gbps(float64(bytes), t.exe[k]), Unit: "GB/s"},
			report.Row{Workload: "transferbench", Case: c, Bytes: bytes, Metric: "time", Value: t.exe[k] * 1e3, Unit: "ms"},
			report.Row{Workload: "transferbench", Case: c, Bytes: bytes, Metric: "bandwidth_sum", Value: sum, Unit: "GB/s"})
		rows = append(rows, trows...)
	}
	c := fmt.Sprintf("test%d/aggregate", x.num)
	return append(rows,
		report.Row{Workload: "transferbench", Case: c, Bytes: total, Metric: "bandwidth", Value: gbps(float64(total), t.cpu), Unit: "GB/s"},
		report.Row{Workload: "transferbench", Case: c, Bytes: total, Metric: "time", Value: t.cpu * 1e3, Unit: "ms"},
		report.Row{Workload: "transferbench", Case: c, Bytes: total, Metric: "overhead", Value: (t.cpu - slowest) * 1e3, Unit: "ms"})
}
