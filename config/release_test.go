package config

import (
	"strings"
	"testing"
)

// runtime.rocm picks one of the [[runtime.release]] entries; the run sees
// that release's values.
func TestReleaseSelects(t *testing.T) {
	for _, c := range []struct {
		rocm  string
		chunk int64
	}{{"5.3", 32 << 20}, {"5.7", 128 << 20}} {
		n, err := Parse("node.toml", []byte(mini), []string{"runtime.rocm=" + c.rocm})
		if err != nil {
			t.Fatal(err)
		}
		if r := n.Runtime.Release(); r.ROCm != c.rocm || r.PinChunkBytes != c.chunk {
			t.Errorf("runtime.rocm=%s: release %+v, want pin_chunk_bytes %d", c.rocm, r, c.chunk)
		}
	}
}

// An unknown release, from the file or from -set, is one error naming the
// key, the value and the releases there are; so is a release listed twice.
func TestReleaseUnknown(t *testing.T) {
	checkSets(t, mini, []setCase{
		{"runtime.rocm=4.0", `-set runtime.rocm=4.0: unknown ROCm release "4.0" (runtime.release has 5.3, 5.7)`},
		{"runtime.release[1].rocm=5.3", `-set runtime.release[1].rocm=5.3: must name a release once, got "5.3" (also runtime.release[0])`},
		// Renaming the first entry after the second blames the -set that did,
		// not the second entry's line in the file (issue 43).
		{"runtime.release[0].rocm=5.7", `-set runtime.release[0].rocm=5.7: runtime.release[1].rocm: must name a release once, got "5.7" (also runtime.release[0])`},
	})
	text := replace(t, mini, `rocm = "5.7"`+"\n\n", `rocm = "9.9"`+"\n\n")
	_, err := Parse("node.toml", []byte(text), nil)
	if err == nil || !strings.Contains(err.Error(), `node.toml:`) || !strings.Contains(err.Error(), `runtime.rocm: unknown ROCm release "9.9"`) {
		t.Errorf("got %v", err)
	}
}
