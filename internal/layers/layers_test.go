package layers

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/akisim/akisim/"

// deps is what package pkg (of this module) builds on, itself included,
// as go list -deps lists it; its tests' imports do not count.
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", module+pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}

// banned says which of list's packages a rule forbids: those with a
// prefix in bans (a module-relative prefix, or a full import path).
func banned(list, bans []string) []string {
	var bad []string
	for _, d := range list {
		for _, b := range bans {
			if strings.HasPrefix(b, "github.com/") && strings.HasPrefix(d, b) ||
				d == module+b || strings.HasSuffix(b, "/") && strings.HasPrefix(d, module+b) {
				bad = append(bad, d)
			}
		}
	}
	return bad
}

// engine is what drives or records a simulation: Akita, the node and its
// components, the HIP runtime and the libraries on it, the run layer and
// its checks and recordings.
var engine = []string{"github.com/sarchlab/akita/", "components/", "node", "hip", "mpi", "rccl",
	"run", "invariant", "profile", "validate", "compare", "cmd/"}

// network is the code of the network between nodes: the NICs, and the
// MPI library's transport over them.
var network = []string{"components/nic", "node", "mpi", "rccl", "run", "workloads"}

// lowered is the runtime's command form (package ir): what only a
// library's lowering writes.
var lowered = []string{"ir"}

// The layers: a workload generates operations (package job's Run) and
// turns their times into the benchmark's numbers, with no engine, node,
// statistics or recording below it; package run executes it. The rows it
// makes (package report) are formats, not engine code either. A
// workload writes only what a trace file could hold (package trace): the
// libraries lower their calls into the runtime's commands (package ir),
// which know no engine. The HIP runtime knows no network: it runs the
// commands it is given on the engines it is given.
func TestLayers(t *testing.T) {
	for _, rule := range []struct {
		pkg  string
		bans []string
	}{
		{"workloads", engine},
		{"workloads", lowered}, // a workload writes what a trace file could hold
		{"halo", lowered},
		{"job", engine},
		{"commcheck", engine},
		{"job", lowered},
		{"report", engine},
		{"ir", engine},
		{"hip", network},
	} {
		list := deps(t, rule.pkg)
		if len(list) == 0 || list[len(list)-1] != module+rule.pkg {
			t.Fatalf("go list -deps %s: %d packages, not ending in the package itself", rule.pkg, len(list))
		}
		if bad := banned(list, rule.bans); len(bad) > 0 {
			t.Errorf("%s builds on %s", rule.pkg, strings.Join(bad, ", "))
		}
	}
}

// The rule catches what it is meant to: run is below no ban of its own,
// and builds on the engine, the node and the HIP runtime.
func TestLayersCatch(t *testing.T) {
	bad := banned(deps(t, "run"), engine)
	for _, want := range []string{"github.com/sarchlab/akita/v3/sim", module + "node", module + "hip", module + "components/gcd"} {
		found := false
		for _, b := range bad {
			found = found || b == want
		}
		if !found {
			t.Errorf("the engine rule does not catch %s under run (caught: %v)", want, bad)
		}
	}
}
