// Package compare replays another tool's record of a run on akisim and
// sets the two side by side: gem5's kernels and copies (gem5.go), a
// rocprofv3 profile's (rocprof.go), each with the ratio of akisim's time
// to the record's.
package compare
