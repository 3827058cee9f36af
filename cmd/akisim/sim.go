package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/configs"
	"github.com/akisim/akisim/internal/usage"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/output"
	"github.com/akisim/akisim/profile"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/trace"
	"github.com/akisim/akisim/workloads"
)

// simulate runs the workload; tests replace it to make it panic.
var simulate = run.Execute

// input is what a run reads, each file once: the config and its bases
// (kept to re-resolve them with a trace's environment) and the trace.
type input struct {
	src    *config.Source
	node   *config.Node
	ops    []trace.Op
	stream *trace.Stream     // a trace read a chunk at a time (stream.go), instead of ops
	read   string            // the file the trace is read from: its copy when it comes through a pipe (trace.Spool)
	clean  func()            // removes that copy
	sets   []config.Override // what made node from src: the command line's overrides, then the trace's setenv lines
}

// loadConfig finds, reads and resolves the node config; its errors are
// bad input.
func loadConfig(o *options) (*config.Node, error) {
	in, err := readConfig(o)
	if err != nil {
		return nil, err
	}
	return in.node, nil
}

func readConfig(o *options) (*input, error) {
	if o.read != nil { // checkRunPaths read it
		return o.read, nil
	}
	src := o.source
	if src == nil {
		file, data, err := config.Resolve(o.config, configs.FS)
		if err != nil {
			return nil, bad("%v", err)
		}
		if src, err = config.NewSource(file, data, configs.FS); err != nil {
			return nil, bad("%v", err)
		}
	}
	c, err := src.NodeWith(o.overrides)
	if err != nil {
		return nil, bad("%v", err)
	}
	o.read = &input{src: src, node: c, sets: o.overrides}
	return o.read, nil
}

// readInput reads the config and the trace, if any, and applies the
// trace's setenv lines to the config, as -env would, so the resolved
// config holds them.
func readInput(o *options) (*input, error) {
	in, err := readConfig(o)
	if err != nil || o.tracePath == "" {
		return in, err
	}
	if in.read, err = trace.Spool(o.tracePath, ""); err != nil {
		return nil, bad("%v", err)
	}
	if in.read != o.tracePath {
		in.clean = output.RemoveAtExit(in.read)
	}
	if in.stream, err = openStream(o, in); err != nil || in.stream != nil {
		return in, err
	}
	if in.ops, err = trace.ReadFileAs(in.read, o.tracePath); err != nil {
		return nil, bad("%v", err)
	}
	if in.node, in.sets, err = traceNode(o, in.src, in.node, in.ops); err != nil {
		return nil, err
	}
	return in, nil
}

// traceNode is node, read from src, with the trace's setenv lines
// applied to the config, as -env would; sets are every override applied.
func traceNode(o *options, src *config.Source, node *config.Node, ops []trace.Op) (*config.Node, []config.Override, error) {
	sets := slices.Clone(o.overrides)
	for _, op := range ops {
		if op.Op != trace.SetEnv {
			continue
		}
		sets = append(sets, config.Override{Set: "env." + op.Name + "=" + op.Value, Flag: "setenv " + op.Name + "=" + op.Value})
		var err error
		if node, err = src.NodeWith(sets); err != nil {
			return nil, nil, bad("%s:%d: name: %v", o.tracePath, op.Line, err)
		}
	}
	return node, sets, nil
}

// runs builds the operation streams of the chosen workload or trace.
func runs(o *options, in *input) ([]job.Run, error) {
	c := in.node
	switch {
	case o.tracePath != "":
		return []job.Run{workloads.TraceRun(o.tracePath, in.ops)}, nil
	case o.workload == "stream":
		return streamRuns(o, c)
	case o.workload == "osu":
		return osuRuns(o, c)
	case o.workload == "rccl":
		return rcclRuns(o, c)
	case o.workload == "halo":
		return haloRuns(o, in)
	case o.workload == "transferbench":
		return transferBenchRuns(o, c)
	case o.workload == "commscope":
		cs := workloads.DefaultCommScope(c.GCD.Count, c.Host.NUMADomains)
		if o.filter != "" {
			re, err := regexp.Compile(o.filter)
			if err != nil {
				return nil, bad("-filter: %v", err)
			}
			cs.Filter = re
		}
		r := cs.Runs()
		if len(r) == 0 {
			return nil, bad("-filter %q matches no benchmark", o.filter)
		}
		return r, nil
	default:
		p := workloads.DefaultP2P(c.GCD.Count)
		p.Cases = o.cases
		return p.Runs(), nil
	}
}

