package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The managed families print Comm|Scope's names: /<numa>/<gpu>/ for the
// host ones, /<src>/<dst>/ for GPU to GPU.
func TestManagedFamilies(t *testing.T) {
	code, out, errs := akisim(t, "-workload", "commscope", "-filter", `(managed_|hipManaged_).*(/1/2/|/3/2/)log2\(N\):12/`, "-format", "gbench")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var want []string
	for _, g := range []string{"coarse", "fine"} {
		for _, f := range []string{"GPURdHost", "GPUWrHost", "HostWrGPU", "GPUWrGPU"} {
			for _, a := range []string{"1", "3"} {
				if f == "GPUWrGPU" && a == "3" { // GPU pairs /i/j/ with i <= j only, as Comm|Scope registers them
					continue
				}
				want = append(want, "Comm_implicit_managed_"+f+"_"+g+"/"+a+"/2/log2(N):12/manual_time")
			}
		}
	}
	for _, a := range []string{"1", "3"} {
		want = append(want, "Comm_hipManaged_HostToGPUWriteDst/"+a+"/2/log2(N):12/manual_time")
	}
	for _, f := range []string{"HostToGPU", "GPUToHost", "GPUToGPU"} {
		for _, a := range []string{"1", "3"} {
			if f == "GPUToGPU" && a == "3" {
				continue
			}
			want = append(want, "Comm_prefetch_managed_"+f+"/"+a+"/2/log2(N):12/manual_time")
		}
	}
	checkNames(t, out, want)
}

// checkNames fails unless the Google Benchmark JSON out names exactly the
// benchmarks want, in order.
func checkNames(t *testing.T, out string, want []string) {
	t.Helper()
	var names []string
	for _, g := range regexp.MustCompile(`"name": "([^"]*)"`).FindAllStringSubmatch(out, -1) {
		names = append(names, g[1])
	}
	if strings.Join(names, "\n") != strings.Join(want, "\n") {
		t.Errorf("benchmarks\n%s\nwant\n%s", strings.Join(names, "\n"), strings.Join(want, "\n"))
	}
}

// The sample trace faults its 64 MiB in with HSA_XNACK=1 from its setenv,
// taking far longer than the zero-copy read with -env HSA_XNACK=0 would; a
// prefetch to a GCD the node lacks is bad input: file, line, field, exit 2.
func TestManagedTrace(t *testing.T) {
	code, out, errs := akisim(t, "-trace", "traces/managed-fault.jsonl", "-format", "csv")
	if code != 0 || !strings.Contains(out, "trace,line12:prefetch back to the host,,host,0,end,") {
		t.Errorf("exit %d, stderr %q, output\n%s", code, errs, out)
	}
	start := regexp.MustCompile(`line8:read 64 MiB of managed memory,gcd0,,67108864,start,([0-9.]+),us`).FindStringSubmatch(out)
	// 32 blocks, each at least the driver's cost of the shipped config
	// (10 us + 512 x 1.3 us): over 21 ms
	if start == nil {
		t.Fatalf("no kernel start in\n%s", out)
	}
	if us, _ := strconv.ParseFloat(start[1], 64); us < 21000 {
		t.Errorf("the kernel started at %g us; want after 32 migrations, over 21000 us", us)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if code, _, errs := akisim(t, "-trace", "traces/managed-fault.jsonl", "-outdir", dir); code != 0 {
		t.Fatalf("-outdir: exit %d: %s", code, errs)
	}
	stats, _ := os.ReadFile(filepath.Join(dir, "stats.txt"))
	for _, want := range []string{`node.runtime.managedFaults\s+32\s`, `node.runtime.managedBytesToGPU\s+67108864\s`,
		`node.runtime.managedBytesToHost\s+67108864\s`, `node.runtime.managedPrefetches\s+3\s`} {
		if !regexp.MustCompile(want).Match(stats) {
			t.Errorf("stats.txt has no line %s", want)
		}
	}
	badTrace(t, `{"op":"malloc_managed","buf":"m","numa":0,"bytes":4096}`+"\n"+`{"op":"prefetch","buf":"m","dst":"8"}`+"\n",
		`:2: dst: must be "host" or a GCD in 0..7, got 8`)
}
