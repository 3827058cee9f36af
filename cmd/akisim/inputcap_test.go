package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/akisim/akisim/profile"
)

// sparse makes a file of size bytes that takes no disk: a file past an
// input's cap without writing it.
func sparse(t *testing.T, path string, size int64) string {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	return path
}

// Every input file has a cap: one past it is bad input (exit 2, one line
// naming the file and the cap), refused before it is read (a device that
// never ends stops at the cap: internal/capped's test).
func TestInputFilesCapped(t *testing.T) {
	noSimulation(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "t.jsonl")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"import", "rocprof", sparse(t, filepath.Join(dir, "big_results.json"), profile.MaxFileBytes+1), "-o", out},
			"big_results.json: larger than 1 GiB, the most akisim reads of a rocprofv3 JSON file"},
		{[]string{"import", "rocprof", sparse(t, filepath.Join(dir, "csv", "x_agent_info.csv"), profile.MaxFileBytes+1), "-o", out},
			"x_agent_info.csv: larger than 1 GiB, the most akisim reads of a rocprofv3 CSV file"},
		{[]string{"import", "rocprof", sparse(t, filepath.Join(dir, "x_results.db"), profile.MaxRocpdBytes+1), "-o", out},
			"x_results.db: larger than 4 GiB, the most akisim reads of a rocpd database"},
		{[]string{"import", "rocprof-legacy", sparse(t, filepath.Join(dir, "legacy", "hip_api_trace.txt"), profile.MaxFileBytes+1), "-o", out},
			"hip_api_trace.txt: larger than 1 GiB, the most akisim reads of a rocprof text file"},
		{[]string{"import", "gem5", sparse(t, filepath.Join(dir, "gem5.trace"), profile.MaxGem5TraceBytes+1), "-o", out},
			"gem5.trace: larger than 16 GiB, the most akisim reads of a gem5 debug trace"},
		{[]string{"transferbench", "-cfg", sparse(t, filepath.Join(dir, "tb.cfg"), tbConfigBytes+1)},
			"tb.cfg: larger than 16 MiB, the most akisim reads of a TransferBench config"},
	} {
		wantBad(t, c.args, c.want)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("an import of a file past its cap wrote its output")
	}
}
