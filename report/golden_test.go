package report

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// checkGolden compares got with testdata/<name>.golden, or rewrites the
// file when -update is set.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report/ -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}

// sampleRows covers several workloads, quoting, empty ids and value
// formatting (integers, 4 decimals, rounding, tiny and negative values).
func sampleRows() []Row {
	return []Row{
		{"p2p", "unidirectional", "gcd0", "gcd1", 40000000, "bandwidth", 50, "GB/s"},
		{"p2p", "unidirectional", "gcd0", "gcd2", 40000000, "bandwidth", 37.5123, "GB/s"},
		{"p2p", "latency", "gcd1", "gcd0", 16, "latency", 8.123456, "us"},
		{"stream", "triad", "numa0", "gcd0+gcd4", 1 << 30, "bandwidth", 1342.1, "GB/s"},
		{"hostcopy", "pinned, to gpu", "numa0", "gcd3", 1024, "time", 0.00004, "us"},
		{"hostcopy", `say "hi"`, "numa1", "gcd4", 0, "delta", -2.5, "us"},
		{"trace", "line3:event_record", "", "", 0, "time", 12.5, "us"},
	}
}

func TestWriteCSVGolden(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCSV(&b, sampleRows()); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "rows.csv", b.Bytes())
}

func TestWriteJSONGolden(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, sampleRows()); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "rows.json", b.Bytes())
}

func TestWriteTableGolden(t *testing.T) {
	var b bytes.Buffer
	if err := WriteTable(&b, sampleRows()); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "rows.txt", b.Bytes())
}

// p2pRows is a full 4-GCD unidirectional and bidirectional matrix and a
// latency matrix with one missing cell, plus a row of another workload.
func p2pRows() []Row {
	var rows []Row
	bw := [4][4]float64{
		{1256.28, 50.3, 37.5, 37.49},
		{50.31, 1256.3, 37.52, 37.5},
		{37.5, 37.51, 1256.27, 150.02},
		{37.49, 37.5, 150.01, 1256.29},
	}
	for i := range 4 {
		for j := range 4 {
			rows = append(rows, Row{"p2p", "unidirectional", GCD(i), GCD(j), 40000000, "bandwidth", bw[i][j], "GB/s"})
		}
	}
	for i := range 4 {
		for j := range 4 {
			rows = append(rows, Row{"p2p", "bidirectional", GCD(i), GCD(j), 40000000, "bandwidth", 2 * bw[i][j], "GB/s"})
		}
	}
	for i := range 4 {
		for j := range 4 {
			if i == 3 && j == 0 {
				continue
			}
			lat := 2.5
			if i != j {
				lat = 9.75 + float64(i+j)/100
			}
			rows = append(rows, Row{"p2p", "latency", GCD(i), GCD(j), 16, "latency", lat, "us"})
		}
	}
	rows = append(rows, Row{"stream", "copy", "gcd0", "gcd0", 1, "bandwidth", 1, "GB/s"})
	return rows
}

func TestWriteP2PGolden(t *testing.T) {
	var b bytes.Buffer
	if err := WriteP2P(&b, p2pRows(), 4); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "p2p.txt", b.Bytes())
}

func sampleGBench() (GBenchContext, []GBenchRun) {
	ctx := GBenchContext{
		Date:             "2024-01-02T03:04:05+00:00",
		HostName:         "akisim-mi250x",
		Executable:       "./comm_scope",
		NumCPUs:          64,
		MHzPerCPU:        2000,
		LibraryBuildType: "release",
	}
	runs := []GBenchRun{
		{CommScopeName("hipMemcpyAsync_PinnedToGPU", 0, 0, 20), 100, 41943.04, 1 << 20, map[string]float64{"bytes": 1 << 20}},
		{CommScopeName("hipMemcpyAsync_PinnedToGPU", 0, 0, 30), 10, 42949672.96, 1 << 30, map[string]float64{"bytes": 1 << 30}},
		{CommScopeName("Comm_hipMemcpyAsync_GPUToGPU", 0, 1, 30), 10, 21474836.48, 1 << 30, map[string]float64{"src": 0, "dst": 1, "bytes": 1 << 30}},
		{CommScopeName("hipMemcpyAsync_PinnedToGPU", 0, 1, 30), 10, 42949672.96, 1 << 30, nil},
	}
	return ctx, runs
}

func TestWriteGBenchGolden(t *testing.T) {
	ctx, runs := sampleGBench()
	var b bytes.Buffer
	if err := WriteGBench(&b, ctx, runs); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "gbench.json", b.Bytes())
}

// sampleStats are two dumps: gem5's root statistics (hostSeconds with two
// decimals), integral and fractional values, a name over 40 columns, a
// stat without description or unit, a rate unit, NaN and a description
// with a newline.
func sampleStats() []Dump {
	return []Dump{{
		{"simSeconds", 0.000033, "Number of seconds simulated", "Second", 0},
		{"simTicks", 33000000, "Number of ticks simulated", "Tick", 0},
		{"finalTick", 33000000, "Number of ticks from beginning of simulation", "Tick", 0},
		{"simFreq", 1e12, "The number of ticks per simulated second", "(Tick/Second)", 0},
		{"hostSeconds", 0.0123, "Real time elapsed on the host", "Second", 2},
		{"node.gcd0.sdma0.bytesCopied", 1073741824, "Bytes copied", "Byte", 0},
		{"node.xgmi.b0_1.dir0.a_very_long_statistic_name", 1, "Long name", "Count", 0},
		{"node.noDesc", -0.5, "", "", 0},
		{"node.unitOnly", 2, "", "Count", 0},
	}, {
		{"simTicks", 1, "Number of ticks simulated", "Tick", 0},
		{"node.nan", math.NaN(), "Not a number\nsplit", "Ratio", 0},
	}}
}

func TestWriteStatsGolden(t *testing.T) {
	var b bytes.Buffer
	if err := WriteStats(&b, slices.Values(sampleStats())); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "stats.txt", b.Bytes())
}