// runSim checks every input and output, simulates, writes the results to
// stdout and the output files, and only then puts the files in place.
func runSim(o *options, stdout *stdoutBuffer) error {
	in, err := readInput(o)
	if err != nil {
		return err
	}
	o.setup = setupOf(o, in)
	if in.clean != nil {
		defer in.clean() // after the stream is closed
	}
	if in.stream != nil {
		defer in.stream.Close()
	}
	var rs []job.Run
	if in.stream == nil {
		if rs, err = runs(o, in); err != nil {
			return err
		}
		// Traces and built-in workloads pass the same checks (Execute checks
		// again), here so that bad input exits 2 before any output is opened.
		if err := job.Check(in.node, rs); err != nil {
			return bad("%v", err)
		}
	}
	output.FileMu.Lock() // a signal now finds the temporary files registered for removal
	out, err := openOutputs(o)
	output.FileMu.Unlock()
	if err != nil {
		return err
	}
	defer out.close()
	pr := newProgress(o.stderr, o.quiet)
	if o.tracePath == "" && o.workload != "p2p" {
		pr.unlikeRuns()
	}
	opts := o.runOptions(run.WithStop(stopAsked), run.WithProgress(pr.runDone))
	if o.rocprof != "" {
		opts = append(opts, run.WithCalls())
	}
	if o.timeline != "" {
		opts = append(opts, run.WithTimeline())
	}
	if o.daisen != "" {
		opts = append(opts, run.WithTasks())
	}
	ro, err := openRowOutputs(o, out, stdout)
	if err != nil {
		return err
	}
	defer ro.close()
	live, err := openLive(o, in.node, stdout) // a benchmark's text, a line per size as it finishes
	if err != nil {
		return err
	}
	if live != nil {
		for i := range rs { // smallest first: costliest-first would hold the first line behind the largest size
			rs[i].Cost = 0
		}
	}
	liveSizes := 0
	opts = append(opts, run.WithRows(func(rows []report.Row) error {
		for _, r := range rows {
			if err := ro.add(r); err != nil {
				return err
			}
		}
		if live != nil {
			liveSizes++
			return live.Size(rows)
		}
		return nil
	}))
	warn, err := coverageWarning(o, in.node)
	if err != nil {
		return err
	}
	var res *run.Result
	graceful.Store(true)  // a signal now stops the simulation, which keeps its rows
	if in.stream != nil { // a streamed trace is checked as it runs
		res, err = simulateStream(o, in, ro, pr)
	} else {
		res, err = simulate(in.node, rs, opts...)
	}
	graceful.Store(false)
	pr.end()
	var te *trace.Error
	if errors.As(err, &te) { // a trace that deadlocks is bad input too
		return bad("%v", err)
	}
	if err != nil {
		return err
	}
	warn() // once the run has found no bad input, whose error stays one line
	if err := ro.finish(o, res); err != nil {
		return err
	}
	switch {
	case live != nil:
		if liveSizes == 0 { // a replaced simulate kept its rows: a line per size now
			for rows := range sameBytes(res.Rows) {
				if err := live.Size(rows); err != nil {
					return err
				}
			}
		}
		if err := live.Close(); err != nil {
			return err
		}
	case ro.table != nil:
		if err := ro.writeTable(o, in.node, res, stdout); err != nil {
			return err
		}
	case o.format != "csv" && o.format != "json": // else stdout has the rows already
		if err := writeText(o, in.node, res, stdout); err != nil {
			return err
		}
	}
	output.FileMu.Lock()
	err = out.write(o, in.node, res)
	output.FileMu.Unlock()
	if err != nil {
		return err
	}
	// Not under output.FileMu: a reader that stalls the pipe must not keep a
	// signal from ending the run.
	if err := stdout.flush(); err != nil {
		return err
	}
	output.FileMu.Lock()
	if stopping.Load() {
		output.FileMu.Unlock()
		select {} // the signal's handler removes the files and exits
	}
	defer output.FileMu.Unlock()
	if err := out.commit(); err != nil {
		return err
	}
	if res.Interrupted {
		return &interruptedError{signal: int(interrupt.Load())}
	}
	return nil
}

