package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/akisim/akisim/trace"
	"github.com/akisim/akisim/workloads"
)

// rcclTestsArgs is what an rccl-tests command line (`akisim all_reduce_perf
// -b 8 -e 1G -f 2 -g 8`) asked for beyond the rccl workload's own flags:
// what its header prints and the flags that change how it iterates.
type rcclTestsArgs struct {
	stepFactor int64 // -f; 1: sizes grow by stepBytes
	stepBytes  int64 // -i
	check      int   // -c: validation iterations (the header; the model moves no values)
	op         string
	blocking   bool  // -z 1: every collective waits for its streams
	gpus       int   // -g: GCDs 0..gpus-1 of each node, one process per node
	threads    int   // -t: with -g 1, GCDs 0..threads-1, each driven by its own thread
	maxBytes   int64 // -e, which the header prints
}

// rcclTestsFlag is one of rccl-tests' options (src/common.cu, getopt_long
// "t:g:b:e:i:f:n:m:w:p:c:o:d:r:z:Y:T:G:C:O:F:E:R:a:y:s:u:h:q:"), by short
// and long name.
type rcclTestsFlag struct {
	short, long string
	// set maps the value onto a; a flag akisim does not model accepts only
	// the value that changes nothing, and names itself otherwise
	set func(a *rcclTestsParse, v string) error
}

// rcclTestsParse is a command line being read.
type rcclTestsParse struct {
	args                 rcclTestsArgs
	gpus, minB, maxB     int64
	iters, warmup        string // "" unless given (the CLI's size budget applies then)
	datatype, root       string
	stepGiven, factorSet bool
}

// unmodelled accepts only the value want of a flag akisim does not model.
func unmodelled(want, what string) func(*rcclTestsParse, string) error {
	return func(_ *rcclTestsParse, v string) error {
		if n, err := strconv.ParseInt(v, 0, 64); err == nil && strconv.FormatInt(n, 10) == want || v == want {
			return nil
		}
		return fmt.Errorf("not modelled: %s (akisim runs only %s)", what, want)
	}
}

// unmodelledCount is unmodelled for a count: one below 1 is no count.
func unmodelledCount(what string) func(*rcclTestsParse, string) error {
	return func(a *rcclTestsParse, v string) error {
		if _, err := rcclCount(v, 1); err != nil {
			return err
		}
		return unmodelled("1", what)(a, v)
	}
}

// accepted takes an integer from lo to hi (rccl-tests' own range): the
// flag changes nothing akisim simulates.
func accepted(lo, hi int64) func(*rcclTestsParse, string) error {
	return func(_ *rcclTestsParse, v string) error {
		if n, err := strconv.ParseInt(v, 0, 64); err != nil || n < lo || n > hi {
			return fmt.Errorf("want a whole number %d..%d, got %q", lo, hi, v)
		}
		return nil
	}
}

