package run

import (
	"math"
	"strings"
	"testing"

	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
)

// A row that is not finite is an internal error (a panic, exit 3), never
// printed.
func TestFiniteRows(t *testing.T) {
	ok := []report.Row{{Metric: "end", Value: 1, Unit: "us"}}
	if got := finite(ok); len(got) != 1 {
		t.Errorf("finite rows: %v", got)
	}
	for _, v := range []float64{math.Inf(1), math.Inf(-1), math.NaN()} {
		func() {
			defer func() {
				if p := recover(); p == nil || !strings.Contains(p.(string), "bandwidth") {
					t.Errorf("%v: panic %v, want one naming the row", v, p)
				}
			}()
			finite([]report.Row{{Workload: "trace", Case: "c", Metric: "bandwidth", Value: v, Unit: "GB/s"}})
		}()
	}
}

// Issue 21: a NIC whose PCIe link is slower than 1 GB/s moves data at that
// rate; its datapath once took whole GB/s only, so below 1 it moved nothing
// and the message ended at +Inf.
func TestReproNICSlowPCIe(t *testing.T) {
	const n = 64 << 10
	var ends []float64
	for _, gbps := range []string{"0.5", "1"} {
		c := frontier(t, "network.nodes=2", "nic.pcie.bandwidth_gbps="+gbps)
		ops := []trace.Op{alloc("a", 2, n), {Op: trace.Malloc, Buf: "b", GCD: intp(c.GCD.Count + 3), Bytes: n, Rank: 1},
			{Op: trace.MPISend, Buf: "a", Bytes: n, Peer: intp(1)}, {Op: trace.MPIRecv, Buf: "b", Bytes: n, Peer: intp(0), Rank: 1}}
		res, err := Execute(c, []Run{TraceRun("nic.jsonl", ops)})
		if err != nil {
			t.Fatal(err)
		}
		end := 0.0
		for _, r := range res.Rows {
			if r.Metric == "return" {
				end = max(end, r.Value)
			}
		}
		ends = append(ends, end)
	}
	// the PCIe link carries the message twice (sender's and receiver's NIC):
	// at half the rate it takes longer, and far from forever
	if !(ends[0] > ends[1] && ends[0] < 4*ends[1]) {
		t.Errorf("message ends at %g us over 0.5 GB/s PCIe, %g us over 1 GB/s", ends[0], ends[1])
	}
}
