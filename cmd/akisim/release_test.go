package main

import (
	"strings"
	"testing"
)

// An unknown runtime.rocm is bad input: one line naming it, exit 2.
func TestBinaryUnknownRelease(t *testing.T) {
	oneLine(t, exe(t, t.TempDir(), nil, nil, "-set", "runtime.rocm=4.0", "-cases", "latency"), 2,
		`-set runtime.rocm=4.0: unknown ROCm release "4.0" (runtime.release has 5.3, 5.7, 6.2)`)
}

// `akisim configs` says which release each config models and what each
// release sets.
func TestBinaryConfigsListReleases(t *testing.T) {
	r := exe(t, t.TempDir(), nil, nil, "configs")
	for _, want := range []string{"frontier-node       5.7", "rocm  pin_chunk_bytes  fault_pending_ns", "6.2   134217728        0"} {
		if r.code != 0 || !strings.Contains(r.stdout, want) {
			t.Errorf("configs: exit %d, want %q in:\n%s", r.code, want, r.stdout)
		}
	}
}