var rcclTestsFlags = []rcclTestsFlag{
	{"t", "nthreads", func(a *rcclTestsParse, v string) error {
		n, err := rcclCount(v, 1)
		a.args.threads = int(n)
		return err
	}},
	{"g", "ngpus", func(a *rcclTestsParse, v string) (err error) { a.gpus, err = rcclCount(v, 1); return }},
	{"b", "minbytes", func(a *rcclTestsParse, v string) (err error) { a.minB, err = rcclSize(v); return }},
	{"e", "maxbytes", func(a *rcclTestsParse, v string) (err error) { a.maxB, err = rcclSize(v); return }},
	{"i", "stepbytes", func(a *rcclTestsParse, v string) (err error) {
		a.stepGiven = true
		a.args.stepBytes, err = rcclCount(v, 1)
		return
	}},
	{"f", "stepfactor", func(a *rcclTestsParse, v string) (err error) {
		a.factorSet = true
		a.args.stepFactor, err = rcclCount(v, 1)
		return
	}},
	{"n", "iters", func(a *rcclTestsParse, v string) error { a.iters = v; return nil }},
	{"m", "agg_iters", unmodelledCount("aggregating several collectives per iteration")},
	{"w", "warmup_iters", func(a *rcclTestsParse, v string) error { a.warmup = v; return nil }},
	{"p", "parallel_init", accepted(0, 1)}, // communicator creation is not timed
	{"c", "check", func(a *rcclTestsParse, v string) error {
		n, err := rcclCount(v, 0)
		a.args.check = int(n)
		return err
	}},
	{"o", "op", func(a *rcclTestsParse, v string) error {
		if !slices.Contains(trace.RedOps, v) {
			return fmt.Errorf("want one of %s, got %q (akisim runs one reduction per run)", strings.Join(trace.RedOps, ", "), v)
		}
		a.args.op = v
		return nil
	}},
	{"d", "datatype", func(a *rcclTestsParse, v string) error { a.datatype = v; return nil }},
	{"r", "root", func(a *rcclTestsParse, v string) error { a.root = v; return nil }},
	{"z", "blocking", func(a *rcclTestsParse, v string) error {
		n, err := rcclCount(v, 0)
		a.args.blocking = n != 0
		return err
	}},
	{"Y", "memory_type", unmodelled("coarse", "a buffer memory type other than coarse-grained device memory")},
	{"s", "stress_cycles", unmodelledCount("more than one stress cycle")},
	{"u", "cumask", unmodelled("", "a CU mask")},
	{"y", "stream_null", unmodelled("0", "the null stream")},
	{"T", "timeout", accepted(0, math.MaxInt32)}, // seconds; a simulation does not hang on the network
	{"G", "cudagraph", unmodelled("0", "HIP graph launches")},
	{"C", "report_cputime", unmodelled("0", "reporting CPU time")},
	{"a", "average", accepted(0, 3)}, // rank 0, mean, min or max: one process, every rank reads the same clock
	{"O", "out_of_place", unmodelled("1", "skipping the out-of-place runs")},
	{"F", "cache_flush", unmodelled("0", "flushing the caches between iterations")},
	{"E", "rotating_tensor", unmodelled("0", "rotating buffers")},
	{"R", "local_register", unmodelled("0", "registered user buffers")},
	{"q", "delay", unmodelled("0", "a delay between the in-place and out-of-place runs")},
}

// rcclTestsPassFlags are akisim's own flags an rccl-tests command line may
// carry too (they name no rccl-tests option): the config and what to print.
var rcclTestsPassFlags = []string{"config", "set", "env", "nodes", "format", "quiet", "check", "outdir", "force",
	"timeline", "rocprof", "daisen", "cpuprofile", "memprofile"}

// maxRCCLSizes bounds the sizes one command line may ask for (checked
// before they are listed).
const maxRCCLSizes = 4096

// parseRCCLTests reads `akisim <bench> <rccl-tests flags>` into the rccl
// workload's options: -g n drives GCDs 0..n-1 from one thread (-t n: a
// thread each), sizes run
// from -b to -e by -f (or -i), and a flag akisim does not model exits 2
// naming it.
func parseRCCLTests(bench string, args []string, stderr io.Writer) (*options, error) {
	a := &rcclTestsParse{gpus: 1, minB: 32 << 20, maxB: 32 << 20,
		args: rcclTestsArgs{stepFactor: 1, stepBytes: 1 << 20, check: 1, op: "sum"}}
	pass := []string{"rccl", "-bench", bench}
	for i := 0; i < len(args); i++ {
		tok := args[i]
		name, val, hasVal := strings.Cut(strings.TrimLeft(tok, "-"), "=")
		if strings.HasPrefix(tok, "-") && !strings.HasPrefix(tok, "--") && slices.Contains(rcclTestsPassFlags, name) {
			pass = append(pass, tok)
			if !hasVal && name != "quiet" && name != "check" && name != "force" && i+1 < len(args) {
				i++
				pass = append(pass, args[i])
			}
			continue
		}
		if tok == "-h" || tok == "--help" {
			fmt.Fprintf(stderr, "usage: akisim %s [rccl-tests flags] [akisim flags -%s]\n", bench, strings.Join(rcclTestsPassFlags, " -"))
			return nil, flag.ErrHelp
		}
		f, val, err := rcclTestsLookup(tok, args, &i)
		if err != nil {
			return nil, bad("%s: %v", bench, err)
		}
		if err := f.set(a, val); err != nil {
			return nil, bad("%s: -%s %s: %v", bench, f.short, val, err)
		}
	}
	if a.args.threads > 1 && a.gpus > 1 {
		return nil, bad("%s: -t %d with -g %d: not modelled (akisim runs one thread driving -g GCDs, or -t threads of one GCD each)", bench, a.args.threads, a.gpus)
	}
	sizes, err := a.sizes()
	if err != nil {
		return nil, bad("%s: %v", bench, err)
	}
	pass = append(pass, "-sizes", sizes)
	for _, fl := range []struct{ flag, v string }{{"-iters", a.iters}, {"-warmup", a.warmup}, {"-datatype", a.datatype}, {"-root", a.root}} {
		if fl.v != "" {
			pass = append(pass, fl.flag, fl.v)
		}
	}
	o, err := parse(pass, stderr)
	if err != nil {
		return nil, err
	}
	a.args.gpus, a.args.maxBytes = int(a.gpus), a.maxB
	o.rcclArgs = &a.args
	return o, nil
}

