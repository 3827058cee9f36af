// Command akisim simulates an AMD MI250X compute node (Frontier / LUMI-G)
// described by a TOML config, running a built-in benchmark replica or
// replaying a trace.
//
//	akisim -config frontier-node.toml                   # p2p on Frontier
//	akisim -config frontier-node.toml -workload commscope -filter 'PinnedToGPU/0/0/'
//	akisim -trace traces/h2d-pinned-1gib.jsonl
//	akisim -set 'xgmi.bundle[0-2].lanes=2' -format csv
//	akisim validate
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"

	"github.com/tebeka/atexit"
)

// usageError is bad input: one line on stderr, exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func bad(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

type setFlags []string

func (s *setFlags) String() string     { return strings.Join(*s, ",") }
func (s *setFlags) Set(v string) error { *s = append(*s, v); return nil }

// options are the command line.
type options struct {
	command    string // "run" or "validate"
	config     string
	sets       setFlags
	envs       setFlags
	workload   string
	tracePath  string
	format     string
	filter     string
	cases      string
	outdir     string
	cpuprofile string
	timeline   string
	exec       string
	gcds       string
	alloc      string
	sizes      string
	kernels    string
}

func parse(args []string, stderr io.Writer) (*options, error) {
	o := &options{command: "run"}
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "validate":
			o.command = "validate"
		case "run":
		case "p2p", "commscope", "stream":
			o.workload = args[0]
		default:
			return nil, bad("unknown command %q (want run, validate, p2p, commscope or stream)", args[0])
		}
		args = args[1:]
	}
	fs := flag.NewFlagSet("akisim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.config, "config", "frontier-node.toml", "node config: a path, or a file in configs/")
	fs.Var(&o.sets, "set", "override a config value, KEY=VALUE (repeatable; see README)")
	fs.Var(&o.envs, "env", "set a ROCm environment variable, NAME=VALUE (HSA_ENABLE_SDMA, HSA_ENABLE_PEER_SDMA, HSA_XNACK)")
	fs.StringVar(&o.workload, "workload", o.workload, "built-in workload: p2p, commscope or stream (default p2p without -trace)")
	fs.StringVar(&o.tracePath, "trace", "", "replay a JSON Lines trace (see traces/README.md)")
	fs.StringVar(&o.format, "format", "text", "output: text, csv, json, or gbench (commscope)")
	fs.StringVar(&o.filter, "filter", "", "commscope: run benchmarks whose name matches REGEX (--benchmark_filter)")
	fs.StringVar(&o.cases, "cases", "unidirectional,bidirectional,latency", "p2p: cases to run, comma separated")
	fs.StringVar(&o.exec, "exec", "0", "stream: the executing GCD")
	fs.StringVar(&o.gcds, "gcds", "", "stream: several executing GCDs, comma separated (the E3 multi-GCD variant; overrides -exec)")
	fs.StringVar(&o.alloc, "alloc", "local", "stream: where the arrays live: local, host, or a GCD id (peer)")
	fs.StringVar(&o.sizes, "sizes", "e6", "stream: array sizes in bytes, comma separated, or e6 (1 MB..8 GB doubling)")
	fs.StringVar(&o.kernels, "kernels", "copy,scale,add,triad", "stream: STREAM kernels to run")
	fs.StringVar(&o.outdir, "outdir", "", "write results, the resolved config and stats into DIR")
	fs.StringVar(&o.timeline, "timeline", "", "write a Chrome trace-event timeline (Perfetto) of the copies and kernels to FILE")
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the simulator to FILE")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, bad("%v", err)
	}
	for _, e := range o.envs {
		o.sets = append(o.sets, "env."+e) // the environment is part of the resolved config
	}
	if fs.NArg() > 0 {
		return nil, bad("unexpected argument %q", fs.Arg(0))
	}
	switch o.format {
	case "text", "csv", "json", "gbench":
	default:
		return nil, bad("-format: unknown format %q (want text, csv, json or gbench)", o.format)
	}
	if o.tracePath != "" && o.workload != "" {
		return nil, bad("-trace and -workload %s: give one of them", o.workload)
	}
	if o.tracePath == "" && o.workload == "" {
		o.workload = "p2p"
	}
	if o.workload != "" && o.workload != "p2p" && o.workload != "commscope" && o.workload != "stream" {
		return nil, bad("-workload: unknown workload %q (want p2p, commscope or stream)", o.workload)
	}
	if o.format == "gbench" && o.workload != "commscope" {
		return nil, bad("-format gbench: only the commscope workload writes Google Benchmark JSON")
	}
	return o, nil
}

func main() {
	atexit.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the exit, so tests can call it.
func run(args []string, stdout, stderr io.Writer) int {
	o, err := parse(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err == nil && o.cpuprofile != "" {
		f, ferr := os.Create(o.cpuprofile)
		if ferr != nil {
			err = bad("-cpuprofile: %v", ferr)
		} else {
			pprof.StartCPUProfile(f)
			defer func() { pprof.StopCPUProfile(); f.Close() }()
		}
	}
	if err == nil {
		if o.command == "validate" {
			err = runValidate(o, stdout)
		} else {
			err = runSim(o, stdout)
		}
	}
	var ue *usageError
	var fe *failedError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &fe):
		return 1
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, "akisim:", err)
		return 2
	default:
		fmt.Fprintln(stderr, "akisim:", err)
		return 1
	}
}
