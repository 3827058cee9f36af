package validate

import (
	"regexp"
	"testing"

	"github.com/akisim/akisim/report"
)

// A pinned copy on one APU is HBM to HBM: one SDMA engine makes it, so at
// 64 MiB it runs just under the engine's datapath (sdma.clock_ghz x
// bytes_per_cycle), and a slower engine slows it by as much.
func TestMI300APinnedCopyIsOneEngine(t *testing.T) {
	c, _, err := shippedNode(mi300aConfig)
	if err != nil {
		t.Fatal(err)
	}
	pinned := func() float64 {
		t.Helper()
		rows, err := commScope(c, "^"+regexp.QuoteMeta(report.CommScopeName("hipMemcpyAsync_PinnedToGPU", 0, 0, 26)))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.Metric == "bandwidth" {
				return r.Value
			}
		}
		t.Fatal("no bandwidth row")
		return 0
	}
	for _, clock := range []float64{c.SDMA.ClockGHz, c.SDMA.ClockGHz / 2} {
		c.SDMA.ClockGHz = clock
		engine := clock * float64(c.SDMA.BytesPerCycle)
		if got := pinned(); got > engine || got < 0.97*engine {
			t.Errorf("sdma.clock_ghz %g: pinned copy of 64 MiB at %.2f GB/s, want within 3%% below the engine's %.2f", clock, got, engine)
		}
	}
}
