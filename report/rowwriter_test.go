package report

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// The row writers write what an encoder of the whole array writes: rows
// streamed from a long run read the same as rows written at its end.
func TestRowWritersMatchWholeOutput(t *testing.T) {
	rows := []Row{
		{Workload: "trace", Case: "line3:a<b&c>", Src: "GCD0", Dst: "NUMA1", Bytes: 1 << 20, Metric: "bandwidth", Value: 37.51234, Unit: "GB/s"},
		{Workload: "trace", Case: `line4:"quoted", comma`, Metric: "return", Value: 1e-5, Unit: "us"},
		{Workload: "trace", Case: "line5:\t\x01é\u2028\xff", Src: "numa0", Bytes: -1, Metric: "m", Value: -2.5, Unit: "u"},
	}
	for n := range len(rows) + 1 {
		var whole bytes.Buffer
		enc := json.NewEncoder(&whole)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		js := make([]jsonRow, 0)
		for _, r := range rows[:n] {
			js = append(js, jsonRow{r.Workload, r.Case, r.Src, r.Dst, r.Bytes, r.Metric, json.Number(FormatValue(r.Value)), r.Unit})
		}
		if err := enc.Encode(js); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := WriteJSON(&got, rows[:n]); err != nil {
			t.Fatal(err)
		}
		if got.String() != whole.String() {
			t.Errorf("%d rows: streamed JSON\n%s\nwhole\n%s", n, got.String(), whole.String())
		}
	}
	var csvOut bytes.Buffer
	if err := WriteCSV(&csvOut, nil); err != nil || csvOut.String() != Header+"\n" {
		t.Errorf("no rows: %q, %v; want the header alone", csvOut.String(), err)
	}
	csvOut.Reset()
	if err := WriteCSV(&csvOut, rows); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(csvOut.String(), `"line4:""quoted"", comma"`) {
		t.Errorf("csv does not quote the case:\n%s", csvOut.String())
	}
	jw := NewJSONWriter(&bytes.Buffer{})
	if err := jw.Write(Row{Value: math.NaN()}); err == nil {
		t.Error("NaN written as JSON")
	}
}

// appendJSONString writes what encoding/json writes for a string.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "line3:a<b&c>", "tab\there\n\"q\"\\", "\x00\x01\x1f\x7f", "é€\u2028\u2029", "bad\xff\xfeutf8", "\b\f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := string(appendJSONString(nil, s)) + "\n"; got != want.String() {
			t.Errorf("%q: got %s want %s", s, got, want.String())
		}
	})
}
