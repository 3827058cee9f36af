package main

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/akisim/akisim/output"
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

// Inputs a figure cannot draw are refused in one line naming file, line
// and column, and the ones it can are drawn: values whose span overflows
// an axis (once a hang in gonum's ticks), a size figure of one size (a
// hang in the log2 ticks), a flat value past 2^53 (a panic), -bytes.
func TestPlotRefusesWhatItCannotDraw(t *testing.T) {
	dir := t.TempDir()
	file := func(name, rows string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("workload,case,src,dst,bytes,metric,value,unit\n"+rows), 0o644)
		return p
	}
	huge := file("huge.csv", "x,a,gcd0,gcd1,1,bandwidth,1e308,GB/s\nx,a,gcd0,gcd1,2,bandwidth,-1e308,GB/s\n")
	negBytes := file("neg.csv", "x,a,gcd0,gcd1,1,bandwidth,1,GB/s\nx,a,gcd0,gcd1,-5,bandwidth,2,GB/s\n")
	wide := file("wide.csv", "x,a,gcd0,gcd5000,1,bandwidth,1,GB/s\n")
	sizes := file("sizes.csv", "x,a,gcd0,gcd1,1,bandwidth,1,GB/s\nx,a,gcd0,gcd1,2,bandwidth,2,GB/s\nx,a,gcd0,gcd1,0,time,3,us\n")
	out := filepath.Join(dir, "f.svg")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"plot", huge, "-o", out}, "huge.csv:2: value: 1e308 is beyond ±2^63, the range a figure draws"},
		{[]string{"plot", negBytes, "-o", out}, "neg.csv:3: bytes: \"-5\" is not a size"},
		{[]string{"plot", wide, "-o", out}, "a matrix of 1 sources by 5001 destinations, at most 1024 each"},
		{[]string{"plot", "/dev/zero", "-o", out}, "/dev/zero:1: a line longer than 1 MiB"},
		{[]string{"plot", sizes, "-o", out, "-bytes", "-5"}, "plot -bytes -5: want a size in bytes, 0 or more"},
		{[]string{"plot", sizes, "-o", out, "-bytes", "3"}, "no rows match -bytes 3"},
	} {
		wantBad(t, c.args, c.want)
	}
	// -bytes 0 picks the rows of 0 bytes (a trace's syncs), not every row
	if code, _, errs := akisim(t, "plot", sizes, "-o", out, "-bytes", "0"); code != 0 {
		t.Fatalf("-bytes 0: exit %d: %s", code, errs)
	}
	svg, _ := os.ReadFile(out)
	if !strings.Contains(string(svg), ": time<") || strings.Contains(string(svg), "bandwidth") {
		t.Errorf("-bytes 0 drew other rows than the 0-byte one")
	}
	for _, rows := range []string{
		"x,a,gcd0,gcd1,1,bandwidth,5,GB/s\n",                                           // one size on a log2 axis
		"x,a,gcd0,gcd1,1,bandwidth,-9e18,GB/s\nx,a,gcd0,gcd1,2,bandwidth,-9e18,GB/s\n", // flat, past 2^53
		"x,a,gcd0,gcd1,1,bandwidth,9e18,GB/s\nx,a,gcd0,gcd1,2,bandwidth,-9e18,GB/s\n",  // the widest range
	} {
		if code, _, errs := akisim(t, "plot", file("ok.csv", rows), "-o", out, "-kind", "size"); code != 0 {
			t.Errorf("%q: exit %d: %s", rows, code, errs)
		}
	}
}

// A results file past figure.MaxFileBytes is refused naming the cap, not
// read on: a pipe of blank lines, which the CSV reader skips, reaches it.
func TestPlotCapsItsInput(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "results.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		f.WriteString("workload,case,src,dst,bytes,metric,value,unit\n")
		blank := bytes.Repeat([]byte("\n"), 1<<20)
		for {
			if _, err := f.Write(blank); err != nil {
				return // the reader stopped
			}
		}
	}()
	wantBad(t, []string{"plot", fifo, "-o", filepath.Join(t.TempDir(), "f.svg")}, "results.csv: larger than 256 MiB, the most akisim plot reads")
}

// Default figures whose names clash once made safe for a file (cases
// "a b" and "a_b") are numbered, each drawn: not refused as two outputs
// of one name.
func TestPlotDefaultNamesUnique(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "r.csv")
	var b strings.Builder
	b.WriteString("workload,case,src,dst,bytes,metric,value,unit\n")
	for _, c := range []string{"a b", "a_b"} {
		fmt.Fprintf(&b, "p2p,%s,gcd0,gcd1,1,bandwidth,1,GB/s\np2p,%s,gcd1,gcd0,1,bandwidth,2,GB/s\n", c, c)
	}
	os.WriteFile(csv, []byte(b.String()), 0o644)
	out := filepath.Join(dir, "figs")
	if code, stdout, errs := akisim(t, "plot", csv, "-outdir", out); code != 0 || strings.Count(stdout, "\n") != 2 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errs)
	}
	if names := output.FolderNames(out); len(names) != 2 || names[0] == names[1] {
		t.Errorf("figures %v, want two of their own names", names)
	}
}
