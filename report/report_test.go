package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestCSVHeaderExact(t *testing.T) {
	for _, rows := range [][]Row{nil, sampleRows()} {
		var b bytes.Buffer
		if err := WriteCSV(&b, rows); err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(b.String(), "\n")
		if first != "workload,case,src,dst,bytes,metric,value,unit" {
			t.Fatalf("header = %q", first)
		}
		if got, want := strings.Count(b.String(), "\n"), len(rows)+1; got != want {
			t.Errorf("%d lines, want %d", got, want)
		}
	}
}

func TestFormatValue(t *testing.T) {
	for v, want := range map[float64]string{
		50:                   "50",
		37.5123:              "37.5123",
		37.51230001:          "37.5123",
		1256.28:              "1256.28",
		0:                    "0",
		math.Copysign(0, -1): "0",
		-0.00001:             "0",
		0.00005:              "0.0001",
		-2.5:                 "-2.5",
		100:                  "100",
		1e21:                 "1000000000000000000000",
		0.123456789:          "0.1235",
	} {
		if got := FormatValue(v); got != want {
			t.Errorf("FormatValue(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestJSONRoundTrip(t *testing.T) {
	rows := sampleRows()
	var b bytes.Buffer
	if err := WriteJSON(&b, rows); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(b.String(), "}\n]\n") {
		t.Errorf("missing trailing newline or indentation: %q", b.String()[max(0, b.Len()-10):])
	}
	var back []Row
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	// The trip is exact up to the documented rounding to 4 decimals.
	want := append([]Row(nil), rows...)
	want[2].Value = 8.1235 // 8.123456
	want[4].Value = 0      // 0.00004
	if !reflect.DeepEqual(back, want) {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, want)
	}
	// Key order is exactly the contract's.
	var raw []json.RawMessage
	if err := json.Unmarshal(b.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw[0]))
	var keys []string
	for i := 0; ; i++ {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if s, ok := tok.(string); ok && i%2 == 1 {
			keys = append(keys, s)
		}
	}
	if got := strings.Join(keys, ","); got != Header {
		t.Errorf("keys %q, want %q", got, Header)
	}
}

func TestJSONEmptyAndRounding(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, nil); err != nil {
		t.Fatal(err)
	}
	if b.String() != "[]\n" {
		t.Errorf("empty = %q", b.String())
	}
	b.Reset()
	if err := WriteJSON(&b, []Row{{Value: 1.23456789}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"value": 1.2346,`) {
		t.Errorf("not rounded to 4 decimals:\n%s", b.String())
	}
	if err := WriteJSON(&b, []Row{{Value: math.NaN()}}); err == nil {
		t.Error("NaN accepted")
	}
}

func TestWriteP2PMissingCells(t *testing.T) {
	rows := []Row{
		{"p2p", "unidirectional", "gcd0", "gcd0", 0, "bandwidth", 1256.28, "GB/s"},
		{"p2p", "unidirectional", "gcd0", "gcd1", 0, "bandwidth", 50.3, "GB/s"},
		{"p2p", "unidirectional", "gcd1", "gcd1", 0, "bandwidth", 1256.3, "GB/s"},
	}
	var b bytes.Buffer
	if err := WriteP2P(&b, rows, 2); err != nil {
		t.Fatal(err)
	}
	want := "Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)\n" +
		"   D\\D     0      1 \n" +
		"     0 1256.28  50.30 \n" +
		"     1      - 1256.30 \n" +
		"\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}

func TestWriteP2POrderAndUnits(t *testing.T) {
	rows := []Row{
		{"p2p", "latency", "gcd0", "gcd0", 0, "latency", 2500, "ns"},
		{"p2p", "bidirectional", "gcd0", "gcd0", 0, "bandwidth", 2512560, "MB/s"},
	}
	var b bytes.Buffer
	if err := WriteP2P(&b, rows, 1); err != nil {
		t.Fatal(err)
	}
	want := "Bidirectional P2P=Enabled Bandwidth Matrix (GB/s)\n" +
		"   D\\D     0 \n" +
		"     0 2512.56 \n" +
		"\n" +
		"P2P=Enabled Latency (P2P Writes) Matrix (us)\n" +
		"   GPU     0 \n" +
		"     0   2.50 \n" +
		"\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}

func TestWriteP2PErrors(t *testing.T) {
	ok := Row{"p2p", "unidirectional", "gcd0", "gcd1", 0, "bandwidth", 1, "GB/s"}
	for name, mutate := range map[string]func(*Row){
		"case":   func(r *Row) { r.Case = "sideways" },
		"metric": func(r *Row) { r.Metric = "latency" },
		"unit":   func(r *Row) { r.Unit = "furlongs" },
		"src":    func(r *Row) { r.Src = "numa0" },
		"range":  func(r *Row) { r.Dst = "gcd2" },
		"bare":   func(r *Row) { r.Dst = "1" },
		"zero":   func(r *Row) { r.Dst = "gcd01" },
	} {
		r := ok
		mutate(&r)
		if err := WriteP2P(&bytes.Buffer{}, []Row{r}, 2); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if err := WriteP2P(&bytes.Buffer{}, []Row{ok, ok}, 2); err == nil {
		t.Error("duplicate cell: no error")
	}
	if err := WriteP2P(&bytes.Buffer{}, nil, 0); err == nil {
		t.Error("n=0: no error")
	}
}

func TestCommScopeName(t *testing.T) {
	const want = "Comm_hipMemcpyAsync_PinnedToGPU/0/0/log2(N):30/manual_time"
	for _, fam := range []string{"hipMemcpyAsync_PinnedToGPU", "Comm_hipMemcpyAsync_PinnedToGPU"} {
		if got := CommScopeName(fam, 0, 0, 30); got != want {
			t.Errorf("CommScopeName(%q) = %q, want %q", fam, got, want)
		}
	}
}

func TestGBenchParses(t *testing.T) {
	ctx, runs := sampleGBench()
	var b bytes.Buffer
	if err := WriteGBench(&b, ctx, runs); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Context    map[string]any   `json:"context"`
		Benchmarks []map[string]any `json:"benchmarks"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Context["host_name"] != "akisim-mi250x" || doc.Context["cpu_scaling_enabled"] != false {
		t.Errorf("context = %v", doc.Context)
	}
	if len(doc.Benchmarks) != len(runs) {
		t.Fatalf("%d benchmarks, want %d", len(doc.Benchmarks), len(runs))
	}
	// PinnedToGPU, PinnedToGPU, GPUToGPU, PinnedToGPU.
	wantFamily := []float64{0, 0, 1, 0}
	wantInstance := []float64{0, 1, 0, 2}
	for i, bm := range doc.Benchmarks {
		if bm["family_index"] != wantFamily[i] || bm["per_family_instance_index"] != wantInstance[i] {
			t.Errorf("benchmark %d (%v): family_index %v per_family_instance_index %v, want %v %v",
				i, bm["name"], bm["family_index"], bm["per_family_instance_index"], wantFamily[i], wantInstance[i])
		}
		if bm["run_name"] != runs[i].Name || bm["cpu_time"] != bm["real_time"] || bm["time_unit"] != "ns" {
			t.Errorf("benchmark %d: %v", i, bm)
		}
		bps := float64(runs[i].Bytes) / (runs[i].RealTimeNs / 1e9)
		if got := bm["bytes_per_second"].(float64); math.Abs(got-bps) > 1e-9*bps {
			t.Errorf("benchmark %d: bytes_per_second %v, want %v", i, got, bps)
		}
	}
	if doc.Benchmarks[2]["dst"] != 1.0 {
		t.Errorf("counter dst missing: %v", doc.Benchmarks[2])
	}
	// Counters come after bytes_per_second, sorted.
	s := b.String()
	i1, i2, i3, i4 := strings.Index(s, `"bytes_per_second"`), strings.Index(s, `"bytes": `), strings.Index(s, `"dst"`), strings.Index(s, `"src"`)
	if !(i1 < i2 && i2 < i3 && i3 < i4) {
		t.Errorf("key order wrong:\n%s", s)
	}
}

func TestGBenchErrors(t *testing.T) {
	ctx, _ := sampleGBench()
	bad := []GBenchRun{
		{Name: "a", RealTimeNs: 0},
		{Name: "a", RealTimeNs: 1, Counters: map[string]float64{"real_time": 1}},
		{Name: "a", RealTimeNs: 1, Counters: map[string]float64{"x": math.Inf(1)}},
	}
	for i, r := range bad {
		if err := WriteGBench(&bytes.Buffer{}, ctx, []GBenchRun{r}); err == nil {
			t.Errorf("bad run %d accepted", i)
		}
	}
}

// The line layout of gem5's text output: name in 40 columns, a space,
// the value in 12, the empty pdf and cdf columns (1+10 each), " # desc"
// and " (unit)"; a blank line before each marker.
func TestWriteStatsLayout(t *testing.T) {
	var b bytes.Buffer
	dumps := []Dump{{{"simTicks", 33000000, "Number of ticks simulated", "Tick", 0}, {"x", 0.5, "half", "Ratio", 0}},
		{{"hostSeconds", 0.126, "Real time elapsed on the host", "Second", 2}}}
	if err := WriteStats(&b, slices.Values(dumps)); err != nil {
		t.Fatal(err)
	}
	empty := strings.Repeat(" ", 22)
	want := "\n---------- Begin Simulation Statistics ----------\n" +
		"simTicks" + strings.Repeat(" ", 32) + "     33000000" + empty + " # Number of ticks simulated (Tick)\n" +
		"x" + strings.Repeat(" ", 39) + "     0.500000" + empty + " # half (Ratio)\n" +
		"\n---------- End Simulation Statistics   ----------\n" +
		"\n---------- Begin Simulation Statistics ----------\n" +
		"hostSeconds" + strings.Repeat(" ", 29) + "         0.13" + empty + " # Real time elapsed on the host (Second)\n" +
		"\n---------- End Simulation Statistics   ----------\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteStatsReportsWriteErrors(t *testing.T) {
	if err := WriteStats(failWriter{}, slices.Values(sampleStats())); err == nil || err.Error() != "disk full" {
		t.Errorf("error %v, want the writer's", err)
	}
}

func TestStatValue(t *testing.T) {
	for _, c := range []struct {
		v    float64
		prec int
		want string
	}{
		{0, 0, "0"}, {1e20, 0, "100000000000000000000"}, {0.0000004, 0, "0.000000"},
		{2.5, 0, "2.500000"}, {2.5, 2, "2.50"}, {-3, 0, "-3"}, {math.Inf(-1), 0, "-inf"},
	} {
		if got := statValue(c.v, c.prec); got != c.want {
			t.Errorf("statValue(%v, %d) = %q, want %q", c.v, c.prec, got, c.want)
		}
	}
}

func TestEndpoints(t *testing.T) {
	if got := GCDs([]int{0, 4}); got != "gcd0+gcd4" {
		t.Errorf("GCDs = %q", got)
	}
	if got := List("numa3", "numa1", "numa3"); got != "numa3+numa1" {
		t.Errorf("List = %q", got)
	}
	for s, want := range map[string]Endpoint{"gcd2": {"gcd", 2}, "numa3": {"numa", 3}, "gcd10": {"gcd", 10}, "gpu7": {"gpu", 7}} {
		if e, err := ParseEndpoint(s); err != nil || e != want {
			t.Errorf("ParseEndpoint(%q) = %v, %v", s, e, err)
		}
	}
	for _, s := range []string{"", "2", "gcd", "gcd-1", "gcd+1", "gcd02", "GCD2", "numa 1", "gcd0+gcd4", "host0", "gpu", "gpu01"} {
		if e, err := ParseEndpoint(s); err == nil {
			t.Errorf("ParseEndpoint(%q) = %v, want an error", s, e)
		}
	}
}

// A node of GPUs renames its rows' GCD endpoints, lists included, and
// leaves NUMA domains and other names alone; a node of GCDs keeps them.
func TestDevicesRenamesGCDEndpoints(t *testing.T) {
	rows := []Row{{Src: "gcd0", Dst: "gcd0+gcd12"}, {Src: "numa3", Dst: "gcd2"}, {Src: "gcd1", Dst: "numa1+gcd5"}, {Src: "", Dst: "gcdx"}}
	keep := slices.Clone(rows)
	Devices(keep, "gcd")
	if !slices.Equal(keep, rows) {
		t.Errorf("a node of GCDs renamed %v to %v", rows, keep)
	}
	Devices(rows, "gpu")
	want := []Row{{Src: "gpu0", Dst: "gpu0+gpu12"}, {Src: "numa3", Dst: "gpu2"}, {Src: "gpu1", Dst: "numa1+gpu5"}, {Src: "", Dst: "gcdx"}}
	if !slices.Equal(rows, want) {
		t.Errorf("renamed to %v, want %v", rows, want)
	}
}

// Comm|Scope arguments come from the endpoints whatever the direction.
func TestGBenchRunsArguments(t *testing.T) {
	rows := []Row{
		{"commscope", "Comm_hipMemcpyAsync_PinnedToGPU", "numa3", "gcd1", 1 << 20, "time", 50, "us"},
		{"commscope", "Comm_hipMemcpyAsync_GPUToPinned", "gcd1", "numa3", 1 << 20, "time", 50, "us"},
		{"commscope", "Comm_hipMemcpyAsync_GPUToGPU", "gcd6", "gcd2", 1 << 20, "time", 50, "us"},
		{"commscope", "Comm_hipMemcpyAsync_GPUToGPU", "gcd6", "gcd2", 1 << 20, "bandwidth", 20, "GB/s"},
		{"stream", "copy", "numa0", "gcd0+gcd4", 1 << 20, "time", 50, "us"},
		{"trace", "host", "numa0", "numa1", 1 << 20, "time", 50, "us"}, // no GCD: no Comm|Scope arguments
	}
	var names []string
	for _, r := range GBenchRuns(rows) {
		names = append(names, r.Name)
	}
	want := []string{"Comm_hipMemcpyAsync_PinnedToGPU/3/1/log2(N):20/manual_time",
		"Comm_hipMemcpyAsync_GPUToPinned/3/1/log2(N):20/manual_time",
		"Comm_hipMemcpyAsync_GPUToGPU/6/2/log2(N):20/manual_time"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
}
