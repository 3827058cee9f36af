package sweep

import (
	"io"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// A large sweep checks every value of every axis (the points that differ
// from the first in one axis), not every point of the product.
func TestSweepChecksEachAxisValue(t *testing.T) {
	s, err := Parse([]string{"-set", "host.cores=" + count(100), "-set", "gcd.compute_units=" + count(50), "-trace", "/dev/null", "-outdir", filepath.Join(t.TempDir(), "D")}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	pick := s.checkedPoints()
	if len(pick) != 100+50-1 {
		t.Fatalf("%d points checked of %d, want 149", len(pick), len(s.points))
	}
	seen := map[string]bool{}
	for _, i := range pick {
		p := s.points[i]
		if p.Values[0] != "1" && p.Values[1] != "1" {
			t.Errorf("point %d (%v) differs from the first in two axes", i, p.Values)
		}
		seen["a"+p.Values[0]], seen["b"+p.Values[1]] = true, true
	}
	if len(seen) != 150 {
		t.Errorf("%d axis values checked, want all 150", len(seen))
	}
	small, _ := Parse([]string{"-set", "host.cores=" + count(64), "-set", "gcd.compute_units=" + count(64), "-trace", "/dev/null", "-outdir", "D"}, io.Discard)
	if n := len(small.checkedPoints()); n != 4096 {
		t.Errorf("a sweep of 4096 points checks %d of them, want every one", n)
	}
}

// Without -jobs a sweep runs as many points at once as GOMAXPROCS allows
// (Go sets it from the cores and the cgroup's CPU quota), not one per core.
func TestSweepJobsFollowGOMAXPROCS(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	s, err := Parse([]string{"-set", "host.cores=1,2", "-trace", "/dev/null", "-outdir", filepath.Join(t.TempDir(), "D")}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if s.jobs != 1 {
		t.Errorf("default jobs %d with GOMAXPROCS 1, want 1", s.jobs)
	}
}

// count is "1,2,...,n": an axis of n values.
func count(n int) string {
	v := make([]string, n)
	for i := range v {
		v[i] = strconv.Itoa(i + 1)
	}
	return strings.Join(v, ",")
}
