package main

import (
	"fmt"
	"slices"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/rccl"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
	"github.com/akisim/akisim/workloads"
)

// rcclRuns builds the rccl-tests runs from -bench, -gcds, -sizes, -iters,
// -warmup, -root and -datatype.
func rcclRuns(o *options, c *config.Node) ([]job.Run, error) {
	t := workloads.RCCLTests{Bench: rcclBench(o), Datatype: o.datatype, Root: o.root, Warmup: o.warmup, Iterations: o.iters}
	if c.Nodes() > 1 {
		t.GCDsPerNode = c.GCD.Count // one process per node
	}
	if a := o.rcclArgs; a != nil {
		t.RedOp, t.Blocking, t.MaxBytes, t.Threads = a.op, a.blocking, a.maxBytes, a.threads > 1
		if t.Threads && c.Nodes() > 1 {
			return nil, bad("-t %d: not modelled on %d nodes (akisim runs threads in one process)", a.threads, c.Nodes())
		}
	}
	if !o.given["iters"] && !o.given["warmup"] {
		t.BudgetBytes = workloads.RCCLBudget
	}
	if _, ok := trace.Datatypes[t.Datatype]; !ok {
		return nil, bad("-datatype: unknown type %q (want int8, uint8, int32, uint32, int64, uint64, half, float, double or bfloat16)", t.Datatype)
	}
	if o.iters < 1 || o.iters > 1<<20 {
		return nil, bad("-iters: want 1..%d timed iterations, got %d", 1<<20, o.iters)
	}
	if o.warmup < 0 || o.warmup > 1<<20 {
		return nil, bad("-warmup: want 0..%d iterations, got %d", 1<<20, o.warmup)
	}
	var err error
	if t.GCDs, err = rcclGCDs(o, c); err != nil {
		return nil, err
	}
	sizes := o.sizes
	if sizes == "" {
		sizes = "33554432" // rccl-tests' default -b and -e: 32 MiB
	}
	if t.Sizes, err = byteSizes(sizes); err != nil {
		return nil, err
	}
	if k := workloads.RCCLBenchmarks[t.Bench]; c.Env.NCCLAlgo == "Tree" && k != "" && k != trace.RCCLAllReduce {
		return nil, bad("-env NCCL_ALGO=Tree: RCCL has no tree algorithm for %s (only all_reduce_perf has one)", t.Bench)
	}
	runs, err := t.Runs()
	if err != nil {
		return nil, bad("%v", err)
	}
	o.rcclBytes, _ = t.RunBytes()                        // Runs has checked the sizes
	if c.Env.NCCLDebug == "INFO" && o.format != "text" { // keep csv and json clean: RCCL's lines go to stderr
		lines, err := rcclInfo(c, t.GCDs)
		if err != nil {
			return nil, bad("%v", err)
		}
		for _, l := range lines {
			fmt.Fprintln(o.stderr, l)
		}
	}
	return runs, nil
}

// rcclBench is -bench, all_reduce_perf if not given.
func rcclBench(o *options) string {
	if o.bench == "" {
		return "all_reduce_perf"
	}
	return o.bench
}

// rcclGCDs is -gcds, every GCD of the node if not given (rccl-tests -g).
func rcclGCDs(o *options, c *config.Node) ([]int, error) {
	if o.gcds != "" {
		return gcdIDs("-gcds", o.gcds, c.TotalGCDs())
	}
	var all []int
	if a := o.rcclArgs; a != nil { // rccl-tests -g n: the first n GCDs of every node, a process per node
		n := a.gpus * max(1, a.threads) // -t n -g 1: a thread per GCD
		if n > c.GCD.Count {
			if a.threads > 1 {
				return nil, bad("-t %d: a node has %d GCDs", a.threads, c.GCD.Count)
			}
			return nil, bad("-g %d: a node has %d GCDs", a.gpus, c.GCD.Count)
		}
		for node := range c.Nodes() {
			for g := range n {
				all = append(all, node*c.GCD.Count+g)
			}
		}
		return all, nil
	}
	for g := range c.GCD.Count {
		all = append(all, g)
	}
	return all, nil
}

// rcclHost and rcclPid stand in for the host name and process id RCCL and
// rccl-tests print.
const (
	rcclHost = "akisim"
	rcclPid  = 4242
)

// rcclInfo is what NCCL_DEBUG=INFO prints for the communicator, with
// RCCL's prefix.
func rcclInfo(c *config.Node, gcds []int) ([]string, error) {
	p := rccl.ParamsFromConfig(c)
	lines, err := rccl.InitLines(rccl.FromConfig(c), c.CXI(), gcds, p.Channels)
	if err != nil {
		return nil, err
	}
	prefix := rccl.InfoPrefix(rcclHost, rcclPid, rcclPid, gcds[0])
	for i := range lines {
		lines[i] = prefix + lines[i]
	}
	return lines, nil
}

// rcclTestsOf is what rccl-tests prints of the run before its rows: the
// sizes and settings, the devices, and RCCL's INFO lines where it prints
// them (while the communicator is created) when NCCL_DEBUG=INFO.
func rcclTestsOf(o *options, c *config.Node) (report.RCCLTests, error) {
	k := workloads.RCCLBenchmarks[rcclBench(o)]
	gcds, err := rcclGCDs(o, c) // rcclRuns has checked -gcds
	if err != nil {
		return report.RCCLTests{}, err
	}
	t := report.RCCLTests{StepFactor: 2, Warmup: o.warmup, Iters: o.iters, Type: o.datatype,
		TypeBytes: trace.Datatypes[o.datatype], Op: "sum", Root: -1, CountDivisor: 1, Setup: o.setup.Lines("# ")}
	if len(o.rcclBytes) > 0 {
		t.MinBytes, t.MaxBytes = slices.Min(o.rcclBytes), slices.Max(o.rcclBytes)
	}
	switch k {
	case trace.RCCLAllGather, trace.RCCLAllToAll:
		t.Op = "none"
	case trace.RCCLBroadcast:
		t.Op, t.Root = "none", o.root
	case trace.RCCLReduce:
		t.Root = o.root
	}
	if k == trace.RCCLAllGather || k == trace.RCCLReduceScatter || k == trace.RCCLAllToAll {
		t.CountDivisor = int64(len(gcds))
	}
	for r, g := range gcds {
		t.Devices = append(t.Devices, report.RCCLDevice{Rank: r, Pid: rcclPid, Device: g, Host: rcclHost,
			BusID: fmt.Sprintf("0000:%02x:00.0", rccl.BusID(g)>>12), Name: "AMD Instinct MI250X"})
	}
	if a := o.rcclArgs; a != nil {
		t.StepFactor, t.StepBytes, t.Check, t.Blocking, t.Threads = int(a.stepFactor), a.stepBytes, a.check, a.blocking, a.threads
		t.MaxBytes = a.maxBytes // -e, as rccl-tests prints it, whether or not a size lands on it
		if t.Op != "none" {
			t.Op = a.op
		}
	}
	if c.Env.NCCLDebug == "INFO" {
		if t.Info, err = rcclInfo(c, gcds); err != nil {
			return report.RCCLTests{}, err
		}
	}
	return t, nil
}
