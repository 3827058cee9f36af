package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// theSweep is issue 11's sweep: three widths of bundle 0-2 by two SDMA
// routings, the p2p unidirectional case.
var theSweep = []string{"sweep", "-set", "xgmi.bundle[0-2].lanes=1,2,4", "-set", "routing.sdma=widest,fewest",
	"-workload", "p2p", "-cases", "unidirectional"}

func TestSweepLocal(t *testing.T) {
	dir := t.TempDir()
	r := exe(t, dir, nil, nil, append(theSweep, "-outdir", "D")...)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	points, _ := filepath.Glob(filepath.Join(dir, "D", "points", "*", marker))
	if len(points) != 6 {
		t.Fatalf("%d finished points, want 6: %s", len(points), r.stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "D", "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if lines[0] != "xgmi.bundle[0-2].lanes,routing.sdma,workload,case,src,dst,bytes,metric,value,unit" {
		t.Errorf("header %q", lines[0])
	}
	if len(lines) != 1+6*64 {
		t.Errorf("%d rows, want 6 points x 64 pairs", len(lines)-1)
	}
	// the swept width shows in the rows: GCD 0 -> 2 is slower on one link
	bw := map[string]string{}
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		if f[4] == "gcd0" && f[5] == "gcd2" {
			bw[f[0]+","+f[1]] = f[8]
		}
	}
	if len(bw) != 6 || bw["1,widest"] == bw["4,widest"] {
		t.Errorf("GCD 0 -> 2 by point: %v", bw)
	}
	// a rerun finds every point done and runs none
	stamp, _ := os.Stat(points[0])
	time.Sleep(10 * time.Millisecond)
	r = exe(t, dir, nil, nil, append(theSweep, "-outdir", "D")...)
	if r.code != 0 || !strings.Contains(r.stderr, "6 points, 6 done already (skipped), 0 to run") {
		t.Errorf("rerun: exit %d: %s", r.code, r.stderr)
	}
	if again, _ := os.Stat(points[0]); !again.ModTime().Equal(stamp.ModTime()) {
		t.Error("a finished point ran again")
	}
	if b2, _ := os.ReadFile(filepath.Join(dir, "D", "results.csv")); string(b2) != string(b) {
		t.Error("the rerun's merged results differ")
	}
	if os.Getenv("AKISIM_SLURM") == "" {
		return
	}
	// the same sweep through Slurm: byte-identical merged results
	r = exe(t, dir, nil, nil, append(theSweep, "-outdir", "S", "-slurm")...)
	if r.code != 0 {
		t.Fatalf("-slurm: exit %d: %s", r.code, r.stderr)
	}
	if s, _ := os.ReadFile(filepath.Join(dir, "S", "results.csv")); string(s) != string(b) {
		t.Errorf("-slurm results.csv differs from the local sweep's:\n%.500s", s)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "S", "logs", "slurm-*_*.log"))
	if len(logs) != 6 {
		t.Errorf("%d Slurm task logs, want 6", len(logs))
	}
}

// Where Slurm's client is on PATH the Slurm test must run: .ci/run starts
// a one-node cluster and sets AKISIM_SLURM.
func TestSweepSlurmAvailable(t *testing.T) {
	if os.Getenv("AKISIM_SLURM") == "" {
		t.Skip("no Slurm cluster here (AKISIM_SLURM unset; .ci/run installs one with Debian's slurmctld, slurmd and munge and runs .ci/slurm-up)")
	}
	if out, err := exec.Command("sinfo", "-h", "-o", "%T").CombinedOutput(); err != nil || !strings.Contains(string(out), "idle") {
		t.Fatalf("AKISIM_SLURM is set but sinfo says %v: %s", err, out)
	}
}

// A point that fails is reported with its log; the others run and merge.
func TestSweepPointFails(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "big.jsonl")
	os.WriteFile(trace, []byte(`{"op":"malloc","buf":"a","gcd":0,"bytes":8589934592}`+"\n"+
		`{"op":"malloc","buf":"b","gcd":1,"bytes":8589934592}`+"\n"+
		`{"op":"memcpy","src":"a","dst":"b","bytes":1048576}`+"\n"), 0o644)
	r := exe(t, dir, nil, nil, "sweep", "-set", "gcd.hbm_bytes=68719476736,4294967296", "-trace", trace, "-outdir", "D", "-jobs", "1")
	if r.code != 1 || !strings.Contains(r.stderr, "point 1 (gcd.hbm_bytes=4294967296) failed") ||
		!strings.Contains(r.stderr, "do not fit") || !strings.Contains(r.stderr, filepath.Join("D", "logs")) {
		t.Errorf("exit %d: %s", r.code, r.stderr)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "D", "results.csv"))
	if !strings.Contains(string(b), "68719476736,trace,line3:memcpy") || strings.Contains(string(b), "4294967296,") {
		t.Errorf("merged results:\n%s", b)
	}
	if os.Getenv("AKISIM_SLURM") == "" {
		return
	}
	// through Slurm the failure names the array task and its log
	r = exe(t, dir, nil, nil, "sweep", "-set", "gcd.hbm_bytes=68719476736,4294967296", "-trace", trace, "-outdir", "S", "-slurm")
	if r.code != 1 || !regexp.MustCompile(`point 1 \(gcd.hbm_bytes=4294967296\) failed in Slurm job [0-9]+_1: .*do not fit.*; log .*slurm-[0-9]+_1\.log`).MatchString(r.stderr) {
		t.Errorf("-slurm: exit %d: %s", r.code, r.stderr)
	}
}

func TestSweepBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "-workload", "p2p"}, "-outdir DIR is required"},
		{[]string{"sweep", "-outdir", "D", "-jobs", "0"}, "sweep -jobs"},
		{[]string{"sweep", "-outdir", "D", "-slurm", "-jobs", "2"}, "does not apply with -slurm"},
		{[]string{"sweep", "-outdir", "D", "-partition", "x"}, "only with -slurm"},
		{[]string{"sweep", "-outdir", "D", "-set", "a=1", "-set", "a=2"}, "given twice"},
		{[]string{"sweep", "-outdir", "D", "-set", "novalue"}, "want KEY=V1,V2"},
		{[]string{"sweep", "-outdir", "D", "-set", "xgmi.bundle[0-2].lanes=1,x"}, "sweep point 1 (xgmi.bundle[0-2].lanes=x)"},
		{[]string{"sweep", "-outdir", "D", "-workload", "nope"}, "unknown workload"},
		{[]string{"sweep", "-outdir", "D", "-force"}, "-force does not apply"},
		{[]string{"sweep", "-outdir", "D", "validate"}, "does not apply to akisim validate"},
	} {
		dir := t.TempDir()
		oneLine(t, exe(t, dir, nil, nil, c.args...), 2, c.want)
		if _, err := os.Stat(filepath.Join(dir, "D")); err == nil {
			t.Errorf("%v: made the outdir", c.args)
		}
	}
}
