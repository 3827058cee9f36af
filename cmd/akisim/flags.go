package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/internal/usage"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/workloads"
)

type setFlags []string

func (s *setFlags) String() string     { return strings.Join(*s, ",") }
func (s *setFlags) Set(v string) error { *s = append(*s, v); return nil }

// options are the command line.
type options struct {
	command      string   // "run", "validate", "configs" or "routes"
	args         []string // the command line as given, for the outputs' setup
	version      bool
	quiet        bool // no progress on stderr
	invariants   bool // -check: check the model's invariants after every run
	config       string
	source       *config.Source // -config already read (a sweep's other points), or nil
	sets         setFlags       // -set as given (overrides adds -nodes and -env)
	envs         setFlags
	workload     string
	tracePath    string
	format       string
	filter       string
	cases        []string
	outdir       string
	force        bool
	cpuprofile   string
	memprofile   string
	timeline     string
	daisen       string
	rocprof      string
	exec         string
	gcds         string
	alloc        string
	sizes        string
	tbConfig     string              // -cfg: a TransferBench config file
	tb           *workloads.TBConfig // its tests, once read
	tbSizes      int                 // sizes each line runs at
	importArgs   []string            // akisim import\'s arguments
	kernels      string
	passes       int64
	bench        string
	iters        int
	warmup       int
	root         int
	datatype     string
	rcclArgs     *rcclTestsArgs // an rccl-tests command line's own settings (rccltests_args.go)
	rcclBytes    []int64        // the sizes the rccl runs move, in order (rcclRuns)
	halo         haloFlags
	osu          osuArgs // an OSU benchmark's own flags (osu_args.go)
	nodes        int
	only         string            // validate: "", "calibrated", "derived" or "check"
	experiment   *regexp.Regexp    // validate: the experiments to run (nil: all)
	experimentRE string            // -experiment as given
	given        map[string]bool   // the flags the command line gave
	read         *input            // the config, once read (readConfig)
	overrides    []config.Override // -set, then what -nodes and -env make, each as typed
	setup        report.Setup      // what the run's outputs record of how it was set up (setup.go)
	stderr       io.Writer         // where diagnostics beside the results go
}

// workloadFlags are the flags that belong to some workloads; giving one to
// another workload, a trace or a command is an error, not silently ignored.
var workloadFlags = map[string][]string{
	"cases":  {"p2p"},
	"filter": {"commscope"},
	"exec":   {"stream"}, "alloc": {"stream"}, "kernels": {"stream"}, "passes": {"stream"},
	"gcds": {"stream", "osu", "rccl"}, "sizes": {"stream", "osu", "rccl", "transferbench"},
	"cfg":   {"transferbench"},
	"bench": {"osu", "rccl", "halo"},
	"dims":  {"halo"}, "radius": {"halo"}, "fields": {"halo"}, "strategy": {"halo"}, "procs": {"halo"}, "decomp": {"halo"},
	"iters": {"rccl"}, "warmup": {"rccl"}, "root": {"rccl"}, "datatype": {"rccl"},
}

// commandFlags are the flags the commands other than run take.
var commandFlags = map[string][]string{
	"validate": {"config", "set", "env", "only", "experiment", "outdir", "force", "cpuprofile", "memprofile", "check", "quiet"}, // validate always checks, and prints no progress; -outdir: its figures
	"configs":  {},
	"routes":   {"config", "set", "env", "format"},
}

