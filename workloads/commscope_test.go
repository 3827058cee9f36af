package workloads

import (
	"regexp"
	"testing"

	"github.com/akisim/akisim/report"
)

// Comm|Scope runs hipMemcpyAsync_GPUToGPU and implicit_mapped_GPUWrGPU
// within one GCD too: the names are there for every <g>/<g>/, and the copy
// is a blit kernel on local HBM, far above one SDMA engine's peer plateau.
func TestCommScopeSameGCD(t *testing.T) {
	c := frontier(t)
	cs := CommScope{GCDs: c.GCD.Count, NUMADomains: c.Host.NUMADomains, MinLog2: 26, MaxLog2: 26, Iterations: 1}
	names := map[string]bool{}
	for _, r := range cs.Runs() {
		names[r.Name] = true
	}
	for g := 0; g < c.GCD.Count; g++ {
		for _, f := range []string{"Comm_hipMemcpyAsync_GPUToGPU", "Comm_implicit_mapped_GPUWrGPU"} {
			if n := report.CommScopeName(f, g, g, 26); !names[n] {
				t.Errorf("no benchmark %s", n)
			}
		}
	}
	cs.Filter = regexp.MustCompile(`^Comm_(hipMemcpyAsync_GPUToGPU|implicit_mapped_GPUWrGPU)/2/2/`)
	res, err := Execute(c, cs.Runs())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 4 {
		t.Fatalf("%d rows, want bandwidth and time of 2 benchmarks", len(res.Rows))
	}
	for _, r := range res.Rows {
		if r.Src != "gcd2" || r.Dst != "gcd2" {
			t.Errorf("%s %s: %s -> %s, want gcd2 -> gcd2", r.Case, r.Metric, r.Src, r.Dst)
		}
		if r.Metric == "bandwidth" && r.Value < 200 {
			t.Errorf("%s within GCD 2: %.1f GB/s, want a local-HBM kernel's > 200", r.Case, r.Value)
		}
	}
}
