package profile

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/akisim/akisim/internal/testfiles"
	"github.com/akisim/akisim/trace"
)

// TestImportRCCL: the rocpd sample's all-reduce over GCDs 0 and 1 (a
// group on one thread) comes over as RCCL calls on the GCDs and streams of
// the kernels RCCL launched in its ncclGroupEnd; those kernels and launches
// are folded into the calls, not replayed besides them.
func TestImportRCCL(t *testing.T) {
	p, ops := imported(t, ReadRocpd, "testdata/rocprofv3-rocpd")
	ars := slices.DeleteFunc(slices.Clone(ops), func(o trace.Op) bool { return o.Op != trace.RCCLAllReduce })
	if slices.ContainsFunc(ops, func(o trace.Op) bool { return strings.HasPrefix(o.Name, "ncclDevKernel") }) {
		t.Error("RCCL's kernels replayed besides its calls")
	}
	if count(ops, trace.RCCLCommInit) != 1 || count(ops, trace.RCCLGroupStart) != 1 || count(ops, trace.RCCLGroupEnd) != 1 || len(ars) != 2 {
		t.Fatalf("rccl ops: %d inits, %d group starts, %d ends, %d all-reduces", count(ops, trace.RCCLCommInit),
			count(ops, trace.RCCLGroupStart), count(ops, trace.RCCLGroupEnd), len(ars))
	}
	for i, o := range ars {
		if *o.GCD != i || o.Bytes != 4<<20 || o.Datatype != "float" || o.RedOp != "sum" || o.Stream != i+1 {
			t.Errorf("all-reduce %d: %+v", i, o)
		}
	}
	if p.Report.RCCL != 4 || p.Report.Kernels != 2 || p.Report.Folded["RCCL kernels, re-simulated as their calls"] != 2 {
		t.Errorf("report: %v", p.Report.Lines())
	}
}

// Bad RCCL arguments, or an RCCL call the import cannot map, are one-line
// errors naming the call and field.
func TestImportRCCLBadArgs(t *testing.T) {
	cases := []struct{ query, want string }{
		{`UPDATE %s SET value = '99' WHERE name = 'datatype'`, `datatype "99" is not an ncclDataType_t akisim models`},
		{`UPDATE %s SET value = '-4' WHERE name = 'count'`, `count "-4" is not a positive element count`},
		{`UPDATE %s SET value = '7' WHERE name = 'op'`, `op "7" is not a built-in ncclRedOp_t`},
	}
	for _, c := range cases {
		_, err := ReadRocpd(dbCopy(t, c.query, "rocpd_arg"))
		if err == nil {
			p, _ := ReadRocpd(dbCopy(t, c.query, "rocpd_arg"))
			_, err = p.Trace(frontier)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "ncclAllReduce") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line with %q", c.query, err, c.want)
		}
	}
	path := dbCopy(t, `UPDATE %s SET string = 'ncclAllToAllv' WHERE string = 'ncclAllReduce'`, "rocpd_string")
	p, err := ReadRocpd(path)
	if err == nil {
		_, err = p.Trace(frontier)
	}
	if err == nil || !strings.Contains(err.Error(), "RCCL call ncclAllToAllv at") || !strings.Contains(err.Error(), "is not one the import maps") {
		t.Errorf("an unmapped RCCL call: %v", err)
	}
}

// TestImportRCCLJSONArgs: a JSON rccl_api record that carries its
// arguments (an args list, as the API records of 7.0 have) maps as rocpd's.
func TestImportRCCLJSONArgs(t *testing.T) {
	js := testfiles.Read(t, "testdata/rocprofv3-json/node01/4242_results.json")
	var doc map[string]any
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	proc := doc["rocprofiler-sdk-tool"].([]any)[0].(map[string]any)
	args := []map[string]string{{"name": "count", "value": "1048576"}, {"name": "datatype", "value": "ncclFloat32"}, {"name": "op", "value": "ncclSum"}}
	for _, r := range proc["buffer_records"].(map[string]any)["rccl_api"].([]any) {
		r.(map[string]any)["args"] = args
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	dir := testfiles.Write(t, map[string]string{"1_results.json": string(out)})
	p, ops := imported(t, ReadRocprofJSON, dir)
	if count(ops, trace.RCCLAllReduce) != 2 || p.Report.Kernels != 2 || p.Report.RCCL != 4 {
		t.Errorf("report %v", p.Report.Lines())
	}
}

// A collective whose kernel the records lack cannot be put on a GCD: an
// error naming the call, not a guess.
func TestImportRCCLWithoutKernel(t *testing.T) {
	path := dbCopy(t, `DELETE FROM %s WHERE grid_size_x = 256`, "rocpd_kernel_dispatch")
	p, err := ReadRocpd(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Trace(frontier)
	if err == nil || !strings.Contains(err.Error(), "RCCL call ncclAllReduce at") || !strings.Contains(err.Error(), "launched no kernel the records hold") {
		t.Errorf("error %v", err)
	}
}
