package profile

import (
	"database/sql"
	"math"
	"os"
	"path/filepath"
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

// TestImportGridOverflow: grids whose sizes per axis multiply past int64
// (gem5's 0xffffffff per axis, the CSV's 2^31, the JSON's and rocpd's
// large sizes) are refused at their line, never wrapped into a small or
// negative grid.
func TestImportGridOverflow(t *testing.T) {
	gem5 := testfiles.Read(t, "testdata/gem5/m5out/trace.out")
	big := strings.Replace(gem5, "grid size (262144x1x1)", "grid size (4294967295x4294967295x4294967295)", 1)
	huge := strings.Replace(gem5, "grid size (262144x1x1)", "grid size (99999999999999999999x1x1)", 1)
	csv := testfiles.Read(t, "testdata/rocprofv3-csv22/node01/4242_kernel_trace.csv")
	csvBig := strings.Replace(csv, ",256,1,1,1048576,1,1", ",256,1,1,2147483648,2147483648,2147483648", 1)
	agentInfo := testfiles.Read(t, "testdata/rocprofv3-csv22/node01/4242_agent_info.csv")
	js := testfiles.Read(t, "testdata/rocprofv3-json/node01/4242_results.json")
	jsBig := strings.Replace(js, `"grid_size": {
        "x": 1048576,
        "y": 1,
        "z": 1`, `"grid_size": {
        "x": 4294967296,
        "y": 4294967296,
        "z": 4294967296`, 1)
	if jsBig == js || csvBig == csv || big == gem5 {
		t.Fatal("the samples changed: the edits found nothing to replace")
	}
	for _, c := range []struct {
		read  func(string) (*Profile, error)
		files map[string]string
		want  string
	}{
		{ReadGem5Trace, map[string]string{"trace.out": big}, "trace.out:7: AQL wg size 256x1x1, grid size 4294967295x4294967295x4294967295: "},
		{ReadGem5Trace, map[string]string{"trace.out": huge}, "trace.out:7: AQL size \"99999999999999999999\": "},
		{ReadRocprofCSV, map[string]string{"1_agent_info.csv": agentInfo, "1_kernel_trace.csv": csvBig}, "1_kernel_trace.csv:2: Grid_Size_X*Grid_Size_Y*Grid_Size_Z: 2147483648x2147483648x2147483648 work-items: more than"},
		{ReadRocprofJSON, map[string]string{"1_results.json": jsBig}, "grid_size: 4294967296x4294967296x4294967296 work-items: more than"},
	} {
		dir := testfiles.Write(t, c.files)
		path := dir
		if _, ok := c.files["trace.out"]; ok {
			path = filepath.Join(dir, "trace.out")
		}
		_, err := c.read(path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one containing %q", keys(c.files), err, c.want)
		}
	}
	// rocpd: the same sizes in its dispatch table
	dir := t.TempDir()
	data, err := os.ReadFile("testdata/rocprofv3-rocpd/node01/4242_results.db")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "1_results.db")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	var table string
	if err := db.QueryRow(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'rocpd_kernel_dispatch%'`).Scan(&table); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE ` + table + ` SET grid_size_x = 4294967295, grid_size_y = 4294967295, grid_size_z = 4294967295`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := ReadRocpd(path); err == nil || !strings.Contains(err.Error(), "4294967295x4294967295x4294967295 work-items: more than") {
		t.Errorf("rocpd: error %v", err)
	}
}
