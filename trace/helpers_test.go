package trace

import (
	"strings"
	"testing"
)

// checkText parses and checks a trace given as text, as t.jsonl.
func checkText(in string) error {
	ops, err := Parse(strings.NewReader(in), "t.jsonl")
	if err == nil {
		err = Check(ops, testNode, "t.jsonl")
	}
	return err
}

// checked parses and checks a trace that must be good, as t.jsonl.
func checked(t *testing.T, in string) []Op {
	t.Helper()
	ops, err := Parse(strings.NewReader(in), "t.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(ops, testNode, "t.jsonl"); err != nil {
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
