package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportRCCLWhatIf: the rocpd sample's all-reduce is re-simulated by
// the rccl package, so narrowing the xGMI links slows it; held at its
// recorded kernel time, it could not move.
func TestImportRCCLWhatIf(t *testing.T) {
	out := filepath.Join(t.TempDir(), "app.jsonl")
	if code, _, errs := akisim(t, "import", "rocprof", "profile/testdata/rocprofv3-rocpd", "-o", out); code != 0 || !strings.Contains(errs, "4 RCCL calls") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	span := func(sets ...string) float64 { return replaySpan(t, out, "AllReduce_RING_Simple_sum,gcd0,", sets...) }
	base, narrow := span(), span("-set", "xgmi.bundle[*].lanes=1")
	if base <= 0 || narrow < 1.5*base {
		t.Errorf("the imported 4 MiB all-reduce: %.2f us on the node's links, %.2f us on one lane each", base, narrow)
	}
}

// replaySpan replays trace out with sets and gives the time in us from
// the start to the end of the CSV rows containing match.
func replaySpan(t *testing.T, out, match string, sets ...string) float64 {
	t.Helper()
	code, stdout, errs := akisim(t, append([]string{"-trace", out, "-format", "csv"}, sets...)...)
	if code != 0 {
		t.Fatal(errs)
	}
	var start, end float64
	for _, l := range strings.Split(stdout, "\n") {
		f := strings.Split(l, ",")
		if len(f) >= 8 && strings.Contains(l, match) {
			v, _ := strconv.ParseFloat(f[len(f)-2], 64)
			switch f[len(f)-3] {
			case "start":
				start = v
			case "end":
				end = v
			}
		}
	}
	return end - start
}
