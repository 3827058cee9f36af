package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rcclOutdir is an outdir of all_reduce_perf on 8 GCDs of config (a
// shipped config and its base copied in, as a run's config.toml loads),
// under dir/sub.
func rcclOutdir(t *testing.T, dir, sub, config string) string {
	t.Helper()
	d := filepath.Join(dir, sub)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{config, "frontier-node.toml"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "configs", f))
		if err != nil {
			t.Fatal(err)
		}
		if f == config {
			f = "config.toml"
		}
		os.WriteFile(filepath.Join(d, f), b, 0o644)
	}
	csv := "workload,case,src,dst,bytes,metric,value,unit\n"
	for _, n := range []int64{1 << 20, 64 << 20} {
		csv += fmt.Sprintf("rccl,all_reduce_perf,gcd0,gcd0+gcd1+gcd2+gcd3+gcd4+gcd5+gcd6+gcd7,%d,busbw,%d,GB/s\n", n, n>>20)
	}
	os.WriteFile(filepath.Join(dir, "results.csv"), []byte(csv), 0o644)
	return d
}

// A run on MI300X gets the published all_reduce_perf busbw beside its
// curve; a run on Frontier has none at 8 GCDs, and a bare CSV names no
// node.
func TestPlotDrawsThePublishedValue(t *testing.T) {
	dir := t.TempDir()
	mi := filepath.Join(dir, "mi")
	rcclOutdir(t, mi, ".", "mi300x-node.toml")
	if refs := published(mi); len(refs) != 1 || refs[0].Value != 274.33 || refs[0].Metric != "busbw" {
		t.Errorf("mi300x-node: %+v", refs)
	}
	sweep := filepath.Join(dir, "sweep")
	rcclOutdir(t, sweep, filepath.Join("points", "0a"), "mi300x-node.toml")
	if refs := published(sweep); len(refs) != 1 {
		t.Errorf("a sweep's first point: %+v", refs)
	}
	if refs := published(filepath.Join(mi, "results.csv")); refs != nil {
		t.Errorf("a results CSV: %+v", refs)
	}
	out := filepath.Join(dir, "f.svg")
	if code, _, errs := akisim(t, "plot", mi, "-o", out); code != 0 {
		t.Fatal(errs)
	}
	svg, _ := os.ReadFile(out)
	for _, want := range []string{"published busbw at 64 MiB: 274 GB/s", ">akisim<", "busbw, bus bandwidth (GB/s)"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("MI300X figure lacks %q", want)
		}
	}
	fr := filepath.Join(dir, "fr")
	rcclOutdir(t, fr, ".", "frontier-node.toml")
	if code, _, errs := akisim(t, "plot", fr, "-o", out); code != 0 {
		t.Fatal(errs)
	}
	if svg, _ := os.ReadFile(out); strings.Contains(string(svg), "published") {
		t.Error("a Frontier node's 8 GCDs drew a value published for 16 or for MI300X")
	}
}
