package validate

import (
	"strings"
	"testing"

	"github.com/akisim/akisim/config"
)

// E2 holds on the Frontier config, and its pinned points fail when
// crossing the IO die to another domain's memory costs enough to slow the
// SDMA engine's reads (a check that could not fail would prove nothing).
// The pageable NUMA-to-GPU copy is bound by the CPU's staging copy, whose
// bandwidth that latency does not change, so only the pinned points move.
func TestNUMAPoints(t *testing.T) {
	for _, tc := range []struct {
		remoteNs string
		pass     bool
	}{{"50", true}, {"20000", false}} {
		c, err := config.Load("../configs/frontier-node.toml", []string{"host.remote_numa_ns=" + tc.remoteNs})
		if err != nil {
			t.Fatal(err)
		}
		pts, err := numaPoints(c)
		if err != nil {
			t.Fatal(err)
		}
		// pinned and NUMA-to-GPU, GCDs 0 and 4, the three far domains each
		if len(pts) != 12 {
			t.Fatalf("remote_numa_ns=%s: %d points, want 12", tc.remoteNs, len(pts))
		}
		for _, p := range pts {
			if !strings.HasPrefix(p.Name, "pinned") {
				if !p.Pass() {
					t.Errorf("remote_numa_ns=%s: %s: %.3f x fails", tc.remoteNs, p.Name, p.Simulated)
				}
				continue
			}
			if p.Pass() != tc.pass {
				t.Errorf("remote_numa_ns=%s: %s: %.3f x, pass %v, want %v", tc.remoteNs, p.Name, p.Simulated, p.Pass(), tc.pass)
			}
		}
	}
}
