package main

import (
	"github.com/akisim/akisim/report"
)

// setupOf is what every output of the run records (report.Setup): the
// config and its files, each override as the user typed it (a trace's
// setenv lines among them), the software stack and akisim's version.
func setupOf(in *input) report.Setup {
	c := in.node
	s := report.Setup{Config: c.Name, Files: in.src.Files(), Version: versionLine(),
		Stack: report.Stack{ROCm: c.Stack.ROCm, CrayMPICH: c.Stack.CrayMPICH, RCCL: c.Stack.RCCL}}
	for _, ov := range in.sets {
		s.Overrides = append(s.Overrides, ov.Typed())
	}
	return s
}
