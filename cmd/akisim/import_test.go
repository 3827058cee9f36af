package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/akisim/akisim/trace"
)

// TestImportReplays imports the rocprofv3 rocpd and JSON samples and
// replays them: each replay has the recorded run's 2 kernels and 3 copies.
func TestImportReplays(t *testing.T) {
	for _, sample := range []string{"rocprof profile/testdata/rocprofv3-rocpd/node01/4242_results.db", "rocprof profile/testdata/rocprofv3-json",
		"rocprof-legacy profile/testdata/rocprof-legacy"} {
		importReplays(t, strings.Fields(sample)...)
	}
}

func importReplays(t *testing.T, sample ...string) {
	out := filepath.Join(t.TempDir(), "app.jsonl")
	code, stdout, errs := akisim(t, "import", sample[0], sample[1], "-o", out)
	if code != 0 || stdout != "" {
		t.Fatalf("import: exit %d, stdout %q, stderr %s", code, stdout, errs)
	}
	if !strings.Contains(errs, " kernels, 3 copies, ") { // the JSON's RCCL kernels stay kernels: 4
		t.Errorf("report %q", errs)
	}
	code, stdout, errs = akisim(t, "-trace", out, "-format", "csv")
	if code != 0 {
		t.Fatalf("replay: exit %d: %s", code, errs)
	}
	kernels, copies := 0, 0
	for _, l := range strings.Split(stdout, "\n") {
		switch {
		case strings.Contains(l, "(float") && strings.Contains(l, ",end,"): // the application's kernels, not RCCL's
			kernels++
		case strings.Contains(l, "memcpy") && strings.Contains(l, ",end,"):
			copies++
		}
	}
	if kernels != 2 || copies != 3 {
		t.Errorf("replay has %d kernels and %d copies, want 2 and 3:\n%s", kernels, copies, stdout)
	}
}

// import gem5 takes the m5out folder compare gem5 takes, reading its
// trace.out, and writes what importing that file writes.
func TestImportGem5TakesM5out(t *testing.T) {
	dir := t.TempDir()
	var traces [2]string
	for i, in := range []string{"profile/testdata/gem5/m5out", "profile/testdata/gem5/m5out/trace.out"} {
		out := filepath.Join(dir, fmt.Sprintf("g%d.jsonl", i))
		if code, _, errs := akisim(t, "import", "gem5", in, "-o", out); code != 0 {
			t.Fatalf("import gem5 %s: exit %d: %s", in, code, errs)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		traces[i] = string(data)
	}
	if traces[0] != traces[1] || !strings.Contains(traces[0], `"op":"kernel"`) {
		t.Errorf("the folder's import differs from its trace.out's, or has no kernel:\n%s\n%s", traces[0], traces[1])
	}
	// -o into the folder's own trace.out is refused, the trace untouched
	m5out := filepath.Join(dir, "m5out")
	if err := os.MkdirAll(m5out, 0o755); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(m5out, "trace.out")
	if err := os.WriteFile(in, []byte(readFile(t, filepath.Join("..", "..", "profile", "testdata", "gem5", "m5out", "trace.out"))), 0o644); err != nil {
		t.Fatal(err)
	}
	before := readFile(t, in)
	wantBad(t, []string{"import", "gem5", m5out, "-o", in}, "trace.out")
	if readFile(t, in) != before {
		t.Error("import gem5 M5OUT -o M5OUT/trace.out changed its input")
	}
}

func TestImportBadInput(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "9_results.json")
	os.WriteFile(broken, []byte(`{"rocprofiler-sdk-tool":[{`), 0o644)
	out := filepath.Join(dir, "t.jsonl")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"import"}, "import: want FORMAT, PATH and -o TRACE"},
		{[]string{"import", "rocprof", "profile/testdata/rocprofv3-json"}, "-o TRACE"},
		{[]string{"import", "nvprof", "x", "-o", out}, `import: unknown format "nvprof"`},
		{[]string{"import", "gem5", broken, "-o", out}, "no gem5 debug trace lines"},
		{[]string{"import", "rocprof", filepath.Join(dir, "none"), "-o", out}, "none: no such file or directory"},
		{[]string{"import", "rocprof", broken, "-o", out}, "9_results.json: not rocprofv3 JSON: unexpected end of JSON input"},
		{[]string{"import", "rocprof", "profile/testdata/rocprofv3-json", "-o", out, "-bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"import", "rocprof", "profile/testdata/rocprofv3-json", "-o", filepath.Join(dir, "no", "t.jsonl")}, "-o " + filepath.Join(dir, "no", "t.jsonl")},
	}
	for _, c := range cases {
		wantBad(t, c.args, c.want)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a failed import wrote %s", out)
	}
}

// TestRocprofRoundTrip: a replay written with -rocprof imports again to the
// same kernels and copies; a kernel's recorded time comes back with the
// end-of-kernel release the model adds (gcd.kernel_end_ns, 350 ns).
func TestRocprofRoundTrip(t *testing.T) {
	dir := t.TempDir()
	first, exported, second := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "sim_results.json"), filepath.Join(dir, "b.jsonl")
	if code, _, errs := akisim(t, "import", "rocprof", "profile/testdata/rocprofv3-json", "-o", first); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := akisim(t, "-trace", first, "-rocprof", exported, "-format", "csv"); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := akisim(t, "import", "rocprof", exported, "-o", second); code != 0 || !strings.Contains(errs, "imported 4 kernels, 3 copies") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	a, b := work(readTrace(t, first)), work(readTrace(t, second))
	if len(a) != len(b) {
		t.Fatalf("%d ops, then %d", len(a), len(b))
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Op != y.Op || x.Bytes != y.Bytes || x.Name != y.Name || x.Grid != y.Grid || x.Src != y.Src || x.Dst != y.Dst {
			t.Errorf("op %d: %+v, then %+v", i, x, y)
		}
		if x.Op == "kernel" && (y.DurationNs < x.DurationNs || y.DurationNs > x.DurationNs+350) {
			t.Errorf("op %d: kernel of %.0f ns came back as %.0f", i, x.DurationNs, y.DurationNs)
		}
	}
}

