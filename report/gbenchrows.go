package report

import "math/bits"

// GBenchRuns turns Comm|Scope rows (metric "time" in us, Case = family)
// into Google Benchmark runs named exactly as Comm|Scope names them. The
// arguments come from the row's endpoints: a NUMA domain and a GCD, in
// either direction, give /<numa>/<gpu>/; two GCDs give /<src>/<dst>/.
// Rows whose endpoints are neither are skipped.
func GBenchRuns(rows []Row) []GBenchRun {
	var runs []GBenchRun
	for _, r := range rows {
		if r.Metric != "time" || r.Bytes <= 0 {
			continue
		}
		a0, a1, ok := commScopeArgs(r.Src, r.Dst)
		if !ok {
			continue
		}
		k := bits.Len64(uint64(r.Bytes)) - 1
		counters := map[string]float64{"bytes": float64(r.Bytes)}
		runs = append(runs, GBenchRun{Name: CommScopeName(r.Case, a0, a1, k), Iterations: 1,
			RealTimeNs: r.Value * 1e3, Bytes: r.Bytes, Counters: counters})
	}
	return runs
}

// commScopeArgs gives a benchmark's two arguments from a row's endpoints.
func commScopeArgs(src, dst string) (int, int, bool) {
	s, err1 := ParseEndpoint(src)
	d, err2 := ParseEndpoint(dst)
	switch {
	case err1 != nil || err2 != nil:
		return 0, 0, false
	case d.Device(): // GPU to GPU, or host to GPU
		return s.ID, d.ID, true
	case s.Device() && d.Kind == "numa":
		return d.ID, s.ID, true
	}
	return 0, 0, false
}
