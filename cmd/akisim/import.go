package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/output"
	"github.com/akisim/akisim/profile"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// importUsage is akisim import's synopsis.
const importUsage = "akisim import FORMAT PATH -o TRACE [-config NODE]: FORMAT rocprof (rocprofv3's rocpd, JSON or CSV output: a file or its folder) rocprof-legacy (rocprof v1's hip_api_trace.txt, hcc_ops_trace.txt, results.csv) or gem5 (its debug trace, or the m5out folder holding it as trace.out)"

// runImport is `akisim import FORMAT PATH -o TRACE`: it reads a profiler's
// output, writes an akisim trace that fits the node of -config, and says on
// stderr what it carried over and what it dropped or approximated.
func runImport(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("akisim import", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("o", "", "the trace file to write (JSON Lines)")
	cfg := fs.String("config", "frontier-node.toml", "the node the trace must fit (its GCDs and NUMA domains)")
	pos, err := commandArgs(fs, args, stderr, "import", importUsage)
	if err != nil {
		return err
	}
	if len(pos) != 2 || *out == "" {
		return bad("import: want FORMAT, PATH and -o TRACE (%s)", importUsage)
	}
	format, path := pos[0], pos[1]
	if format == "gem5" { // its m5out folder is its trace.out: the file the -o check must see
		path = gem5Trace(path)
	}
	co := &options{config: *cfg}
	c, err := loadConfig(co)
	if err != nil {
		return err
	}
	ins, _ := co.runPaths(co.read.src.Files())
	for _, f := range profileFiles(path) {
		ins = append(ins, output.Path{Flag: "import PATH", Path: f})
	}
	if err := output.Check(ins, []output.Path{{Flag: "-o", Path: *out}}); err != nil {
		return err
	}
	dst, err := output.Open("-o", *out) // before the profile is read: a bad -o is bad input
	if err != nil {
		return err
	}
	defer dst.Close()
	var p *profile.Profile
	switch format {
	case "rocprof":
		p, err = profile.ReadRocprof(path)
	case "gem5":
		p, err = profile.ReadGem5Trace(path)
	case "rocprof-legacy":
		p, err = profile.ReadRocprofLegacy(path)
	default:
		return bad("import: unknown format %q (want rocprof, rocprof-legacy or gem5)", format)
	}
	if err != nil {
		return bad("import %s: %v", format, err)
	}
	ops, err := p.Trace(profile.Limits{GCDs: c.GCD.Count, NUMA: c.Host.NUMADomains})
	if err != nil {
		return bad("import %s: %v", format, err)
	}
	if err := trace.Check(ops, job.Limits(c), path); err != nil {
		return bad("import %s: the trace does not fit %s: %v", format, c.Name, err)
	}
	// written beside it, then renamed: a failed write leaves the old file
	if err := dst.Write(func(w io.Writer) error { return trace.Write(w, ops) }); err != nil {
		return err
	}
	if err := dst.Commit(); err != nil {
		return err
	}
	for _, l := range p.Report.Lines() {
		fmt.Fprintf(stderr, "akisim import: %s\n", report.Printable(l)) // it may name the profile's kernels
	}
	return nil
}

// profileFiles are the files an import of path may read: path itself, or
// the profiler's files (.db, .json, .csv, .txt) in the folder and the
// folders in it.
func profileFiles(path string) []string {
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		return []string{path}
	}
	var out []string
	for _, pat := range []string{"*", filepath.Join("*", "*")} {
		m, _ := filepath.Glob(filepath.Join(path, pat))
		for _, f := range m {
			switch filepath.Ext(f) {
			case ".db", ".json", ".csv", ".txt":
				out = append(out, f)
			}
		}
	}
	return out
}

// help says whether a parse error is -h or -help, and then writes the
// command's usage and flags on stderr (the command exits 0).
func help(fs *flag.FlagSet, stderr io.Writer, usage string, err error) bool {
	if err != flag.ErrHelp {
		return false
	}
	fmt.Fprintf(stderr, "usage: %s\n", usage)
	fs.SetOutput(stderr)
	fs.PrintDefaults()
	return true
}

// commandArgs parses a subcommand's arguments: its flags (fs; nil for
// none), anywhere, and its words, in order. -h prints usage and the flags
// (flag.ErrHelp); a bad flag or an empty value is bad input naming the
// subcommand.
func commandArgs(fs *flag.FlagSet, args []string, stderr io.Writer, name, usage string) ([]string, error) {
	if fs == nil {
		fs = flag.NewFlagSet("akisim "+name, flag.ContinueOnError)
		fs.SetOutput(io.Discard)
	}
	pos, err := parseMixed(fs, args)
	if err != nil {
		if help(fs, stderr, usage, err) {
			return nil, flag.ErrHelp
		}
		return nil, bad("%s: %v (%s)", name, err, usage)
	}
	if err := refuseEmpty(fs, name+" "); err != nil {
		return nil, err
	}
	return pos, nil
}

// parseMixed parses flags and positional arguments given in any order and
// returns the positional ones.
func parseMixed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if args = fs.Args(); len(args) > 0 {
			pos, args = append(pos, args[0]), args[1:]
		}
	}
	return pos, nil
}
