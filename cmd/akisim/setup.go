package main

import (
	"fmt"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/validate"
)

// setupOf is what every output of the run records (report.Setup): the
// command line, the config and its files, each override as the user typed it (a trace's
// setenv lines among them), the software stack and akisim's version.
func setupOf(o *options, in *input) report.Setup {
	c := in.node
	s := report.Setup{Command: o.args, Config: c.Name, Files: in.src.Files(), Version: versionLine(),
		Stack: report.Stack{ROCm: c.Stack.ROCm, CrayMPICH: c.Stack.CrayMPICH, RCCL: c.Stack.RCCL}}
	for _, ov := range in.sets {
		s.Overrides = append(s.Overrides, ov.Typed())
	}
	return s
}

// coverageWarning is the warning a run beyond what akisim validate checks
// prints, as gem5 prints its warn: lines, once, on stderr; warn prints it
// (nothing when the run is covered).
func coverageWarning(o *options, c *config.Node) (warn func(), err error) {
	line, err := validate.Outside(c)
	if err != nil {
		return nil, err
	}
	return func() {
		if line != "" {
			fmt.Fprintln(o.stderr, "warn:", line)
		}
	}, nil
}
