package workloads

import (
	"testing"

	"github.com/akisim/akisim/rccl"
)

// rccl-tests AllReduce on the whole node is link-bound: it levels off just
// below what its rings can carry, the slowest link of each channel's ring
// shared by the channels crossing it, of which the stores' payload share
// arrives (rccl.BusBound: 200 GB/s x 64/85 on Frontier), and within a tenth
// of it, where a per-channel limit (its window of loads in flight) would
// hold it far lower.
func TestRCCLAllReduceBelowRingBound(t *testing.T) {
	c := frontier(t)
	tt := RCCLTests{Bench: "all_reduce_perf", GCDs: []int{0, 1, 2, 3, 4, 5, 6, 7}, Sizes: []int64{32 << 20, 128 << 20},
		Datatype: "float", Warmup: 1, Iterations: 1}
	runs, err := tt.Runs()
	res := mustExecute(t, c, runs, err)
	top := rccl.FromConfig(c)
	rings, err := rccl.Rings(top, tt.GCDs)
	if err != nil {
		t.Fatal(err)
	}
	chans, _ := rccl.Channels(top.GPU, rings, rccl.ParamsFromConfig(c).Channels)
	wire := float64(c.XGMI.PacketPayloadBytes) / float64(c.XGMI.PacketPayloadBytes+c.XGMI.PacketOverheadBytes)
	bound := rccl.BusBound(top, chans, wire)
	var busbw []float64
	for _, r := range res.Rows {
		if r.Metric == "busbw" {
			busbw = append(busbw, r.Value)
		}
	}
	if len(busbw) != 2 || busbw[1] < busbw[0] || busbw[1] >= bound || busbw[1] < 0.9*bound {
		t.Errorf("busbw %v GB/s at 32 and 128 MiB: want rising, below the rings' %g GB/s and within a tenth of it", busbw, bound)
	}
}

// sendrecv_perf groups each iteration's sends and receives, as rccl-tests
// does, so messages larger than a FIFO (4 MiB) do not deadlock.
func TestRCCLSendRecvLargerThanFIFO(t *testing.T) {
	tt := RCCLTests{Bench: "sendrecv_perf", GCDs: []int{0, 1}, Sizes: []int64{16 << 20}, Datatype: "float", Warmup: 0, Iterations: 1}
	runs, err := tt.Runs()
	res := mustExecute(t, frontier(t), runs, err)
	if len(res.Rows) == 0 || res.Rows[0].Value <= 0 {
		t.Errorf("rows %+v", res.Rows)
	}
}
