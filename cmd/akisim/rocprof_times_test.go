package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestRocprofKernelTimesAgree: the CSV and -rocprof time each kernel of a
// replay alike, from its first workgroup to its end (rocprofv3's dispatch
// start and end), not from its launch.
func TestRocprofKernelTimesAgree(t *testing.T) {
	dir := t.TempDir()
	tr, exported := filepath.Join(dir, "app.jsonl"), filepath.Join(dir, "sim_results.json")
	if code, _, errs := akisim(t, "import", "rocprof", "profile/testdata/rocprofv3-json", "-o", tr); code != 0 {
		t.Fatal(errs)
	}
	code, stdout, errs := akisim(t, "-trace", tr, "-rocprof", exported, "-format", "csv")
	if code != 0 {
		t.Fatal(errs)
	}
	var csv [][2]float64 // start, end in ns
	for _, l := range strings.Split(stdout, "\n") {
		f := strings.Split(l, ",")
		if len(f) < 8 || !strings.Contains(l, ",gcd") || strings.Contains(l, "memcpy") {
			continue
		}
		v, _ := strconv.ParseFloat(f[len(f)-2], 64)
		switch f[len(f)-3] {
		case "start":
			csv = append(csv, [2]float64{v * 1e3, 0})
		case "end":
			csv[len(csv)-1][1] = v * 1e3
		}
	}
	data, err := os.ReadFile(exported)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Tool []struct {
			BufferRecords struct {
				KernelDispatch []struct {
					Start float64 `json:"start_timestamp"`
					End   float64 `json:"end_timestamp"`
				} `json:"kernel_dispatch"`
			} `json:"buffer_records"`
		} `json:"rocprofiler-sdk-tool"`
	}
	if err := json.Unmarshal(data, &out); err != nil || len(out.Tool) != 1 {
		t.Fatalf("%s: %v", exported, err)
	}
	var rp [][2]float64
	for _, k := range out.Tool[0].BufferRecords.KernelDispatch {
		rp = append(rp, [2]float64{k.Start, k.End})
	}
	less := func(a, b [2]float64) int { return int(math.Copysign(1, a[0]-b[0])) }
	slices.SortFunc(csv, less)
	slices.SortFunc(rp, less)
	if len(csv) != 4 || len(rp) != len(csv) {
		t.Fatalf("%d kernels in the CSV, %d in -rocprof; want the sample's 4", len(csv), len(rp))
	}
	for i := range csv {
		if math.Abs(csv[i][0]-rp[i][0]) > 1 || math.Abs(csv[i][1]-rp[i][1]) > 1 {
			t.Errorf("kernel %d: CSV %.0f-%.0f ns, -rocprof %.0f-%.0f ns", i, csv[i][0], csv[i][1], rp[i][0], rp[i][1])
		}
	}
}
