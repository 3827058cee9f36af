package workloads

import (
	"regexp"
	"strings"
	"testing"

	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/run"
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
	res, err := run.Execute(c, cs.Runs())
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

// The GCD 0 suite of BenchmarkCommScopeGCD0 holds every family at every
// size, host families from each NUMA domain to GCD 0 and GPU families from
// GCD 0 to each GCD, and nothing else.
func TestCommScopeGCDSuite(t *testing.T) {
	c := frontier(t)
	got := map[string]bool{}
	for _, r := range commScopeGCD(c, 0, false) {
		got[r.Name] = true
	}
	want := map[string]bool{}
	for _, f := range CommScopeFamilies {
		for x := 0; x < c.GCD.Count; x++ {
			a, b := 0, x
			if f.HostArg {
				if x >= c.Host.NUMADomains {
					continue
				}
				a, b = x, 0
			}
			for k := max(8, f.MinLog2); k <= f.maxLog2(); k++ {
				want[report.CommScopeName(f.Name, a, b, k)] = true
			}
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d benchmarks, want %d", len(got), len(want))
	}
	for n := range want {
		if !got[n] {
			t.Errorf("missing %s", n)
		}
	}
	for _, r := range commScopeGCD(c, 0, true) {
		if !strings.Contains(r.Name, "anaged") {
			t.Errorf("HSA_XNACK=1 pass runs %s, not a managed family", r.Name)
		}
	}
}

// Comm_hipMemcpy_NUMAToGPU (E2) registers 2^8..2^33 for every NUMA domain
// and GCD, and times the same pageable copy as PageableToGPU on the host
// clock: a little shorter (no event records), never longer.
func TestCommScopeNUMAToGPU(t *testing.T) {
	c := frontier(t)
	names := map[string]bool{}
	for _, r := range DefaultCommScope(c.GCD.Count, c.Host.NUMADomains).Runs() {
		names[r.Name] = true
	}
	for k := 7; k <= 34; k++ {
		n := report.CommScopeName("Comm_hipMemcpy_NUMAToGPU", 3, 5, k)
		if want := k >= 8 && k <= 33; names[n] != want {
			t.Errorf("%s registered %v, want %v", n, names[n], want)
		}
	}
	cs := CommScope{GCDs: c.GCD.Count, NUMADomains: c.Host.NUMADomains, MinLog2: 20, MaxLog2: 20, Iterations: 1,
		Filter: regexp.MustCompile(`^Comm_hip(Memcpy_NUMAToGPU|MemcpyAsync_PageableToGPU)/1/4/`)}
	res, err := run.Execute(c, cs.Runs())
	if err != nil {
		t.Fatal(err)
	}
	tm := map[string]float64{}
	for _, r := range res.Rows {
		if r.Metric == "time" {
			tm[r.Case] = r.Value
		}
	}
	blocking, async := tm["Comm_hipMemcpy_NUMAToGPU"], tm["Comm_hipMemcpyAsync_PageableToGPU"]
	if blocking <= 0.9*async || blocking >= async {
		t.Errorf("hipMemcpy 1 MiB NUMA 1 -> GCD 4: %.2f us, want a little under the event-timed copy's %.2f us", blocking, async)
	}
}
