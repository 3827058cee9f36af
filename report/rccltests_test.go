package report

import (
	"bytes"
	"strings"
	"testing"
)

// rcclRows are the six rows of one size: latency, algbw and busbw out of
// place, then in place.
func rcclRows(size int64, out, in [3]float64) []Row {
	var rows []Row
	for i, place := range []string{"", "_inplace"} {
		v := [2][3]float64{out, in}[i]
		for j, m := range []string{"latency", "bandwidth", "busbw"} {
			rows = append(rows, Row{Workload: "rccl", Case: "all_reduce_perf", Src: "gcd0", Dst: "gcd0+gcd1", Bytes: size, Metric: m + place, Value: v[j]})
		}
	}
	return rows
}

// rcclSample is a 2-GCD all_reduce_perf run whose times cross every
// switch of the time column's format.
func rcclSample() (RCCLTests, []Row) {
	t := RCCLTests{MinBytes: 8, MaxBytes: 1 << 30, StepFactor: 2, Warmup: 5, Iters: 20, Type: "float", TypeBytes: 4,
		Op: "sum", Root: -1, CountDivisor: 1,
		Devices: []RCCLDevice{{0, 4242, 0, "frontier00001", "0000:c1:00.0", "AMD Instinct MI250X"},
			{1, 4242, 1, "frontier00001", "0000:c6:00.0", "AMD Instinct MI250X"}},
		Info: []string{"frontier00001:4242:4242 [0] NCCL INFO Channel 00/02 :    0   1",
			"frontier00001:4242:4242 [0] NCCL INFO Channel 01/02 :    0   1"}}
	var rows []Row
	rows = append(rows, rcclRows(8, [3]float64{8.5, 0.000941, 0.00164}, [3]float64{99.994, 0.00008, 0.00014})...)
	rows = append(rows, rcclRows(1024, [3]float64{99.996, 0.0102, 0.0179}, [3]float64{100.0, 0.01024, 0.01792})...)
	rows = append(rows, rcclRows(1<<20, [3]float64{9999.94, 0.104858, 0.183501}, [3]float64{9999.96, 0.104858, 0.183501})...)
	rows = append(rows, rcclRows(1<<30, [3]float64{10000.0, 107.374, 187.905}, [3]float64{123456.7, 8.69741, 15.2205})...)
	return t, rows
}

// The whole table as rccl-tests prints it. The golden file was made from
// rccl-tests' own format strings (src/common.cu) by a C-semantics printf
// (Python's %), not by this package: header, device lines, the INFO lines
// where RCCL prints them, the three header lines, a row per size (time
// 2 decimals below 100 us, 1 below 10 ms, none above; 99.996 rounds to
// 100.00 and 9999.96 to 10000.0 as in C), and the average busbw as %g.
func TestWriteRCCLTestsGolden(t *testing.T) {
	var b bytes.Buffer
	tt, rows := rcclSample()
	if err := WriteRCCLTests(&b, tt, rows); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "rccltests.txt", b.Bytes())
}

func TestRCCLTime(t *testing.T) {
	for _, tc := range []struct {
		us   float64
		want string
	}{
		{0.5, "   0.50"}, {8.125, "   8.12"}, {99.99, "  99.99"}, {100, "  100.0"}, {123.45, "  123.5"},
		{9999.9, " 9999.9"}, {10000, "  10000"}, {10000.4, "  10000"}, {1234567, "1234567"}, {12345678, "12345678"},
	} {
		if got := rcclTime(tc.us); got != tc.want {
			t.Errorf("rcclTime(%g) = %q, want %q", tc.us, got, tc.want)
		}
	}
}

// The average bus bandwidth is C's %g: 6 significant digits, no trailing
// zeros, an exponent below 1e-4 and from 1e6.
func TestRCCLAvgBusbw(t *testing.T) {
	for _, tc := range []struct {
		busbw float64
		want  string
	}{
		{25.44126275, "25.4413"}, {187.90512, "187.905"}, {100, "100"}, {0.5, "0.5"}, {0.000123456789, "0.000123457"},
		{0.0000123, "1.23e-05"}, {1234567, "1.23457e+06"}, {999999.5, "1e+06"}, {0, "0"},
	} {
		tt, _ := rcclSample()
		var b bytes.Buffer
		if err := WriteRCCLTests(&b, tt, rcclRows(8, [3]float64{1, 1, tc.busbw}, [3]float64{1, 1, tc.busbw})); err != nil {
			t.Fatal(err)
		}
		if want := "# Avg bus bandwidth    : " + tc.want + " \n"; !strings.Contains(b.String(), want) {
			t.Errorf("busbw %g: want %q in\n%s", tc.busbw, want, b.String())
		}
	}
}

// Collectives that split the data count elements per rank; those that
// do not reduce print "none", rooted ones their root.
func TestWriteRCCLTestsColumns(t *testing.T) {
	for _, tc := range []struct {
		op      string
		root    int
		divisor int64
		want    string
	}{
		{"none", -1, 8, "        4096           128     float    none      -1"},
		{"none", 3, 1, "        4096          1024     float    none       3"},
		{"sum", 0, 1, "        4096          1024     float     sum       0"},
	} {
		tt, _ := rcclSample()
		tt.Op, tt.Root, tt.CountDivisor = tc.op, tc.root, tc.divisor
		var b bytes.Buffer
		if err := WriteRCCLTests(&b, tt, rcclRows(4096, [3]float64{1, 1, 1}, [3]float64{1, 1, 1})); err != nil {
			t.Fatal(err)
		}
		if want := tc.want + "     1.00    1.00    1.00    N/A     1.00    1.00    1.00    N/A\n"; !strings.Contains(b.String(), "\n"+want) {
			t.Errorf("want row %q in\n%s", want, b.String())
		}
	}
}
