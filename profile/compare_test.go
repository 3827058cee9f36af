package profile

import (
	"strings"
	"testing"
)

// TestCompareMismatch: a replay that lacks one of the profile's kernels or
// copies is an error naming the rank and GCD, not a shifted line-up.
func TestCompareMismatch(t *testing.T) {
	real, err := ReadRocprofJSON("testdata/rocprofv3-json")
	if err != nil {
		t.Fatal(err)
	}
	lines, err := Compare(real, real)
	if err != nil || len(lines) != 7 {
		t.Fatalf("the profile against itself: %d lines, %v", len(lines), err)
	}
	for _, l := range lines {
		if l.Profile != l.Simulated {
			t.Errorf("%+v: not its own time", l)
		}
	}
	short := *real
	short.Kernels = real.Kernels[1:]
	if _, err := Compare(real, &short); err == nil || !strings.Contains(err.Error(), "rank 0, GCD 0: the profile has 2 kernels, the replay 1") {
		t.Errorf("a kernel missing: %v", err)
	}
	short = *real
	short.Copies = real.Copies[1:]
	if _, err := Compare(real, &short); err == nil || !strings.Contains(err.Error(), "rank 0: the profile has 3 copies, the replay 2") {
		t.Errorf("a copy missing: %v", err)
	}
}