// outputs are a run's files besides stdout.
type outputs struct {
	dir      *output.Outdir
	timeline *output.File      // nil when not given or written into the outdir
	rocprof  *output.File      // -rocprof: the run as rocprofv3 JSON; nil likewise
	daisen   *output.File      // -daisen: the run's Akita tasks as Daisen's CSV; nil likewise
	inDir    map[string]string // -timeline, -rocprof or -daisen directly in the outdir: its name there
	streamed bool              // the outdir's results files were written as the run went (stream.go)
}

// outdirFiles are the files a run writes into its outdir.
var outdirFiles = []string{"results.csv", "results.json", "config.toml", "config.json", "setup.json", "stats.txt", "commscope.json", noteFile, output.Marker}

// noteFile is where an outdir says its run is incomplete (interrupted).
const noteFile = "note.txt"

// openOutputs checks -outdir, -timeline and -rocprof before anything is
// simulated. A timeline or profile whose folder is the outdir becomes one
// of its files (output.Check refused one deeper inside it).
func openOutputs(o *options) (*outputs, error) {
	out := &outputs{inDir: map[string]string{}}
	var err error
	if o.outdir != "" {
		if out.dir, err = output.OpenOutdir(o.outdir, o.force, o.stderr); err != nil {
			return nil, err
		}
	}
	open := func(flagName, arg string) (*output.File, error) {
		if arg == "" {
			return nil, nil
		}
		if out.dir != nil && filepath.Dir(output.Locate(arg).Path) == output.Locate(o.outdir).Path {
			name := filepath.Base(arg)
			if slices.Contains(outdirFiles, name) {
				return nil, bad("%s %s: the outdir's own %s", flagName, arg, name)
			}
			out.inDir[flagName] = name
			return nil, nil
		}
		return output.Open(flagName, arg)
	}
	if out.rocprof, err = open("-rocprof", o.rocprof); err == nil {
		if out.timeline, err = open("-timeline", o.timeline); err == nil {
			out.daisen, err = open("-daisen", o.daisen)
		}
	}
	if err != nil {
		out.close()
		return nil, err
	}
	return out, nil
}

// write writes every output file into its temporary place.
func (out *outputs) write(o *options, c *config.Node, res *run.Result) error {
	timeline := func(w io.Writer) error { return report.WriteTimeline(w, res.Timeline, res.Counters) }
	rocprof := func(w io.Writer) error { return profile.WriteRocprofJSON(w, res.Recorded) }
	daisen := func(w io.Writer) error { return run.WriteDaisenCSV(w, res.Tasks) }
	if out.rocprof != nil {
		if err := out.rocprof.Write(rocprof); err != nil {
			return err
		}
	}
	if out.daisen != nil {
		if err := out.daisen.Write(daisen); err != nil {
			return err
		}
	}
	if out.timeline != nil {
		if err := out.timeline.Write(timeline); err != nil {
			return err
		}
	}
	if out.dir == nil {
		return nil
	}
	files := []struct {
		name string
		fn   func(w io.Writer) error
	}{
		{"results.csv", func(w io.Writer) error { return report.WriteCSV(w, res.Rows) }},
		{"results.json", func(w io.Writer) error { return report.WriteJSON(w, res.Rows) }},
		{"config.toml", func(w io.Writer) error { // the overrides above the values they made
			if _, err := io.WriteString(w, o.setup.Lines("# ")); err != nil {
				return err
			}
			return c.WriteTOML(w)
		}},
		{"setup.json", func(w io.Writer) error { return report.WriteSetup(w, o.setup) }},
		{"config.json", c.WriteJSON},
		{"stats.txt", func(w io.Writer) error {
			if _, err := io.WriteString(w, o.setup.Lines("# ")); err != nil { // before the first dump, where gem5's readers look for none
				return err
			}
			return report.WriteStats(w, res.Stats.List())
		}},
		{"commscope.json", func(w io.Writer) error { return writeGBench(w, o, res) }},
		{out.inDir["-timeline"], timeline},
		{out.inDir["-rocprof"], rocprof},
		{out.inDir["-daisen"], daisen},
		{noteFile, func(w io.Writer) error { _, err := io.WriteString(w, interruptNote(res)); return err }},
		{output.Marker, func(w io.Writer) error { _, err := io.WriteString(w, versionText()); return err }},
	}
	for _, f := range files {
		if f.name == "" || f.name == "commscope.json" && o.workload != "commscope" || f.name == noteFile && !res.Interrupted ||
			out.streamed && (f.name == "results.csv" || f.name == "results.json") {
			continue
		}
		if err := out.dir.Write(f.name, f.fn); err != nil {
			return err
		}
	}
	return nil
}

