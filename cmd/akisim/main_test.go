package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// akisim runs the command from the repository root and returns its exit
// status, stdout and stderr.
func akisim(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir("../.."); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestBadInputExitsTwoWithOneLine(t *testing.T) {
	dir := t.TempDir()
	badTrace := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(badTrace, []byte(`{"op":"malloc","buf":"a","gcd":0,"bytes":64}
{"op":"memcpy_async","src":"a","dst":"nope","bytes":64,"stream":1}
`), 0o644)
	good, err := os.ReadFile("../../configs/frontier-node.toml")
	if err != nil {
		t.Fatal(err)
	}
	badConfig := filepath.Join(dir, "bad.toml")
	os.WriteFile(badConfig, append([]byte("bogus = 1\n"), good...), 0o644)
	cases := []struct {
		args []string
		want string // part of the one-line message
	}{
		{[]string{"-config", "no-such.toml"}, "no-such.toml"},
		{[]string{"-config", badConfig}, badConfig + ":1: bogus"},
		{[]string{"-set", "xgmi.bundle[0-1].lanes=-1"}, "xgmi.bundle"},
		{[]string{"-set", "gcd.nope=1"}, "gcd.nope"},
		{[]string{"-set", "xgmi.bundle[0-1].lanes=0", "-set", "xgmi.bundle[0-2].lanes=0", "-set", "xgmi.bundle[0-6].lanes=0"}, "reach"},
		{[]string{"-trace", badTrace}, badTrace + ":2"},
		{[]string{"-trace", filepath.Join(dir, "missing.jsonl")}, "missing.jsonl"},
		{[]string{"-format", "xml"}, "-format"},
		{[]string{"-workload", "sideways"}, "-workload"},
		{[]string{"-workload", "stream", "-alloc", "9"}, "-alloc"},
		{[]string{"-workload", "stream", "-exec", "x"}, "-exec"},
		{[]string{"-workload", "stream", "-gcds", "0,9"}, "-gcds"},
		{[]string{"-workload", "stream", "-sizes", "12,x"}, "-sizes"},
		{[]string{"-workload", "stream", "-kernels", "copy,sort"}, "sort"},
		{[]string{"-env", "HSA_FOO=1"}, "HSA_FOO"},
		{[]string{"-env", "HSA_ENABLE_SDMA=2"}, "HSA_ENABLE_SDMA"},
		{[]string{"-workload", "commscope", "-filter", "("}, "-filter"},
		{[]string{"-workload", "commscope", "-filter", "NoSuchBenchmark"}, "matches no benchmark"},
		{[]string{"-cases", "sideways"}, "-cases"},
		{[]string{"-format", "gbench"}, "gbench"},
		{[]string{"frobnicate"}, "unknown command"},
	}
	for _, c := range cases {
		code, out, errs := akisim(t, c.args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", c.args, code, errs)
		}
		if strings.Count(strings.TrimRight(errs, "\n"), "\n") != 0 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: stderr %q, want one line containing %q", c.args, errs, c.want)
		}
		if out != "" {
			t.Errorf("%v: printed results despite bad input: %q", c.args, out)
		}
	}
}

func TestCSVHeaderAndRows(t *testing.T) {
	code, out, errs := akisim(t, "-cases", "latency", "-format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if lines[0] != "workload,case,src,dst,bytes,metric,value,unit" {
		t.Errorf("header %q", lines[0])
	}
	if len(lines) != 1+64 {
		t.Errorf("%d rows, want 64 pairs (diagonal included)", len(lines)-1)
	}
	if !strings.HasPrefix(lines[2], "p2p,latency,0,1,16,latency,") || !strings.HasSuffix(lines[2], ",us") {
		t.Errorf("second row %q", lines[2])
	}
}

func TestDeterministic(t *testing.T) {
	for _, args := range [][]string{
		{"-workload", "commscope", "-filter", `/0/[01]/log2\(N\):(8|20|24)/`, "-format", "json"},
		{"-workload", "stream", "-alloc", "2", "-sizes", "1048576,33554432", "-format", "json"},
		{"-workload", "stream", "-gcds", "0,1,4", "-alloc", "host", "-sizes", "16777216", "-format", "json"},
		{"-env", "HSA_ENABLE_SDMA=0", "-cases", "latency", "-format", "json"},
	} {
		_, a, _ := akisim(t, args...)
		_, b, _ := akisim(t, args...)
		if a != b || a == "" {
			t.Errorf("%v: two runs of the same config gave different output", args)
		}
	}
}

