package main

import (
	"strings"

	"github.com/akisim/akisim/output"
)

// runPaths are a run's (or validate's) inputs and outputs: the config and
// its bases, the trace, TransferBench's -cfg; the outdir, whose own files
// a -timeline, -rocprof or -daisen directly in it become, and the other files.
func (o *options) runPaths(configFiles []string) (ins, outs []output.Path) {
	for i, f := range configFiles {
		if strings.HasPrefix(f, "embedded:") {
			continue
		}
		flag := "-config"
		if i > 0 {
			flag = "-config's base"
		}
		ins = append(ins, output.Path{Flag: flag, Path: f})
	}
	ins = append(ins, output.Path{Flag: "-trace", Path: o.tracePath}, output.Path{Flag: "-cfg", Path: o.tbConfig})
	outs = []output.Path{
		{Flag: "-outdir", Path: o.outdir, Replaced: true, Inside: []string{"-timeline", "-rocprof", "-daisen"}},
		{Flag: "-timeline", Path: o.timeline}, {Flag: "-rocprof", Path: o.rocprof}, {Flag: "-daisen", Path: o.daisen},
		{Flag: "-cpuprofile", Path: o.cpuprofile}, {Flag: "-memprofile", Path: o.memprofile},
	}
	return ins, outs
}

// checkRunPaths reads the config (once: readConfig keeps it) and checks
// the run's paths, before any output is opened.
func checkRunPaths(o *options) error {
	in, err := readConfig(o)
	if err != nil {
		return err
	}
	ins, outs := o.runPaths(in.src.Files())
	return output.Check(ins, outs)
}
