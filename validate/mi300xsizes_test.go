package validate

import "testing"

// In the model the MALL is what lifts a copy of 128 MiB arrays above the
// HBM plateau (its reads hit; its writes go through to HBM), never past the
// channels' peak; without it (mall.bytes = 0) the same copy runs no faster
// than HBM allows.
func TestMI300XSizesMALLPlateau(t *testing.T) {
	c, _, err := shippedNode(mi300xConfig)
	if err != nil {
		t.Fatal(err)
	}
	with, err := stream(c, []int{0}, "local", 128<<20)
	if err != nil {
		t.Fatal(err)
	}
	c.MALL.Bytes = 0
	without, err := stream(c, []int{0}, "local", 128<<20)
	if err != nil {
		t.Fatal(err)
	}
	hbm := c.GCD.HBMBandwidthGBps * c.GCD.HBMEfficiency
	mallPeakGBps := float64(c.MALL.Channels) * c.MALL.ChannelBandwidthGBps // the config's channels, not a copy of them
	if without > hbm || with < 1.2*hbm || with > mallPeakGBps {
		t.Errorf("128 MiB copy: %.0f GB/s with the MALL, %.0f without; want above 1.2 x %.0f GB/s of HBM, at most %.0f, and at most HBM without",
			with, without, hbm, mallPeakGBps)
	}
}

// The size points are check points with a source each, within tolerance
// or a gap.
func TestMI300XSizesPoints(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a 10.5 GB copy")
	}
	c, cal, err := shippedNode(mi300xConfig)
	if err != nil {
		t.Fatal(err)
	}
	g := mi300xSizesGroup()
	ps, err := g.run(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ps, err = g.classify(ps, cal, Select{}); err != nil {
		t.Fatal(err)
	}
	if len(ps) != 3 {
		t.Fatalf("%d points, want 3 (L2, MALL, HBM)", len(ps))
	}
	for _, p := range ps {
		if p.Kind != Checks || p.Source == "" || (!p.Pass() && p.Gap == "") {
			t.Errorf("%s: %.0f against %.0f: want a passing check point with a source, or a gap", p.Name, p.Simulated, p.Published)
		}
	}
}
