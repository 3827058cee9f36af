package workloads

import (
	"math"
	"testing"
	"time"

	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/trace"
)

// A node at the edges of the config's ranges builds and runs a small
// trace in bounded time and memory: the ranges, not luck, keep runs
// finite.
func TestConfigRangeEdgesRun(t *testing.T) {
	ops := []trace.Op{alloc("a", 0, 8<<20), alloc("b", 1, 8<<20), hostAlloc("h", 3, 8<<20),
		{Op: trace.MemcpyPeerAsy, Src: "a", Dst: "b", Bytes: 8 << 20, Stream: 1},
		{Op: trace.MemcpyAsync, Src: "h", Dst: "a", Bytes: 8 << 20, Stream: 2},
		{Op: trace.Kernel, Name: "k", GCD: intp(0), Stream: 3, Grid: 1 << 20, Workgroup: 1024, ComputeNs: 1e9,
			Access: []trace.Access{{Buf: "a", Mode: "read", Bytes: 8 << 20, Pattern: "random", Element: 1}}},
		{Op: trace.HostAccess, NUMA: intp(0), Threads: trace.MaxThreads, Access: []trace.Access{{Buf: "h", Mode: "write", Bytes: 8 << 20}}},
		{Op: trace.DeviceSync}}
	for _, edge := range [][]string{
		{"sdma.host_engines=16", "sdma.xgmi_engines=16", "sdma.queues_per_engine=64", "gcd.compute_units=1024",
			"gcd.workgroup_slots=256", "host.cores=1024", "gcd.l2_bytes=1073741824", "gcd.line_bytes=16",
			"xgmi.packet_payload_bytes=1", "xgmi.request_bytes=11", // 11: the read-data packet of a 1 B payload
			"runtime.blit_workgroup_bytes=1"},
		{"sdma.host_engines=1", "sdma.xgmi_engines=1", "sdma.queues_per_engine=1", "gcd.compute_units=1",
			"gcd.workgroup_slots=1", "host.cores=1", "gcd.line_bytes=4096", "xgmi.lane_bandwidth_gbps=0.001",
			"gcd.hbm_latency_ns=1e9", "dram.channel_bandwidth_gbps=0.001", "gcd.clock_ghz=0.001"},
	} {
		c := frontier(t, edge...)
		start := time.Now()
		res, err := run.Execute(c, []job.Run{TraceRun("edge.jsonl", ops)})
		if err != nil {
			t.Fatalf("%v: %v", edge, err)
		}
		if wall := time.Since(start); wall > 30*time.Second {
			t.Errorf("%v: took %v", edge, wall)
		}
		for _, r := range res.Rows {
			if math.IsNaN(r.Value) || math.IsInf(r.Value, 0) || r.Value < 0 {
				t.Errorf("%v: row %+v", edge, r)
			}
		}
	}
}