// rcclTestsLookup finds the option tok names (-b 8, -b8, --minbytes 8,
// --minbytes=8) and its value, advancing i past a separate value.
func rcclTestsLookup(tok string, args []string, i *int) (rcclTestsFlag, string, error) {
	var f rcclTestsFlag
	var val string
	found, attached := false, false
	switch {
	case strings.HasPrefix(tok, "--"):
		name, v, ok := strings.Cut(tok[2:], "=")
		for _, c := range rcclTestsFlags {
			if c.long == name {
				f, found, val, attached = c, true, v, ok
			}
		}
	case len(tok) >= 2 && tok[0] == '-':
		for _, c := range rcclTestsFlags {
			if c.short == tok[1:2] {
				f, found = c, true
				val, attached = tok[2:], len(tok) > 2
			}
		}
	}
	if !found {
		return f, "", fmt.Errorf("%s: not an rccl-tests option akisim knows (see rccl-tests -h; akisim's own: -%s)", tok, strings.Join(rcclTestsPassFlags, " -"))
	}
	if !attached {
		if *i+1 >= len(args) {
			return f, "", fmt.Errorf("%s: wants a value", tok)
		}
		*i++
		val = args[*i]
	}
	return f, val, nil
}

// sizes lists the sizes rccl-tests runs, comma separated: from -b to -e,
// times -f if above 1, else plus -i.
func (a *rcclTestsParse) sizes() (string, error) {
	if a.minB < 1 || a.maxB < a.minB {
		return "", fmt.Errorf("-b %d -e %d: want 1 <= minbytes <= maxbytes", a.minB, a.maxB)
	}
	if a.maxB > 1<<40 {
		return "", fmt.Errorf("-e %d: at most 2^40 bytes", a.maxB)
	}
	f, step := a.args.stepFactor, a.args.stepBytes
	var n float64
	if f > 1 {
		n = math.Log(float64(a.maxB)/float64(a.minB))/math.Log(float64(f)) + 1
	} else {
		n = float64(a.maxB-a.minB)/float64(step) + 1
	}
	if n > maxRCCLSizes {
		return "", fmt.Errorf("-b %d -e %d: %.0f sizes, at most %d in one run", a.minB, a.maxB, n, maxRCCLSizes)
	}
	var out []string
	for s := a.minB; s <= a.maxB; {
		out = append(out, strconv.FormatInt(s, 10))
		if f > 1 {
			s *= f
		} else {
			s += step
		}
	}
	return strings.Join(out, ","), nil
}

// rcclSize is rccl-tests' size: a number with an optional K, M or G (1024s).
func rcclSize(v string) (int64, error) {
	units := 1.0
	num := strings.TrimSpace(v)
	if k := len(num); k > 0 {
		switch num[k-1] {
		case 'K', 'k':
			units, num = 1<<10, num[:k-1]
		case 'M', 'm':
			units, num = 1<<20, num[:k-1]
		case 'G', 'g':
			units, num = 1<<30, num[:k-1]
		}
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || x < 0 || x*units > 1<<40 || math.IsNaN(x) {
		return 0, fmt.Errorf("want a size in bytes (K, M, G: 1024s) up to 2^40, got %q", v)
	}
	return int64(x * units), nil
}

// rcclCount is a whole number of at least least.
func rcclCount(v string, least int64) (int64, error) {
	n, err := strconv.ParseInt(v, 0, 64)
	if err != nil || n < least || n > 1<<40 {
		return 0, fmt.Errorf("want a whole number of at least %d, got %q", least, v)
	}
	return n, nil
}

// isRCCLTestsBinary tells whether the first word names an rccl-tests binary.
func isRCCLTestsBinary(word string) bool {
	_, ok := workloads.RCCLBenchmarks[word]
	return ok
}