// readTrace reads a trace file the import wrote.
func readTrace(t *testing.T, path string) []trace.Op {
	t.Helper()
	ops, err := trace.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return ops
}

// work is a trace's kernels, copies and synchronisations (host time and
// allocations differ between a profile and its replay's).
func work(ops []trace.Op) []trace.Op {
	var out []trace.Op
	for _, o := range ops {
		if o.Op == trace.Kernel || o.IsCopy() || o.Op == trace.DeviceSync {
			out = append(out, o)
		}
	}
	return out
}

// gem5's MI300X device compares like its MI200: the same m5out runs on
// gem5-mi300x.toml (one XCD of 40 CUs, no MALL).
func TestCompareGem5MI300X(t *testing.T) {
	code, out, errs := akisim(t, "compare", "gem5", "profile/testdata/gem5/m5out", "-config", "gem5-mi300x.toml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"on gem5-mi300x:", "kernels launched: gem5 2 (in its trace 2), akisim 2\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// TestCompareGem5 prints the side-by-side table of the hand-made m5out,
// with the totals of its stats.txt.
func TestCompareGem5(t *testing.T) {
	code, out, errs := akisim(t, "compare", "gem5", "profile/testdata/gem5/m5out")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"kind    id  name         bytes    gem5_us  akisim_us  ratio\n",
		"kernel  1   Some kernel  -        140.000  ",
		"copy    1   sdma H2D     1048576  70.000   ",
		"copy    2   sdma D2H     262144   18.000   ",
		"kernels launched: gem5 2 (in its trace 2), akisim 2\n",
		// akisim's: the D2H copy's 256 KiB read from HBM, the H2D copy's 1 MiB written (held kernels move nothing)
		"HBM bytes read, written: gem5 2359296, 2097152; akisim 262144, 1048576\n",
		"simulated seconds: gem5 1.00028 ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	wantBad(t, []string{"compare", "gem5", t.TempDir()}, "stats.txt: no such file or directory")
	wantBad(t, []string{"compare", "nvidia", "x"}, "compare: want gem5 and M5OUT")
}

// TestImportWhatIf: a kernel costed from its counters answers a what-if:
// half the HBM bandwidth makes the 12 MiB kernel slower.
func TestImportWhatIf(t *testing.T) {
	out := filepath.Join(t.TempDir(), "app.jsonl")
	if code, _, errs := akisim(t, "import", "rocprof", "profile/testdata/rocprofv3-csv22", "-o", out); code != 0 {
		t.Fatal(errs)
	}
	span := func(sets ...string) float64 { return replaySpan(t, out, "vector_add", sets...) }
	base, slow := span(), span("-set", "gcd.hbm_bandwidth_gbps=400")
	if base <= 0 || slow < 1.5*base {
		t.Errorf("vector_add: %.2f us at 1.6 TB/s, %.2f us at 400 GB/s", base, slow)
	}
}

// An imported peer copy is modelled: widening or narrowing its bundle
// changes it as the model's own p2p benchmark says for that pair.
func TestImportWhatIfPeerCopy(t *testing.T) {
	out := filepath.Join(t.TempDir(), "app.jsonl")
	if code, _, errs := akisim(t, "import", "rocprof", "profile/testdata/rocprofv3-json", "-o", out); code != 0 {
		t.Fatal(errs)
	}
	bandwidth := func(match string, args ...string) float64 {
		code, stdout, errs := akisim(t, append(args, "-format", "csv")...)
		if code != 0 {
			t.Fatal(errs)
		}
		for _, l := range strings.Split(stdout, "\n") {
			if strings.Contains(l, match) && strings.Contains(l, ",bandwidth,") {
				f := strings.Split(l, ",")
				v, _ := strconv.ParseFloat(f[len(f)-2], 64)
				return v
			}
		}
		t.Fatalf("no %s bandwidth row in\n%s", match, stdout)
		return 0
	}
	var copies []float64
	for _, set := range []string{"xgmi.bundle[0-1].lanes=4", "xgmi.bundle[0-1].lanes=1"} {
		c := bandwidth("memcpy_peer_async,gcd0,gcd1", "-trace", out, "-set", set)
		p := bandwidth("unidirectional,gcd0,gcd1", "-workload", "p2p", "-cases", "unidirectional", "-set", set)
		if math.Abs(c-p) > 0.05*p {
			t.Errorf("%s: the imported 32 MiB peer copy at %.1f GB/s, the model's p2p for GCD 0 -> 1 at %.1f", set, c, p)
		}
		copies = append(copies, c)
	}
	if copies[1] > 0.85*copies[0] {
		t.Errorf("one link (%.1f GB/s) is not slower than four (%.1f GB/s)", copies[1], copies[0])
	}
}
