package commcheck

import (
	"strings"
	"testing"

	"github.com/akisim/akisim/trace"
)

// testNode is an 8-GCD node whose traces are checked with MPI's and
// RCCL's semantics.
var testNode = trace.Limits{GCDs: 8, NUMADomains: 4, HBMBytes: 64 << 30, NUMABytes: 128 << 30, Libraries: Libraries}

// checkText parses and checks a trace given as text, as t.jsonl.
func checkText(in string) error {
	ops, err := trace.Parse(strings.NewReader(in), "t.jsonl")
	if err == nil {
		err = trace.Check(ops, testNode, "t.jsonl")
	}
	return err
}

// checked parses and checks a trace that must be good, as t.jsonl.
func checked(t *testing.T, in string) []trace.Op {
	t.Helper()
	ops, err := trace.Parse(strings.NewReader(in), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := trace.Check(ops, testNode, "t.jsonl"); err != nil {
		t.Fatal(err)
	}
	return ops
}

// checkFails asserts that a trace, parsed and checked as t.jsonl, fails
// with exactly the error want.
func checkFails(t *testing.T, in, want string) {
	t.Helper()
	if err := checkText(in); err == nil || err.Error() != want {
		t.Errorf("%s\n got: %v\nwant: %s", in, err, want)
	}
}
