package main

import (
	"strconv"
	"strings"
	"testing"
)

// TestCompareRocprof: the rocpd sample's kernels and copies, each beside
// the replay's time with their ratio; a kernel held at its recorded time
// comes back within the launch's end-of-kernel release.
func TestCompareRocprof(t *testing.T) {
	code, stdout, errs := akisim(t, "compare", "rocprof", "profile/testdata/rocprofv3-rocpd")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 2+7 || !strings.HasPrefix(lines[1], "kind") || !strings.HasSuffix(lines[1], "ratio") {
		t.Fatalf("want a header and the sample's 4 kernels and 3 copies:\n%s", stdout)
	}
	for _, l := range lines[2:] {
		f := strings.Fields(l)
		ratio, err := strconv.ParseFloat(f[len(f)-1], 64)
		if err != nil || ratio <= 0 {
			t.Errorf("no ratio: %q", l)
		}
		if strings.Contains(l, "vector_add") && (ratio < 1 || ratio > 1.01) {
			t.Errorf("vector_add, held at its recorded time: ratio %.3f", ratio)
		}
	}
	// a what-if: one xGMI lane per link slows the re-simulated all-reduce
	_, narrow, _ := akisim(t, "compare", "rocprof", "profile/testdata/rocprofv3-rocpd", "-set", "xgmi.bundle[*].lanes=1")
	akisimUs := func(out string) float64 {
		for _, l := range strings.Split(out, "\n") {
			if f := strings.Fields(l); strings.HasPrefix(l, "kernel") && strings.Contains(l, "ncclDevKernel") {
				v, _ := strconv.ParseFloat(f[len(f)-2], 64)
				return v
			}
		}
		return 0
	}
	if a, b := akisimUs(stdout), akisimUs(narrow); a <= 0 || b < 1.5*a || !strings.Contains(narrow, "-set xgmi.bundle[*].lanes=1") {
		t.Errorf("the all-reduce: %.3f us, %.3f us on one lane; header %q", a, b, strings.SplitN(narrow, "\n", 2)[0])
	}
	wantBad(t, []string{"compare", "rocprof"}, "compare rocprof: want PATH")
	wantBad(t, []string{"compare", "rocprof", t.TempDir()}, "compare rocprof: ")
}
