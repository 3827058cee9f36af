package profile

import (
	"math"
	"strings"
	"testing"

	"github.com/akisim/akisim/internal/testfiles"
)

// TestGem5Trace reads the hand-made debug trace: two kernels with their
// grids, names and times (ticks are ps), an H2D and a D2H copy.
func TestGem5Trace(t *testing.T) {
	p, err := ReadGem5Trace("testdata/gem5/m5out/trace.out")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Kernels) != 2 || len(p.Copies) != 2 {
		t.Fatalf("%d kernels and %d copies, want 2 and 2", len(p.Kernels), len(p.Copies))
	}
	k := p.Kernels[0]
	if k.Name != "Some kernel" || k.Grid != 262144 || k.Workgroup != 256 || k.End-k.Start != 140000 {
		t.Errorf("kernel 1: %+v", k)
	}
	if c := p.Copies[0]; c.Bytes != 1<<20 || c.Src != gem5Host || c.Dst != gem5GPU || c.End-c.Start != 70000 {
		t.Errorf("copy 1: %+v", c)
	}
	if c := p.Copies[1]; c.Bytes != 256<<10 || c.Src != gem5GPU || c.Dst != gem5Host {
		t.Errorf("copy 2: %+v", c)
	}
	ops, err := p.Trace(frontier)
	if err != nil || len(ops) == 0 {
		t.Fatal(err)
	}
}

func TestGem5Stats(t *testing.T) {
	dumps, err := ReadGem5Stats("testdata/gem5/m5out/stats.txt")
	if err != nil {
		t.Fatal(err)
	}
	s := dumps[0]
	if v, _ := s.Suffix(".numKernelLaunched"); v != 2 {
		t.Errorf("numKernelLaunched %v", v)
	}
	if v, _ := s.Suffix("gpu_mem_ctrls.dram.bytesRead::total"); v != 2359296 {
		t.Errorf("bytesRead::total %v", v)
	}
	if !math.IsNaN(s["system.cpu1.CUs0.ipc"]) || s["simFreq"] != 1e12 {
		t.Errorf("ipc %v (want nan), simFreq %v", s["system.cpu1.CUs0.ipc"], s["simFreq"])
	}
	text := testfiles.Read(t, "testdata/gem5/m5out/stats.txt")
	for _, c := range []struct{ text, want string }{
		{text[:len(text)/2], "the last dump has no End line"},
		{strings.Replace(text, "2359296", "lots", 1), `value "lots" is not a number`},
		{"nothing here\n", "no Begin Simulation Statistics block"},
	} {
		dir := testfiles.Write(t, map[string]string{"stats.txt": c.text})
		if _, err := ReadGem5Stats(dir + "/stats.txt"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}
