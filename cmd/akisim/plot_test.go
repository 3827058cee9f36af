package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// akisim plot draws the p2p heat map and an E1-style bandwidth-against-
// size figure from runs' outdirs, as SVG and PNG.
func TestPlot(t *testing.T) {
	dir := t.TempDir()
	p2p, cs := filepath.Join(dir, "p2p"), filepath.Join(dir, "cs")
	if code, _, errs := akisim(t, "-cases", "unidirectional,latency", "-outdir", p2p); code != 0 {
		t.Fatal(errs)
	}
	// E1: host to device and back, pinned, as the seed's first figure
	if code, _, errs := akisim(t, "commscope", "-filter", "hipMemcpyAsync_(PinnedToGPU|GPUToPinned)/0/0/", "-outdir", cs); code != 0 {
		t.Fatal(errs)
	}
	heat, e1, e1png := filepath.Join(dir, "heat.svg"), filepath.Join(dir, "e1.svg"), filepath.Join(dir, "e1.png")
	for _, args := range [][]string{{"plot", p2p, "-o", heat}, {"plot", cs, "-o", e1}, {"plot", filepath.Join(cs, "results.csv"), "-o", e1png}} {
		if code, _, errs := akisim(t, args...); code != 0 {
			t.Fatalf("%v: %s", args, errs)
		}
	}
	svg, _ := os.ReadFile(heat)
	rows, _ := os.ReadFile(filepath.Join(p2p, "results.csv"))
	var cell string // GCD 0 -> 1's bandwidth as the CSV has it, as the cell shows it
	for _, l := range strings.Split(string(rows), "\n") {
		if strings.HasPrefix(l, "p2p,unidirectional,gcd0,gcd1,") {
			f := strings.Split(l, ",")
			cell = f[6]
		}
	}
	if cell == "" {
		t.Fatal("no GCD 0 -> 1 row")
	}
	if i := strings.IndexByte(cell, '.'); i >= 0 && len(cell) > i+2 {
		cell = cell[:i+2] // one decimal, as the heat map writes values of 10 to 100
	}
	for _, want := range []string{"<svg", "p2p unidirectional: bandwidth", "source GCD", ">" + cell + "<"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("heat map lacks %q", want)
		}
	}
	svg, _ = os.ReadFile(e1)
	for _, want := range []string{"commscope", "bandwidth (GB/s)", ">size<", "PinnedToGPU", "GPUToPinned", "MiB"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("E1 figure lacks %q", want)
		}
	}
	b, _ := os.ReadFile(e1png)
	if img, err := png.Decode(bytes.NewReader(b)); err != nil || img.Bounds().Dx() < 300 {
		t.Errorf("E1 PNG: %v", err)
	}
	// -outdir: the default figures, one per p2p case
	figs := filepath.Join(dir, "figs")
	code, out, errs := akisim(t, "plot", p2p, "-outdir", figs)
	if code != 0 || strings.Count(out, ".svg\n") != 2 {
		t.Errorf("exit %d: %s %s", code, out, errs)
	}
	for _, f := range []string{"p2p-unidirectional.svg", "p2p-latency.svg"} {
		if _, err := os.Stat(filepath.Join(figs, f)); err != nil {
			t.Error(err)
		}
	}
}

func TestPlotBadInput(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "r.csv")
	os.WriteFile(csv, []byte("workload,case,src,dst,bytes,metric,value,unit\np2p,u,gcd0,gcd1,1,bandwidth,x,GB/s\n"), 0o644)
	nan := filepath.Join(dir, "nan.csv")
	os.WriteFile(nan, []byte("workload,case,src,dst,bytes,metric,value,unit\np2p,u,gcd0,gcd1,1,bandwidth,1,GB/s\np2p,u,gcd0,gcd2,1,bandwidth,NaN,GB/s\n"), 0o644)
	good := filepath.Join(dir, "g.csv")
	os.WriteFile(good, []byte("workload,case,src,dst,bytes,metric,value,unit\np2p,u,gcd0,gcd1,1,bandwidth,1,GB/s\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"plot"}, "want akisim plot PATH"},
		{[]string{"plot", good}, "give one of -o FILE and -outdir DIR"},
		{[]string{"plot", good, "-o", "x.pdf"}, "want a .svg or .png file"},
		{[]string{"plot", filepath.Join(dir, "missing"), "-o", "x.svg"}, "no such file"},
		{[]string{"plot", csv, "-o", "x.svg"}, "r.csv:2: value"},
		{[]string{"plot", nan, "-o", "x.svg"}, "nan.csv:3: value: NaN is not a finite number"},
		{[]string{"plot", nan, "-outdir", filepath.Join(dir, "figs")}, "nan.csv:3: value: NaN"},
		{[]string{"plot", good, "-o", "x.svg", "-kind", "pie"}, "unknown figure"},
		{[]string{"plot", good, "-o", "x.svg", "-case", "nope"}, "no rows match -case nope"},
		{[]string{"plot", good, "-o", "x.svg", "-where", "k"}, "want KEY=VALUE"},
	} {
		code, _, errs := akisim(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, errs, c.want)
		}
	}
}
