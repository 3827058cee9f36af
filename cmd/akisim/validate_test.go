package main

import (
	"strings"
	"testing"

	"github.com/akisim/akisim/validate"
)

// Each point's row says its kind, and each kind has its own total line;
// -only prints the kind it ran.
func TestPrintPointsTotalsPerKind(t *testing.T) {
	pts := []validate.Point{
		{Experiment: "E4 latency", Name: "a", Simulated: 10, Published: 10, Tolerance: 0.1, Kind: validate.Calibrated},
		{Experiment: "E4 latency", Name: "b", Simulated: 20, Published: 10, Tolerance: 0.1, Kind: validate.Calibrated},
		{Experiment: "P", Name: "c", Simulated: 10, Published: 10, Tolerance: 0.1, Kind: validate.Checks, Source: "a paper, Table 2"},
		{Experiment: "P", Name: "d", Simulated: 30, Published: 10, Tolerance: 0.1, Kind: validate.Checks, Source: "a paper, Table 2",
			Gap: "no such mechanism", Band: &validate.Band{Low: 1.5, High: 2.5, Source: "model.md"}},
		{Experiment: "E2", Name: "e", Simulated: 10, Published: 10, Tolerance: 0.1, Kind: validate.Derived},
	}
	var b strings.Builder
	err := printPoints(&b, pts, validate.All)
	out := b.String()
	if f, ok := err.(*failedError); !ok || f.n != 1 {
		t.Errorf("error %v, want 1 point outside tolerance", err)
	}
	if first, _, _ := strings.Cut(out, "\n"); first != "independent checks within tolerance: 1/2 (50%)" {
		t.Errorf("first line %q", first)
	}
	for _, want := range []string{
		"calibration: 2 points, 1 passed, 1 failed, 0 known gaps\n",
		"derived: 1 points, 1 passed, 0 failed, 0 known gaps\n",
		"check: 2 points, 1 passed, 0 failed, 1 known gaps\n",
		"GAP P, d: +200.0% in band +150% .. +250%: no such mechanism (model.md)\n",
		"FAIL calibrated E4 latency, b: +100.0% outside tolerance\n",
		"check source: a paper, Table 2\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	kinds := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		for i := 1; i+1 < len(f); i++ { // after the experiment
			if f[i] == "calibrated" || f[i] == "check" || f[i] == "derived" {
				kinds[f[i+1]] = f[i]
				break
			}
		}
	}
	if kinds["a"] != "calibrated" || kinds["b"] != "calibrated" || kinds["c"] != "check" || kinds["d"] != "check" || kinds["e"] != "derived" {
		t.Errorf("kinds %v, want a, b calibrated, c, d check and e derived, in\n%s", kinds, out)
	}
	b.Reset()
	printPoints(&b, pts[2:4], validate.Checks)
	if out := b.String(); strings.Contains(out, "calibration:") || !strings.Contains(out, "check: 2 points") {
		t.Errorf("-only check totals:\n%s", out)
	}
}

// Shifting one constant moves a check out of its tolerance, and validate
// exits 1 naming it: checks bind.
func TestValidateFailsWhenAConstantShifts(t *testing.T) {
	args := []string{"validate", "-quiet", "-experiment", "^Frontier D2H pinned$"}
	r := exe(t, "../..", nil, nil, args...)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "independent checks within tolerance: 3/3 (100%)\n") {
		t.Fatalf("as shipped: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// a write's overhead 40 B in place of 28: device-to-host copies lose 13%
	r = exe(t, "../..", nil, nil, append(args, "-set", "host_link.packet_overhead_bytes=40")...)
	if r.code != 1 || !strings.Contains(r.stdout, "FAIL check Frontier D2H pinned, hipMemcpyAsync_GPUToPinned/0/0, 1 GiB: ") {
		t.Errorf("shifted: exit %d, want 1 and the failing point\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// A known gap binds too: shifting one constant (the SDMA engine's time per
// copy packet, most of the single-link copy of 64 KiB) moves the gap out
// of its band, either way, and validate exits 1 naming it.
func TestValidateFailsWhenAGapLeavesItsBand(t *testing.T) {
	args := []string{"validate", "-quiet", "-experiment", `^Pearson Comm\|Scope, Frontier$`}
	const single = "Pearson Comm|Scope, Frontier, Comm_hipMemcpyAsync_GPUToGPU/0/2/log2(N):16: "
	r := exe(t, "../..", nil, nil, args...)
	if r.code != 0 || !strings.Contains(r.stdout, "GAP "+single) {
		t.Fatalf("as shipped: exit %d, want 0 and the single-link copy a known gap\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, c := range []struct{ packetNs, want string }{
		{"6000", "left its known gap's band"},
		{"9000", "within tolerance, is listed as a known gap"},
	} {
		r := exe(t, "../..", nil, nil, append(args, "-set", "sdma.packet_process_ns="+c.packetNs)...)
		if r.code != 1 || !strings.Contains(r.stdout, "FAIL check "+single) || !strings.Contains(r.stdout, c.want) {
			t.Errorf("packet_process_ns %s: exit %d, want 1 and %q\n%s%s", c.packetNs, r.code, c.want, r.stdout, r.stderr)
		}
	}
}