func TestOutdirHoldsResultsConfigAndStats(t *testing.T) {
	dir := t.TempDir()
	code, _, errs := akisim(t, "-trace", "traces/peer-0-to-1.jsonl", "-set", "xgmi.bundle[0-1].lanes=2", "-outdir", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, f := range []string{"results.csv", "results.json", "config.toml", "config.json", "stats.txt"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || len(b) == 0 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
	cfg, _ := os.ReadFile(filepath.Join(dir, "config.toml"))
	if !strings.Contains(string(cfg), "lanes = 2") {
		t.Error("resolved config does not hold the -set value")
	}
	code, _, errs = akisim(t, "-trace", "traces/peer-0-to-1.jsonl", "-timeline", filepath.Join(dir, "timeline.json"))
	tl, _ := os.ReadFile(filepath.Join(dir, "timeline.json"))
	if code != 0 || !strings.Contains(string(tl), `"ph": "X"`) || !strings.Contains(string(tl), "SDMAXGMI") {
		t.Errorf("timeline: exit %d (%s), %d bytes", code, errs, len(tl))
	}
	stats, _ := os.ReadFile(filepath.Join(dir, "stats.txt"))
	if !strings.Contains(string(stats), "Begin Simulation Statistics") || !strings.Contains(string(stats), "Node.XGMI[0][1].dir0.payloadBytes") {
		t.Error("stats.txt lacks the gem5 block or the bundle counters")
	}
}

// A trace's setenv lines act as -env: the copies become blit kernels and
// the resolved config says so.
func TestTraceEnvironment(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "env.jsonl")
	os.WriteFile(tr, []byte(`{"op":"setenv","name":"HSA_ENABLE_PEER_SDMA","value":"0"}
{"op":"malloc","buf":"a","gcd":0,"bytes":1048576}
{"op":"malloc","buf":"b","gcd":1,"bytes":1048576}
{"op":"memcpy_peer","src":"a","dst":"b","bytes":1048576}
`), 0o644)
	code, _, errs := akisim(t, "-trace", tr, "-outdir", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	cfg, _ := os.ReadFile(filepath.Join(dir, "config.toml"))
	if !strings.Contains(string(cfg), "HSA_ENABLE_PEER_SDMA = 0") {
		t.Error("resolved config lacks the trace's environment")
	}
	stats, _ := os.ReadFile(filepath.Join(dir, "stats.txt"))
	if !strings.Contains(string(stats), "node.gcd0.cu.kernels") || strings.Contains(string(stats), "node.gcd0.cu.kernels                               0") {
		t.Errorf("the peer copy did not run as a kernel on GCD 0")
	}
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(`{"op":"setenv","name":"HSA_ENABLE_SDMA","value":"7"}`+"\n"), 0o644)
	if code, _, errs := akisim(t, "-trace", bad); code != 2 || !strings.Contains(errs, bad+":1:") {
		t.Errorf("bad environment value: exit %d, %q", code, errs)
	}
}

func TestGBenchNames(t *testing.T) {
	code, out, errs := akisim(t, "-workload", "commscope", "-filter", `PinnedToGPU/3/0/log2\(N\):2[0-2]/`, "-format", "gbench")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, k := range []string{"20", "21", "22"} {
		if !strings.Contains(out, `"name": "Comm_hipMemcpyAsync_PinnedToGPU/3/0/log2(N):`+k+`/manual_time"`) {
			t.Errorf("no benchmark for log2(N):%s in %s", k, out)
		}
	}
}

func TestImplicitFamilies(t *testing.T) {
	code, out, errs := akisim(t, "-workload", "commscope", "-filter", `implicit_mapped_.*/0/1/log2\(N\):(11|12)/`, "-format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, f := range []string{"GPURdHost,0,1,4096", "GPUWrHost,0,1,4096", "GPUWrGPU,0,1,4096", "HostWrGPU,0,1,4096"} {
		if !strings.Contains(out, "Comm_implicit_mapped_"+f+",bandwidth") {
			t.Errorf("no %s row in\n%s", f, out)
		}
	}
	if strings.Contains(out, ",2048,") {
		t.Error("implicit families start at log2(N) 12, got 11")
	}
}

func TestValidatePasses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the calibration experiments")
	}
	code, out, errs := akisim(t, "validate")
	if code != 0 {
		t.Fatalf("validate failed (exit %d): %s\n%s", code, errs, out)
	}
	if !strings.Contains(out, "E4 latency") || !strings.Contains(out, "E1 pinned H2D") || !strings.Contains(out, " 0 failed") {
		t.Errorf("validate output lacks its experiments:\n%s", out)
	}
}
