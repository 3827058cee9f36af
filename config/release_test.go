package config

import (
	"strings"
	"testing"
)

// stack.rocm picks one of the [[stack.rocm_release]] entries; the run sees
// that release's values.
func TestReleaseSelects(t *testing.T) {
	for _, c := range []struct {
		rocm  string
		chunk int64
	}{{"5.3", 32 << 20}, {"5.7", 128 << 20}} {
		n, err := Parse("node.toml", []byte(mini), []string{"stack.rocm=" + c.rocm})
		if err != nil {
			t.Fatal(err)
		}
		if r := n.Stack.ROCmRelease(); r.ROCm != c.rocm || r.PinChunkBytes != c.chunk {
			t.Errorf("stack.rocm=%s: release %+v, want pin_chunk_bytes %d", c.rocm, r, c.chunk)
		}
	}
}

// An unknown release, from the file or from -set, is one error naming the
// key, the value and the releases there are; so is a release listed twice.
func TestReleaseUnknown(t *testing.T) {
	checkSets(t, mini, []setCase{
		{"stack.rocm=4.0", `-set stack.rocm=4.0: unknown release "4.0" (stack.rocm_release has 5.3, 5.7)`},
		{"stack.cray_mpich=8.1.17", `-set stack.cray_mpich=8.1.17: unknown release "8.1.17" (stack.cray_mpich_release has 8.1.31)`},
		{"stack.rccl=2.17.1", `-set stack.rccl=2.17.1: unknown release "2.17.1" (stack.rccl_release has 2.20.5)`},
		{"stack.rocm_release[1].rocm=5.3", `-set stack.rocm_release[1].rocm=5.3: must name a release once, got "5.3" (also stack.rocm_release[0])`},
		{"stack.rccl_release[0].rccl=", `-set stack.rccl_release[0].rccl=: must name a release once, got ""`},
		// Renaming the first entry after the second blames the -set that did,
		// not the second entry's line in the file (issue 43).
		{"stack.rocm_release[0].rocm=5.7", `-set stack.rocm_release[0].rocm=5.7: stack.rocm_release[1].rocm: must name a release once, got "5.7" (also stack.rocm_release[0])`},
	})
	text := replace(t, mini, `rocm = "5.7"`+"\ncray_mpich", `rocm = "9.9"`+"\ncray_mpich")
	_, err := Parse("node.toml", []byte(text), nil)
	if err == nil || !strings.Contains(err.Error(), `node.toml:`) || !strings.Contains(err.Error(), `stack.rocm: unknown release "9.9"`) {
		t.Errorf("got %v", err)
	}
}

// Select runs a config on other releases of its stack, and refuses one the
// config does not list.
func TestSelect(t *testing.T) {
	n, err := Parse("node.toml", []byte(mini), nil)
	if err != nil {
		t.Fatal(err)
	}
	x, err := n.Select("5.3", "", "")
	if err != nil || x.Stack.ROCmRelease().PinChunkBytes != 32<<20 || n.Stack.ROCm != "5.7" || x.Stack.CrayMPICH != "8.1.31" {
		t.Errorf("Select(5.3): %v, %+v (the original %+v)", err, x.Stack.ROCmRelease(), n.Stack.ROCmRelease())
	}
	if _, err := n.Select("", "8.1.17", ""); err == nil || err.Error() != `stack.cray_mpich: unknown release "8.1.17" (stack.cray_mpich_release has 8.1.31)` {
		t.Errorf("Select(cray_mpich 8.1.17): %v", err)
	}
}
