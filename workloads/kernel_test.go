package workloads

import (
	"testing"

	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/trace"
)

// kernelRows runs one kernel on GCD 0 of a Frontier node and returns its rows.
func kernelRows(t *testing.T, k trace.Op) []report.Row {
	t.Helper()
	k.Op, k.Name, k.GCD, k.Line = trace.Kernel, "k", intp(0), 2
	res, err := run.Execute(frontier(t), []job.Run{TraceRun("kernel", []trace.Op{
		{Op: trace.Malloc, Buf: "d", GCD: intp(0), Bytes: 4 << 20, Line: 1}, k,
		{Op: trace.DeviceSync, Line: 3}})})
	if err != nil {
		t.Fatal(err)
	}
	var rows []report.Row
	for _, r := range res.Rows {
		if r.Case == "line2:k" {
			rows = append(rows, r)
		}
	}
	return rows
}

// kernelTime is a kernel's end - start in ns.
func kernelTime(t *testing.T, k trace.Op) float64 {
	t.Helper()
	var start, end float64
	for _, r := range kernelRows(t, k) {
		switch r.Metric {
		case "start":
			start = r.Value
		case "end":
			end = r.Value
		}
	}
	return (end - start) * 1e3
}

// compute_ns is the time one workgroup computes (traces/README.md): a lone
// workgroup's kernel takes the same kernel's fixed costs (launch, its
// memory, the end of kernel) plus compute_ns; so do as many workgroups as
// the GCD has slots (110 CUs x 16); twice as many take it twice. A
// workgroup reading 4 KiB moves it in one step, and its compute adds
// exactly; one reading 4 MiB has many steps in flight at once, whose
// memory its compute hides (at most the fixed costs), but never its
// compute.
func TestKernelComputeIsPerWorkgroup(t *testing.T) {
	const c = 1e9
	slots := int64(frontier(t).GCD.ComputeUnits * frontier(t).GCD.WorkgroupSlots)
	for _, x := range []struct {
		workgroups, bytes int64
		times             float64
	}{{1, 4096, 1}, {slots, 4096, 1}, {2 * slots, 4096, 2}, {1, 4 << 20, 1}, {slots, 4 << 20, 1}} {
		k := trace.Op{Grid: 256 * x.workgroups, Workgroup: 256,
			Access: []trace.Access{{Buf: "d", Mode: "read", Bytes: x.bytes}}}
		fixed := kernelTime(t, k)
		k.ComputeNs = c
		got, want := kernelTime(t, k)-fixed, x.times*c
		lo, hi := want*(1-1e-6), want*(1+1e-6)
		if x.bytes > 4096 {
			lo = want - fixed
		}
		if got < lo || got > hi {
			t.Errorf("%d workgroups reading %d B, compute_ns %g: %.6g ns beyond the kernel's fixed %.4g ns, want %.6g",
				x.workgroups, x.bytes, c, got, fixed, want)
		}
	}
}

// A kernel held at its recorded duration moves no bytes: it has a start and
// an end and no bandwidth row.
func TestRecordedKernelHasNoBandwidth(t *testing.T) {
	rows := kernelRows(t, trace.Op{Grid: 256, Workgroup: 256, DurationNs: 5000})
	var metrics []string
	for _, r := range rows {
		metrics = append(metrics, r.Metric)
	}
	if len(metrics) != 2 || metrics[0] != "start" || metrics[1] != "end" {
		t.Errorf("rows %v, want start and end only", metrics)
	}
}
