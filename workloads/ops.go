package workloads

import "github.com/akisim/akisim/trace"

func intp(v int) *int { return &v }

func alloc(name string, gcd int, bytes int64) trace.Op {
	return trace.Op{Op: trace.Malloc, Buf: name, GCD: intp(gcd), Bytes: bytes}
}

func hostAlloc(name string, numa int, bytes int64) trace.Op {
	return trace.Op{Op: trace.HostMalloc, Buf: name, NUMA: intp(numa), Bytes: bytes}
}

func record(event string, stream int) trace.Op {
	return trace.Op{Op: trace.EventRecord, Event: event, Stream: stream}
}

func gbps(bytes float64, seconds float64) float64 { return bytes / seconds / 1e9 }