func parse(args []string, stderr io.Writer) (*options, error) {
	if len(args) > 0 && isRCCLTestsBinary(args[0]) { // rccl-tests as its users type it (rccltests_args.go)
		return parseRCCLTests(args[0], args[1:], stderr)
	}
	o := &options{command: "run", stderr: stderr}
	if len(args) > 0 && isOSUBenchmark(args[0]) { // OSU's own flags (osu_args.go)
		return parseOSU(args, stderr)
	}
	if len(args) > 0 && (args[0] == "import" || args[0] == "compare" || args[0] == "diff" || args[0] == "sweep" || args[0] == "plot") { // their own arguments (import.go, compare.go, diff.go, sweep.go, plot.go)
		o.command, o.importArgs = args[0], args[1:]
		return o, nil
	}
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "validate", "configs", "routes":
			o.command = args[0]
		case "run":
		case "p2p", "commscope", "stream", "osu", "rccl", "halo", "transferbench":
			o.workload = args[0]
		default:
			return nil, bad("unknown command %q (want run, validate, configs, routes, import, compare, diff, sweep, plot, p2p, commscope, stream, osu, rccl, halo or transferbench)", args[0])
		}
		args = args[1:]
	}
	word := o.workload
	var cases string
	fs := flag.NewFlagSet("akisim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&o.quiet, "quiet", false, "no progress on stderr")
	fs.BoolVar(&o.invariants, "check", false, "check the model's invariants after every run (docs/model/granularity-invariants.md, Invariants): a broken one is an internal error, exit 3")
	fs.BoolVar(&o.version, "version", false, "print the module version and VCS revision, and exit")
	fs.StringVar(&o.config, "config", "frontier-node.toml", "node config: a path, or a config in configs/ (built in; see akisim configs)")
	fs.Var(&o.sets, "set", "override a config value, KEY=VALUE (repeatable; see README)")
	fs.IntVar(&o.nodes, "nodes", 0, "nodes of the run: the config's node repeated N times on its network (-set network.nodes=N); global GCD ids are node*8 + local id")
	fs.Var(&o.envs, "env", "set an environment variable the model honours, NAME=VALUE: ROCm (HSA_ENABLE_SDMA, HSA_ENABLE_PEER_SDMA, HSA_XNACK, HSA_FORCE_SDMA_SIZE), Cray MPICH (MPICH_GPU_IPC_ENABLED, MPICH_GPU_IPC_THRESHOLD, MPICH_GPU_IPC_CACHE_MAX_SIZE, GTL_HSA_VSMSG_CUTOFF_SIZE, MPICH_GPU_ALLREDUCE_USE_KERNEL, MPICH_GPU_ALLREDUCE_KERNEL_THRESHOLD, MPICH_GPU_ALLREDUCE_BLK_SIZE, MPICH_ENABLE_YAKSA, the collective switches MPICH_*_MSG_SIZE and MPICH_BCAST_INTRANODE_RADIX, the shared-memory collectives MPICH_SHARED_MEM_COLL_OPT, MPICH_SHARED_MEM_COLL_NCELLS, MPICH_SHARED_MEM_COLL_CELLSZ, MPICH_POSIX_NUM_COLLS_THRESHOLD, MPICH_REDUCE_INTRANODE_TREE_KVAL, MPICH_BCAST_INTRANODE_TREE_KVAL), libfabric CXI (FI_CXI_RDZV_THRESHOLD, FI_CXI_RDZV_GET_MIN, FI_CXI_RDZV_EAGER_SIZE), RCCL (NCCL_PROTO, NCCL_ALGO, NCCL_MIN_NCHANNELS, NCCL_MAX_NCHANNELS, NCCL_BUFFSIZE, NCCL_DEBUG), TransferBench (NUM_ITERATIONS, NUM_WARMUPS, OUTPUT_TO_CSV, GFX_BLOCK_SIZE)")
	fs.StringVar(&o.workload, "workload", o.workload, "built-in workload: p2p, commscope, stream, osu, rccl, halo or transferbench (default p2p without -trace)")
	fs.StringVar(&o.tbConfig, "cfg", "", "transferbench: the TransferBench config file to run (its tests, one per line)")
	fs.StringVar(&o.tracePath, "trace", "", "replay a JSON Lines trace (see traces/README.md); read once, so a pipe works")
	fs.StringVar(&o.format, "format", "text", "output: text, csv, json, or gbench (commscope)")
	fs.StringVar(&o.filter, "filter", "", "commscope: run benchmarks whose name matches REGEX (--benchmark_filter)")
	fs.StringVar(&cases, "cases", "unidirectional,bidirectional,latency", "p2p: cases to run, comma separated")
	fs.StringVar(&o.exec, "exec", "0", "stream: the executing GCD")
	fs.StringVar(&o.gcds, "gcds", "", "stream: several executing GCDs, comma separated (the E3 multi-GCD variant); osu: rank i on the i-th GCD (default 0,1); rccl: comm rank i on the i-th GCD (default all, as -g)")
	fs.StringVar(&o.alloc, "alloc", "local", "stream: where the arrays live: local, host, or a GCD id (peer); SRC:DST puts the source array a on SRC and b, c on DST")
	fs.StringVar(&o.sizes, "sizes", "", "stream: array sizes in bytes, comma separated, or e6 (1 MB..8 GB doubling; the default); osu: message sizes, comma separated, or MIN:MAX doubling (default 1:4194304, OSU's)")
	fs.StringVar(&o.bench, "bench", "", "osu: the benchmark (default osu_bw); rccl: the rccl-tests binary, all_reduce_perf (default), all_gather_perf, reduce_scatter_perf, broadcast_perf, reduce_perf, alltoall_perf or sendrecv_perf; halo: pack (default), exchange or mhd")
	o.halo.register(fs)
	fs.IntVar(&o.iters, "iters", 20, "rccl: timed iterations per size (rccl-tests -n)")
	fs.IntVar(&o.warmup, "warmup", 5, "rccl: warm-up iterations per size (rccl-tests -w)")
	fs.IntVar(&o.root, "root", 0, "rccl: root rank of broadcast_perf and reduce_perf (rccl-tests -r)")
	fs.StringVar(&o.datatype, "datatype", "float", "rccl: element type (rccl-tests -d): int8, uint8, int32, uint32, int64, uint64, half, float, double, bfloat16")
	fs.StringVar(&o.kernels, "kernels", "copy,scale,add,triad", "stream: STREAM kernels to run")
	fs.Int64Var(&o.passes, "passes", 1, "stream: each kernel goes over its arrays N times (gpu-l2-stream's loop): later passes hit the caches")
	fs.StringVar(&o.outdir, "outdir", "", "write results, the resolved config, stats and version.txt into DIR, as a whole (validate: a figure per family of points)")
	fs.BoolVar(&o.force, "force", false, "replace an -outdir that holds a previous run")
	fs.StringVar(&o.rocprof, "rocprof", "", "write the run as rocprofv3's JSON output (its results.json layout: HIP calls, kernel dispatches, copies) to FILE")
	fs.StringVar(&o.timeline, "timeline", "", "write a Chrome trace-event timeline (Perfetto) of the copies and kernels to FILE")
	fs.StringVar(&o.daisen, "daisen", "", "record the copies and kernels with Akita's task tracer and write them to FILE, a Daisen CSV trace (daisen -csv FILE)")
	fs.StringVar(&o.only, "only", "", "validate: run only the calibration points (calibrated), the points a calibration decides (derived) or the independent checks (check)")
	fs.StringVar(&o.experimentRE, "experiment", "", "validate: run only the experiments whose names match this regular expression (as validate prints them)")
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the simulator to FILE")
	fs.StringVar(&o.memprofile, "memprofile", "", "write a heap profile (allocations, and what is live at the end) to FILE")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, bad("%v", err)
	}
	if fs.NArg() > 0 {
		return nil, bad("unexpected argument %q", fs.Arg(0))
	}
	if err := refuseEmpty(fs, ""); err != nil {
		return nil, err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	o.given = given
	if err := o.check(given, word); err != nil {
		return nil, err
	}
	if err := o.aliasSets(given); err != nil {
		return nil, err
	}
	if o.workload == "p2p" {
		var err error
		if o.cases, err = usage.List("-cases", cases); err != nil {
			return nil, err
		}
		for _, c := range o.cases {
			switch c {
			case "unidirectional", "bidirectional", "latency":
			default:
				return nil, bad("-cases: unknown case %q (want unidirectional, bidirectional or latency)", c)
			}
		}
	}
	return o, nil
}

