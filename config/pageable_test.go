package config

import "testing"

// The pageable-copy keys of [runtime] are bounded, and an out-of-range
// value names the -set that gave it.
func TestPageableKeys(t *testing.T) {
	c, err := Parse("node.toml", []byte(mini), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Runtime
	if r.StagingBytes != 1052672 || r.PinMinBytes != 1<<20 || c.Stack.ROCmRelease().PinChunkBytes != 128<<20 || r.PinNs != 20000 || r.PinPageNs != 100 {
		t.Errorf("runtime %+v", r)
	}
	checkSets(t, mini, []setCase{
		{"runtime.staging_bytes=4095", "-set runtime.staging_bytes=4095: must be 4096..1073741824, got 4095"},
		{"runtime.staging_bytes=2147483648", "-set runtime.staging_bytes=2147483648: must be 4096..1073741824, got 2147483648"},
		{"runtime.pin_min_bytes=-1", "-set runtime.pin_min_bytes=-1: must be 0..1099511627776, got -1"},
		{"stack.rocm_release[1].pin_chunk_bytes=0", "-set stack.rocm_release[1].pin_chunk_bytes=0: must be 4096..1099511627776, got 0"},
		{"runtime.pin_ns=-1", "-set runtime.pin_ns=-1: must be in [0, 1e+09], got -1"},
		{"runtime.pin_page_ns=2e9", "-set runtime.pin_page_ns=2e9: must be in [0, 1e+09], got 2e+09"},
	})
}
