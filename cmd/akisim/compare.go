package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"

	"github.com/akisim/akisim/compare"
	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/profile"
)

// compareUsage is akisim compare's synopsis.
const compareUsage = "akisim compare gem5 M5OUT [-debug FILE] [-config NODE]: M5OUT holds stats.txt and the debug trace (trace.out)"

// runCompare is `akisim compare gem5 M5OUT`: it replays gem5's kernels and
// SDMA copies (its debug trace) on the matching node (gem5-mi200.toml) and
// prints, per kernel and copy, gem5's time beside akisim's, then the
// totals of gem5's stats.txt beside akisim's.
func runCompare(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "rocprof" {
		return runCompareRocprof(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("akisim compare", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	debug := fs.String("debug", "", "the gem5 debug trace (default M5OUT/trace.out)")
	cfg := fs.String("config", "gem5-mi200.toml", "the node gem5's device is matched by")
	pos, err := commandArgs(fs, args, stderr, "compare", compareUsage)
	if err != nil {
		return err
	}
	if len(pos) != 2 || pos[0] != "gem5" {
		return bad("compare: want gem5 and M5OUT (%s)", compareUsage)
	}
	m5out := pos[1]
	if *debug == "" {
		*debug = gem5Trace(m5out)
	}
	c, err := loadConfig(&options{config: *cfg})
	if err != nil {
		return err
	}
	return compare.Gem5(stdout, m5out, *debug, c)
}

// compareRocprofUsage is akisim compare rocprof's synopsis.
const compareRocprofUsage = "akisim compare rocprof PATH [-config NODE] [-set KEY=VALUE]...: PATH is rocprofv3's output (rocpd, JSON or CSV)"

// runCompareRocprof is `akisim compare rocprof PATH`: it imports the
// profile, replays it, and prints each kernel and copy's recorded time
// beside the replay's (profile.Compare does the lining up).
func runCompareRocprof(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("akisim compare rocprof", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cfg := fs.String("config", "frontier-node.toml", "the node the profile was recorded on")
	var sets setFlags // a what-if: the replay on a changed node
	fs.Var(&sets, "set", "override a config value, KEY=VALUE (repeatable)")
	pos, err := parseMixed(fs, args)
	if err != nil {
		if help(fs, stderr, compareRocprofUsage, err) {
			return flag.ErrHelp
		}
		return bad("compare rocprof: %v (%s)", err, compareRocprofUsage)
	}
	if len(pos) != 1 {
		return bad("compare rocprof: want PATH (%s)", compareRocprofUsage)
	}
	p, err := profile.ReadRocprof(pos[0])
	if err != nil {
		return bad("compare rocprof: %v", err)
	}
	c, err := loadConfig(&options{config: *cfg, overrides: config.Sets(sets)})
	if err != nil {
		return err
	}
	whatIf := ""
	for _, s := range sets {
		whatIf += " -set " + s
	}
	return compare.Rocprof(stdout, pos[0], p, c, whatIf)
}

// gem5Trace is the debug trace of a gem5 run: path itself, or the
// trace.out of the m5out folder path names (gem5's --debug-file), so
// import gem5 and compare gem5 take the same folder.
func gem5Trace(path string) string {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return filepath.Join(path, "trace.out")
	}
	return path
}