// aliasSets turns the flags that name config keys (-nodes is
// network.nodes, -env NAME is env.NAME) into overrides, remembering how
// each was typed for its errors. A flag and a -set of the same key
// conflict: one would silently win (and a sweep's labels would lie); so
// do two -env of one name, as two -set of one key do (config refuses).
func (o *options) aliasSets(given map[string]bool) error {
	o.overrides = config.Sets(o.sets)
	alias := map[string]string{} // key -> the flag as typed
	add := func(ov config.Override) error {
		key, _, _ := strings.Cut(ov.Set, "=")
		if prev, ok := alias[key]; ok {
			return bad("%s and %s: both set %s; give one", prev, ov.Flag, key)
		}
		alias[key] = ov.Flag
		o.overrides = append(o.overrides, ov)
		return nil
	}
	if given["nodes"] {
		if o.nodes < 1 {
			return bad("-nodes: must be at least 1, got %d", o.nodes)
		}
		if err := add(config.Override{Set: "network.nodes=" + strconv.Itoa(o.nodes), Flag: fmt.Sprintf("-nodes %d", o.nodes)}); err != nil {
			return err
		}
	}
	for _, e := range o.envs { // the environment is part of the resolved config
		ov, ok := config.EnvOverride(e)
		if !ok {
			return bad("-env %s: want NAME=VALUE", e)
		}
		if err := add(ov); err != nil {
			return err
		}
	}
	for _, set := range o.sets {
		key, _, _ := strings.Cut(set, "=")
		if typed, ok := alias[strings.TrimSpace(key)]; ok {
			return bad("%s and -set %s: both set %s; give one", typed, set, strings.TrimSpace(key))
		}
	}
	return nil
}

