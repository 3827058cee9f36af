package rccl

import "testing"

func TestFromConfig(t *testing.T) {
	top := load(t, "frontier-node.toml")
	if len(top.Lanes) != 8 || top.LaneGBps != 50 {
		t.Fatalf("%d GCDs at %g GB/s a lane", len(top.Lanes), top.LaneGBps)
	}
	// hardware.md's link matrix, which RCCL stores as its node model 73.
	want := model73
	for a := range want {
		for b := range want[a] {
			if top.Lanes[a][b] != want[a][b] {
				t.Errorf("GCD %d to %d: %d lanes, want %d", a, b, top.Lanes[a][b], want[a][b])
			}
		}
	}
	cut := load(t, "frontier-node.toml", "xgmi.bundle[0-1].lanes=0", "xgmi.bundle[0-3].lanes=2")
	if cut.Lanes[0][1] != 0 || cut.Lanes[1][0] != 0 || cut.Lanes[3][0] != 2 {
		t.Errorf("after -set: 0-1 %d, 1-0 %d, 3-0 %d lanes", cut.Lanes[0][1], cut.Lanes[1][0], cut.Lanes[3][0])
	}
}
