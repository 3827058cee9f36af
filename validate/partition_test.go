package validate

import "testing"

// The partition-mode points are check points with a source, each within
// its tolerance or a gap.
func TestPartitionModePoints(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 1 GiB arrays on up to 8 devices at once")
	}
	for _, pg := range []struct {
		node string
		g    group
		n    int
	}{{mi300xConfig, mi300xModesGroup(), 6}, {mi300aConfig, mi300aModesGroup(), 2}} {
		c, cal, err := shippedNode(pg.node)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := pg.g.run(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ps, err = pg.g.classify(ps, cal, Select{}); err != nil {
			t.Fatal(err)
		}
		if len(ps) != pg.n {
			t.Errorf("%s: %d points, want %d", pg.node, len(ps), pg.n)
		}
		for _, p := range ps {
			t.Logf("%s: %.1f against %.1f %s (%+.1f%%)", p.Name, p.Simulated, p.Published, p.Unit, 100*p.Error())
			if p.Kind != Checks || p.Source == "" || (!p.Pass() && p.Gap == "") {
				t.Errorf("%s: %.0f against %.0f: want a passing check point with a source, or a gap", p.Name, p.Simulated, p.Published)
			}
		}
	}
}

// In CPX/NPS4 the two XCDs of an IOD share its quarter of the HBM: two of
// them stream what one does alone, which is a quarter of the GPU's; in
// NPS1 one XCD alone reaches every channel.
func TestPartitionMemoryShare(t *testing.T) {
	one, err := modeStream(mi300xConfig, "CPX", "NPS4", "copy", []int{0}, 256<<20)
	if err != nil {
		t.Fatal(err)
	}
	two, err := modeStream(mi300xConfig, "CPX", "NPS4", "copy", []int{0, 1}, 256<<20)
	if err != nil {
		t.Fatal(err)
	}
	lone, err := modeStream(mi300xConfig, "CPX", "NPS1", "copy", []int{0}, 256<<20)
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := shippedNode(mi300xConfig)
	if err != nil {
		t.Fatal(err)
	}
	quarter := c.GCD.HBMBandwidthGBps * c.GCD.HBMEfficiency / 4
	if one > quarter*1.01 || two > quarter*1.01 || two < 0.95*one || lone < 2*quarter {
		t.Errorf("NPS4: one XCD %.0f GB/s, two on one IOD %.0f together (a quarter of the HBM: %.0f); NPS1: one XCD %.0f, want above %.0f",
			one, two, quarter, lone, 2*quarter)
	}
}
