package report

import (
	"math/bits"
	"strconv"
)

// GBenchRuns turns Comm|Scope rows (metric "time" in us, Case = family,
// Src/Dst = benchmark arguments) into Google Benchmark runs named exactly
// as Comm|Scope names them.
func GBenchRuns(rows []Row) []GBenchRun {
	var runs []GBenchRun
	for _, r := range rows {
		if r.Metric != "time" || r.Bytes <= 0 {
			continue
		}
		a0, err0 := strconv.Atoi(r.Src)
		a1, err1 := strconv.Atoi(r.Dst)
		if err0 != nil || err1 != nil {
			continue
		}
		k := bits.Len64(uint64(r.Bytes)) - 1
		counters := map[string]float64{"bytes": float64(r.Bytes)}
		runs = append(runs, GBenchRun{Name: CommScopeName(r.Case, a0, a1, k), Iterations: 1,
			RealTimeNs: r.Value * 1e3, Bytes: r.Bytes, Counters: counters})
	}
	return runs
}
