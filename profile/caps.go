package profile

// The most akisim reads of a profiler's file (internal/capped): a larger
// one is refused with its path and the cap. A file read whole or held as
// rows (rocprofv3's JSON and CSV, legacy rocprof's text, gem5's stats.txt)
// takes several times its size in memory: 1 GiB, as a trace. A gem5
// debug trace is scanned for its kernels and copies, holding only those:
// 16 GiB. A rocpd database is queried by SQLite a page at a time: 4 GiB.
const (
	MaxFileBytes      = 1 << 30
	MaxGem5TraceBytes = 16 << 30
	MaxRocpdBytes     = 4 << 30
)