// commit puts the outdir and the timeline in place.
func (out *outputs) commit() error {
	if out.rocprof != nil {
		if err := out.rocprof.Commit(); err != nil {
			return err
		}
	}
	if out.timeline != nil {
		if err := out.timeline.Commit(); err != nil {
			return err
		}
	}
	if out.daisen != nil {
		if err := out.daisen.Commit(); err != nil {
			return err
		}
	}
	if out.dir != nil {
		return out.dir.Commit()
	}
	return nil
}

// close removes whatever was not committed.
func (out *outputs) close() {
	if out.rocprof != nil {
		out.rocprof.Close()
	}
	if out.timeline != nil {
		out.timeline.Close()
	}
	if out.daisen != nil {
		out.daisen.Close()
	}
	if out.dir != nil {
		out.dir.Close()
	}
}

// writeText writes the text layouts (and gbench's JSON) to w; a text
// layout prints what the user gave (labels, names, paths) with no terminal
// controls.
func writeText(o *options, c *config.Node, res *run.Result, w io.Writer) error {
	if o.format == "gbench" {
		return write(o, c, res, w)
	}
	return asText(w, func(w io.Writer) error { return write(o, c, res, w) })
}

// asText writes what fn writes to w as text with no terminal controls: a
// text output prints names, labels and paths the user gave.
func asText(w io.Writer, fn func(io.Writer) error) error {
	var b strings.Builder
	if err := fn(&b); err != nil {
		return err
	}
	_, err := io.WriteString(w, report.PrintableText(b.String()))
	return err
}

func write(o *options, c *config.Node, res *run.Result, w io.Writer) error {
	switch o.format {
	case "csv":
		return report.WriteCSV(w, res.Rows)
	case "json":
		return report.WriteJSON(w, res.Rows)
	case "gbench":
		return writeGBench(w, o, res)
	}
	if o.workload == "osu" { // OSU's own output, nothing before it (when its sizes do not come in order: live.go)
		return report.WriteOSURuns(w, res.Rows, cmp.Or(o.osu.window, 64), osuBanner(o, c))
	}
	if o.workload == "halo" { // acm's medians, unstacked by label, under "#" lines
		if _, err := io.WriteString(w, o.setup.Lines("# ")); err != nil {
			return err
		}
		return report.WriteHalo(w, res.Rows)
	}
	if o.workload == "transferbench" { // TransferBench's own output
		return writeTransferBench(w, o, c, res)
	}
	io.WriteString(w, tableHeading(o, c, res))
	if o.workload == "p2p" {
		return report.WriteP2P(w, res.Rows, c.GCD.Count)
	}
	return report.WriteTable(w, res.Rows)
}

// plainTable says whether the workload's text output is the table of its
// rows (report.WriteTable), not a benchmark's own layout.
func plainTable(o *options) bool {
	switch o.workload {
	case "osu", "rccl", "halo", "transferbench", "p2p":
		return false
	}
	return true
}

// tableHeading is the lines above a text table or matrix: what ran, then
// how it was set up, so a what-if's table says so.
func tableHeading(o *options, c *config.Node, res *run.Result) string {
	return fmt.Sprintf("akisim: %s on %s (%d runs)\n%s\n", what(o), c.Name, len(res.Runs), o.setup.Lines("# "))
}

func what(o *options) string {
	if o.tracePath != "" {
		return "trace " + o.tracePath
	}
	return o.workload
}

// writeGBench writes the results as Google Benchmark JSON, as Comm|Scope
// does, the run's setup as custom context (Google Benchmark's
// AddCustomContext), as setup.json names them.
func writeGBench(w io.Writer, o *options, res *run.Result) error {
	ctx := report.GBenchContext{Date: "simulated", HostName: "akisim", Executable: "akisim",
		NumCPUs: 64, MHzPerCPU: 2000, LibraryBuildType: "release"}
	for _, f := range o.setup.Fields() {
		ctx.Custom = append(ctx.Custom, [2]string{"akisim_" + f[0], f[1]})
	}
	return report.WriteGBench(w, ctx, report.GBenchRuns(res.Rows))
}

