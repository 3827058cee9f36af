package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/akisim/akisim/output"
)

// validate -outdir D draws each family of points, SVG and PNG, as one
// whole run: a point out of tolerance still gets its figure (and exit 1),
// and a second run needs -force.
func TestValidateDrawsItsFamilies(t *testing.T) {
	d := filepath.Join(t.TempDir(), "v")
	args := []string{"validate", "-quiet", "-experiment", "^Frontier D2H pinned$", "-outdir", d}
	code, _, errs := akisim(t, append(args, "-set", "host_link.packet_overhead_bytes=40")...)
	if code != 1 {
		t.Fatalf("a shifted constant: exit %d, want 1: %s", code, errs)
	}
	svg, err := os.ReadFile(filepath.Join(d, "Frontier-D2H-pinned.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Frontier D2H pinned", "hipMemcpyAsync_GPUToPinned/0/0, 1 GiB", "model / published", "model, outside its band", "tolerance", "GB/s"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("validate figure lacks %q", want)
		}
	}
	b, _ := os.ReadFile(filepath.Join(d, "Frontier-D2H-pinned.png"))
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Errorf("PNG: %v", err)
	}
	if v, _ := os.ReadFile(filepath.Join(d, output.Marker)); !bytes.HasPrefix(v, []byte("akisim ")) {
		t.Errorf("no %s: the outdir is not a run -force may replace", output.Marker)
	}
	code, _, errs = akisim(t, args...)
	if code != 2 || !strings.Contains(errs, "holds a previous run; give -force") || strings.Count(errs, "\n") != 1 {
		t.Errorf("again without -force: exit %d, %q", code, errs)
	}
	if code, _, errs := akisim(t, append(args, "-force")...); code != 0 {
		t.Errorf("-force: exit %d, %s", code, errs)
	}
	again, _ := os.ReadFile(filepath.Join(d, "Frontier-D2H-pinned.png"))
	if code, _, _ := akisim(t, append(args, "-force")...); code != 0 {
		t.Fatal("-force again")
	}
	if third, _ := os.ReadFile(filepath.Join(d, "Frontier-D2H-pinned.png")); !bytes.Equal(again, third) {
		t.Error("the same points draw a different PNG")
	}
}
