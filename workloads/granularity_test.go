package workloads

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/akisim/akisim/trace"
)

// granularityRuns are small versions of every kind of traffic: SDMA peer
// copies on a quad, a single and a 3-hop route, their latency, host copies
// both ways, host loads, a mid-sized copy (where transaction size would show as
// pipeline fill), and STREAM local, peer and host, in and out of the L2.
func granularityRuns(t *testing.T) []Run {
	p := DefaultP2P(8)
	p.Bytes, p.Repeat = 32<<20, 2
	var runs []Run
	for _, r := range p.Runs() {
		for _, pair := range []string{"/0/1", "/0/2", "/1/7", "/3/3"} {
			if strings.HasSuffix(r.Name, pair) && !strings.HasPrefix(r.Name, "bidirectional") {
				runs = append(runs, r)
			}
		}
	}
	for _, n := range []int64{1 << 20, 64 << 20} {
		runs = append(runs, TraceRun(fmt.Sprintf("h2d-%d", n), []trace.Op{
			hostAlloc("h", 3, n), alloc("d", 0, n), alloc("p", 1, n),
			{Op: trace.Memcpy, Src: "h", Dst: "d", Bytes: n},
			{Op: trace.Memcpy, Src: "d", Dst: "h", Bytes: n},
			{Op: trace.Memcpy, Src: "d", Dst: "p", Bytes: n}}))
	}
	// host loads of mapped GCD memory: latency-bound, then link-bound
	numa := 1
	for _, th := range []int{1, 64} {
		runs = append(runs, TraceRun(fmt.Sprintf("host-load-%d", th), []trace.Op{alloc("d", 2, 16<<20),
			{Op: trace.HostAccess, NUMA: &numa, Threads: th, Access: []trace.Access{{Buf: "d", Mode: "read", Bytes: 16 << 20}}}}))
	}
	for _, st := range []Stream{
		{GCDs: []int{0}, Alloc: "local", Sizes: []int64{2 << 20, 16 << 20, 128 << 20}},
		{GCDs: []int{0}, Alloc: "1", Sizes: []int64{16 << 20}},
		{GCDs: []int{0}, Alloc: "host", Sizes: []int64{16 << 20}},
	} {
		st.Kernels, st.Iterations, st.Workgroup = []string{"copy", "triad"}, 2, 128
		st.NUMA = frontier(t).Host.GCDNUMA
		r, err := st.Runs()
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r...)
	}
	return runs
}

// Every [sim] knob is simulation granularity: over its allowed range no
// result may move by more than 1% from the default's.
func TestGranularityLeavesResultsUnchanged(t *testing.T) {
	if testing.Short() {
		t.Skip("sweeps every granularity knob")
	}
	runs := granularityRuns(t)
	base, err := Execute(frontier(t), runs)
	if err != nil {
		t.Fatal(err)
	}
	streamBelowHBM(t, "default", base)
	sizes := []string{"4096", "16384", "262144", "1048576"}
	for _, knob := range []struct {
		key    string
		values []string
		known  string // a dependence not fixed yet: measured and logged, not asserted
	}{
		{"sim.sdma_transaction_bytes", sizes, ""},
		{"sim.cu_transaction_bytes", sizes, ""},
		{"sim.core_transaction_bytes", sizes, ""},
		{"sim.l2_block_bytes", []string{"4096"}, ""}, // at most 8 KiB (config.MaxL2BlockBytes)
		{"sim.early_booking", []string{"0", "0.25", "1"}, ""},
	} {
		for _, v := range knob.values {
			set := knob.key + "=" + v
			res, err := Execute(frontier(t, set), runs)
			if err != nil {
				t.Fatalf("%s: %v", set, err)
			}
			streamBelowHBM(t, set, res)
			for i, r := range res.Rows {
				b := base.Rows[i]
				if d := math.Abs(r.Value-b.Value) / b.Value; d > 0.01 {
					report := t.Errorf
					if knob.known != "" {
						report = t.Logf
					}
					report("%s: %s %s %s->%s %d B: %.4g %s, default %.4g (%.2f%%)", set, r.Workload, r.Case,
						r.Src, r.Dst, r.Bytes, r.Value, r.Unit, b.Value, 100*d)
				}
			}
		}
		if knob.known != "" {
			t.Logf("%s: known dependence, not asserted: %s", knob.key, knob.known)
		}
	}
}

// streamBelowHBM checks that no STREAM result beats the HBM peak: every
// array is read or written in HBM, and what the L2 holds between kernels
// is written back at each event (system-scope release).
func streamBelowHBM(t *testing.T, set string, res *Result) {
	peak := frontier(t).GCD.HBMBandwidthGBps
	for _, r := range res.Rows {
		if r.Workload == "stream" && r.Value > peak {
			t.Errorf("%s: STREAM %s %s at %d B: %.0f GB/s, above the %.0f GB/s HBM peak", set, r.Case, r.Src, r.Bytes, r.Value, peak)
		}
	}
}

// At the default granularity no STREAM kernel beats the HBM peak at any of
// the seed paper's sizes up to 1 GiB.
func TestStreamBelowHBMPeakAtEverySize(t *testing.T) {
	c := frontier(t)
	var sizes []int64
	for _, n := range E6Sizes() {
		if n <= 1<<30 {
			sizes = append(sizes, n)
		}
	}
	st := Stream{GCDs: []int{0}, Alloc: "local", Sizes: sizes, Kernels: StreamKernels,
		Iterations: 2, Workgroup: 128, NUMA: c.Host.GCDNUMA}
	streamBelowHBM(t, "default", runStream(t, c, st))
}