// streamRuns builds the STREAM runs from -exec or -gcds, -alloc, -sizes,
// -kernels.
func streamRuns(o *options, c *config.Node) ([]job.Run, error) {
	kernels, err := usage.List("-kernels", o.kernels)
	if err != nil {
		return nil, err
	}
	if o.passes < 1 {
		return nil, bad("-passes: want a count >= 1, got %d", o.passes)
	}
	st := workloads.Stream{Alloc: o.alloc, Iterations: 2, Workgroup: 128, NUMA: c.Host.GCDNUMA, Kernels: kernels, Passes: o.passes}
	flagName, gcds := "-exec", o.exec
	if o.gcds != "" {
		flagName, gcds = "-gcds", o.gcds
	}
	ids, err := gcdIDs(flagName, gcds, c.TotalGCDs())
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if slices.Contains(st.GCDs, id) { // "0,00": list sees two items
			return nil, bad("%s: GCD %d given twice", flagName, id)
		}
		st.GCDs = append(st.GCDs, id)
	}
	if o.sizes == "e6" || o.sizes == "" {
		st.Sizes = workloads.E6Sizes()
	} else {
		sizes, err := usage.List("-sizes", o.sizes)
		if err != nil {
			return nil, err
		}
		for _, s := range sizes {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n < 1024 {
				return nil, bad("-sizes: want byte counts >= 1024 or e6, got %q", s)
			}
			st.Sizes = append(st.Sizes, n)
		}
	}
	runs, err := st.Runs()
	if err != nil {
		return nil, bad("%v", err)
	}
	return runs, nil
}

// osuRuns builds the OSU runs from -bench, -gcds and -sizes.
func osuRuns(o *options, c *config.Node) ([]job.Run, error) {
	osu := workloads.OSU{Bench: cmp.Or(o.bench, "osu_bw"), Window: cmp.Or(o.osu.window, 64), Iterations: 1,
		Warmup: o.osu.warmup, WarmupSet: o.osu.warmupSet}
	if o.osu.itersSet {
		osu.Iterations = o.osu.iters
	}
	var err error
	if osu.GCDs, err = osuGCDs(o, c); err != nil {
		return nil, err
	}
	o.osu.gcds = osu.GCDs
	sizes := o.sizes
	if sizes == "" {
		sizes = "1:4194304"
	}
	if osu.Sizes, err = byteSizes(sizes); err != nil {
		return nil, err
	}
	o.osu.sizes = osu.Sizes
	runs, err := osu.Runs()
	if err != nil && o.gcds == "" && o.osu.ranks > 0 { // the ranks came from -np, not -gcds
		return nil, bad("%s", strings.Replace(err.Error(), "-gcds:", fmt.Sprintf("-np %d:", o.osu.ranks), 1))
	}
	if err != nil {
		return nil, bad("%v", err)
	}
	return runs, nil
}

// gcdIDs reads flagName's comma-separated GCD ids of a node of count GCDs.
func gcdIDs(flagName, v string, count int) ([]int, error) {
	items, err := usage.List(flagName, v)
	if err != nil {
		return nil, err
	}
	ids := make([]int, len(items))
	for i, g := range items {
		id, err := strconv.Atoi(g)
		if err != nil || id < 0 || id >= count {
			return nil, bad("%s: want GCD ids 0..%d, comma separated, got %q", flagName, count-1, v)
		}
		ids[i] = id
	}
	return ids, nil
}

// byteSizes reads -sizes: byte counts, comma separated, or MIN:MAX, the
// powers of two from MIN to MAX (both powers of two).
func byteSizes(v string) ([]int64, error) {
	if lo, hi, ok := strings.Cut(v, ":"); ok {
		a, err1 := strconv.ParseInt(lo, 10, 64)
		b, err2 := strconv.ParseInt(hi, 10, 64)
		if err1 != nil || err2 != nil || a < 1 || b < a || a&(a-1) != 0 || b&(b-1) != 0 || b > 1<<40 {
			return nil, bad("-sizes: want MIN:MAX, powers of two with 1 <= MIN <= MAX <= 2^40, got %q", v)
		}
		var out []int64
		for n := a; n <= b; n *= 2 {
			out = append(out, n)
		}
		return out, nil
	}
	items, err := usage.List("-sizes", v)
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, s := range items {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 || n > 1<<40 {
			return nil, bad("-sizes: want byte counts 1..2^40 or MIN:MAX, got %q", s)
		}
		out = append(out, n)
	}
	return out, nil
}
