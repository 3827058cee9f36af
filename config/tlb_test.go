package config

import "testing"

// The translation keys are read and bounded, and an out-of-range value
// names the -set that gave it.
func TestTranslationKeys(t *testing.T) {
	c, err := Parse("node.toml", []byte(mini), nil)
	if err != nil {
		t.Fatal(err)
	}
	if g := c.GCD; g.TLBEntries != 512 || g.PageWalkers != 4 || g.PageWalkNs != 640 || c.Runtime.HostPageBytes != 4096 {
		t.Errorf("tlb_entries %d, page_walkers %d, page_walk_ns %g, host_page_bytes %d; want 512, 4, 640, 4096",
			g.TLBEntries, g.PageWalkers, g.PageWalkNs, c.Runtime.HostPageBytes)
	}
	checkSets(t, mini, []setCase{
		{"gcd.tlb_entries=0", "-set gcd.tlb_entries=0: must be 1..1048576, got 0"},
		{"gcd.page_walkers=0", "-set gcd.page_walkers=0: must be 1..1024, got 0"},
		{"gcd.page_walk_ns=-5", "-set gcd.page_walk_ns=-5: must be in [0, 1e+09], got -5"},
		{"runtime.host_page_bytes=2048", "-set runtime.host_page_bytes=2048: must be 4096..1073741824, got 2048"},
		{"runtime.host_page_bytes=12288", "-set runtime.host_page_bytes=12288: must be a power of two, got 12288"},
	})
}