// check finds flags that do not apply to what the command line asks for.
func (o *options) check(given map[string]bool, word string) error {
	if o.version {
		if len(given) > 1 || o.command != "run" || word != "" {
			return bad("-version: takes no command and no other flag")
		}
		return nil
	}
	if given["only"] && o.command == "validate" && o.only != "calibrated" && o.only != "derived" && o.only != "check" {
		return bad("-only: unknown kind %q (want calibrated, derived or check)", o.only)
	}
	if given["experiment"] && o.command == "validate" {
		re, err := regexp.Compile(o.experimentRE)
		if err != nil {
			return bad("-experiment: %q is not a regular expression: %v", o.experimentRE, err)
		}
		o.experiment = re
	}
	if allowed, ok := commandFlags[o.command]; ok {
		for _, name := range slices.Sorted(maps.Keys(given)) {
			if !slices.Contains(allowed, name) {
				return bad("-%s: does not apply to akisim %s", name, o.command)
			}
		}
		if o.force && o.outdir == "" { // validate's figures
			return bad("-force: applies to -outdir only")
		}
		return nil
	}
	for _, f := range []string{"only", "experiment"} {
		if given[f] {
			return bad("-%s: applies to akisim validate only", f)
		}
	}
	switch o.format {
	case "text", "csv", "json", "gbench":
	default:
		return bad("-format: unknown format %q (want text, csv, json or gbench)", o.format)
	}
	if word != "" && given["workload"] && o.workload != word {
		return bad("-workload %s: the command already chose %s", o.workload, word)
	}
	if o.tracePath != "" && o.workload != "" {
		return bad("-trace and -workload %s: give one of them", o.workload)
	}
	if o.tracePath == "" && o.workload == "" {
		o.workload = "p2p"
	}
	if o.workload != "" && !slices.Contains([]string{"p2p", "commscope", "stream", "osu", "rccl", "halo", "transferbench"}, o.workload) {
		return bad("-workload: unknown workload %q (want p2p, commscope, stream, osu, rccl, halo or transferbench)", o.workload)
	}
	if o.workload == "transferbench" && !given["cfg"] {
		return bad("-workload transferbench: -cfg FILE names the TransferBench config to run")
	}
	for _, name := range slices.Sorted(maps.Keys(given)) {
		ws, ok := workloadFlags[name]
		if !ok || slices.Contains(ws, o.workload) {
			continue
		}
		w := strings.Join(ws, " or -workload ")
		if o.tracePath != "" {
			return bad("-%s: applies to -workload %s only, not to a -trace replay", name, w)
		}
		return bad("-%s: applies to -workload %s only, not to %s", name, w, o.workload)
	}
	if o.format == "gbench" && o.workload != "commscope" {
		return bad("-format gbench: only the commscope workload writes Google Benchmark JSON")
	}
	if given["exec"] && given["gcds"] {
		return bad("-exec and -gcds: give one of them")
	}
	if o.force && o.outdir == "" {
		return bad("-force: applies to -outdir only")
	}
	return nil
}

// refuseEmpty refuses a string flag given an empty value (-trace "",
// -set ""): it would silently mean the default, or nothing. prefix names
// the command in the message ("plot ").
func refuseEmpty(fs *flag.FlagSet, prefix string) (err error) {
	fs.Visit(func(f *flag.Flag) {
		empty := false
		switch v := f.Value.(type) {
		case *setFlags:
			empty = slices.Contains(*v, "")
		case flag.Getter:
			s, ok := v.Get().(string)
			empty = ok && s == ""
		}
		if empty && err == nil {
			err = bad("%s-%s: empty value (give one, or leave the flag out)", prefix, f.Name)
		}
	})
	return err
}

// checkBuild, set at link time (-ldflags "-X main.checkBuild=on", as the
// tests build akisim), turns -check on for every run.
var checkBuild string

// runOptions are the options every simulating command passes Execute.
func (o *options) runOptions(opts ...run.Option) []run.Option {
	if o.invariants || checkBuild == "on" {
		opts = append(opts, run.WithCheck())
	}
	return opts
}

// bad is bad input: one line on stderr, exit status 2.
func bad(format string, args ...any) error { return usage.Errorf(format, args...) }

// usageError is bad input, from the command or the packages it calls.
type usageError = usage.Error
