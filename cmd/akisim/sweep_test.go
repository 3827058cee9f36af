package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/akisim/akisim/output"
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
	points, _ := filepath.Glob(filepath.Join(dir, "D", "points", "*", output.Marker))
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
// A point whose run fails is reported, and the others go on. Its inputs
// passed the sweep's checks: what fails is its own folder, a file in the
// way, which only its run opens.
func TestSweepPointFails(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "copy.jsonl")
	os.WriteFile(trace, []byte(`{"op":"malloc","buf":"a","gcd":0,"bytes":8589934592}`+"\n"+
		`{"op":"malloc","buf":"b","gcd":1,"bytes":8589934592}`+"\n"+
		`{"op":"memcpy","src":"a","dst":"b","bytes":1048576}`+"\n"), 0o644)
	args := []string{"sweep", "-set", "gcd.hbm_bytes=68719476736,34359738368", "-trace", trace, "-outdir", "D", "-jobs", "1"}
	inTheWay := func(outdir string) {
		s, err := newSweep(args[1:], io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(dir, outdir, "points"), 0o755)
		os.WriteFile(filepath.Join(dir, outdir, "points", s.Points()[1].ID), []byte("x"), 0o644)
	}
	inTheWay("D")
	r := exe(t, dir, nil, nil, args...)
	if r.code != 1 || !strings.Contains(r.stderr, "point 1 (gcd.hbm_bytes=34359738368) failed") ||
		!strings.Contains(r.stderr, "is a file, not a folder") || !strings.Contains(r.stderr, filepath.Join("D", "logs")) {
		t.Errorf("exit %d: %s", r.code, r.stderr)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "D", "results.csv"))
	if !strings.Contains(string(b), "68719476736,trace,line3:memcpy") || strings.Contains(string(b), "34359738368,") {
		t.Errorf("merged results:\n%s", b)
	}
	if os.Getenv("AKISIM_SLURM") == "" {
		return
	}
	// through Slurm the failure names the array task and its log
	args = []string{"sweep", "-set", "gcd.hbm_bytes=68719476736,34359738368", "-trace", trace, "-outdir", "S", "-slurm"}
	inTheWay("S")
	r = exe(t, dir, nil, nil, args...)
	if r.code != 1 || !regexp.MustCompile(`point 1 \(gcd.hbm_bytes=34359738368\) failed in Slurm job [0-9]+_1: .*is a file, not a folder.*; log .*slurm-[0-9]+_1\.log`).MatchString(r.stderr) {
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
		// the points share one decoded config: a later point's -set is still checked whole
		{[]string{"sweep", "-outdir", "D", "-set", "sim.sdma_transaction_bytes=4096,2097152"}, "sweep point 1 (sim.sdma_transaction_bytes=2097152): -set sim.sdma_transaction_bytes=2097152: must be at most sdma.outstanding_bytes"},
		// past 4096 points each axis value is checked on its own: a bad last value of the last axis still exits 2
		{[]string{"sweep", "-outdir", "D", "-set", "host.cores=" + count(65), "-set", "gcd.compute_units=" + count(64) + ",x"}, "sweep point 64 (host.cores=1 gcd.compute_units=x)"},
		{[]string{"sweep", "-outdir", "D", "-set", "host.cores=" + count(65) + ",0", "-set", "gcd.compute_units=" + count(65)}, "sweep point 4225 (host.cores=0 gcd.compute_units=1)"},
		{[]string{"sweep", "-outdir", "D", "-workload", "nope"}, "unknown workload"},
		{[]string{"sweep", "-outdir", "D", "-force"}, "-force does not apply"},
		{[]string{"sweep", "-outdir", "D", "validate"}, "akisim validate is not a run to sweep"},
	} {
		dir := t.TempDir()
		oneLine(t, exe(t, dir, nil, nil, c.args...), 2, c.want)
		if _, err := os.Stat(filepath.Join(dir, "D")); err == nil {
			t.Errorf("%v: made the outdir", c.args)
		}
	}
}

// What each point's run checks before simulating (the trace, -cfg, the
// workload's flags, against each point's node) is checked before any
// point runs: exit 2, one line, no outdir; once a point per failure, exit 1.
func TestSweepChecksInputsFirst(t *testing.T) {
	dir := t.TempDir()
	file := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	badTrace := file("bad.jsonl", `{"bad":1}`+"\n")
	big := file("big.jsonl", `{"op":"malloc","buf":"a","gcd":0,"bytes":8589934592}`+"\n"+`{"op":"malloc","buf":"b","gcd":1,"bytes":8589934592}`+"\n"+
		`{"op":"memcpy","src":"a","dst":"b","bytes":1048576}`+"\n")
	lateBad := file("late.jsonl", strings.Repeat(`{"op":"device_sync"}`+"\n", 5000)+`{"op":"memcpy","src":"a","dst":"b","bytes":1}`+"\n") // streams
	negBytes := file("neg.cfg", "1 4 (G0->G0->G1)\n-1 (G0->G0->G1 4 -5)\n")
	fifo := filepath.Join(dir, "fifo")
	syscall.Mkfifo(fifo, 0o600)
	lanes := []string{"sweep", "-set", "xgmi.bundle[*].lanes=1,2"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-trace", filepath.Join(dir, "nope.jsonl")}, "sweep point 0 (xgmi.bundle[*].lanes=1): open " + filepath.Join(dir, "nope.jsonl") + ": no such file"},
		{[]string{"-trace", badTrace}, badTrace + ":1: bad: unknown field"},
		{[]string{"-trace", lateBad}, lateBad + ":5001: src: unknown buffer \"a\""},
		{[]string{"-trace", fifo}, "-trace " + fifo + ": a pipe, which only one reader empties"},
		{[]string{"-workload", "transferbench", "-cfg", filepath.Join(dir, "nope.cfg")}, "-cfg " + filepath.Join(dir, "nope.cfg") + ": no such file"},
		{[]string{"-workload", "transferbench", "-cfg", negBytes}, negBytes + ":2: transfer 0: BYTES want a byte count 0..2^40"},
		{[]string{"-workload", "transferbench", "-cfg", fifo}, "-cfg " + fifo + ": a pipe"},
		{[]string{"-config", fifo}, "-config " + fifo + ": a pipe"},
		{[]string{"-workload", "stream", "-sizes", "5"}, "-sizes: want byte counts >= 1024"},
		{[]string{"-config", "nope.toml"}, "config nope.toml: not found"},
		// the trace is checked against each point's node: point 1's HBM is too small
		{[]string{"-set", "gcd.hbm_bytes=68719476736,4294967296", "-trace", big}, "sweep point 1 (xgmi.bundle[*].lanes=1 gcd.hbm_bytes=4294967296): " + big + ":1: bytes: 8589934592 bytes do not fit in GCD 0's HBM"},
	} {
		out := filepath.Join(t.TempDir(), "D")
		oneLine(t, exe(t, dir, nil, nil, append(append(append([]string{}, lanes...), c.args...), "-outdir", out)...), 2, c.want)
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: made the outdir", c.args)
		}
	}
}

// A signal stops a sweep: no point starts after it, the running points
// keep what they finished (marked incomplete) and exit 130; a rerun runs
// them again and merges every point.
func TestSweepInterruptResumes(t *testing.T) {
	dir := t.TempDir()
	args := []string{"sweep", "-set", "xgmi.bundle[*].lanes=1,2,4", "-workload", "commscope", "-filter", "PinnedToGPU", "-outdir", "D", "-jobs", "1"}
	cmd := exec.Command(binary(t), args...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// signal once the first point has started (its log exists), not after a
	// fixed sleep: a point takes over a second, so it is still running and
	// the other two have not begun, however fast the machine is
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if logs, _ := os.ReadDir(filepath.Join(dir, "D", "logs")); len(logs) > 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no point started in 30 s: %s", stderr.String())
		}
	}
	time.Sleep(200 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Fatalf("interrupted sweep: %v: %s", err, stderr.String())
	}
	points, _ := os.ReadFile(filepath.Join(dir, "D", "points.csv"))
	if !strings.Contains(string(points), ",interrupted,") || !strings.Contains(string(points), ",not run,") {
		t.Errorf("points.csv after the signal:\n%s", points)
	}
	// the progress counts the points that finished, not those stopped
	runs := regexp.MustCompile(`(\d+)/3 points run`).FindAllStringSubmatch(stderr.String(), -1)
	if len(runs) == 0 || runs[len(runs)-1][1] != strconv.Itoa(strings.Count(string(points), ",done,")) {
		t.Errorf("progress %v, points.csv:\n%s", runs, points)
	}
	r := exe(t, dir, nil, nil, args...)
	if r.code != 0 || !strings.Contains(r.stderr, "3 points, 0 done already (skipped), 3 to run") {
		t.Fatalf("rerun: exit %d: %s", r.code, r.stderr)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "D", "results.csv"))
	one, _ := os.ReadFile(filepath.Join(dir, "D", "points", strings.Split(strings.Split(string(points), "\n")[1], ",")[1][len("points/"):], "results.csv"))
	if rows, per := strings.Count(string(b), "\n")-1, strings.Count(string(one), "\n")-1; per < 10 || rows != 3*per {
		t.Errorf("merged %d rows, %d per point", rows, per)
	}
}

// BenchmarkSweep100 runs a sweep of 100 small points (a peer copy at 100
// link speeds) with -jobs 2 and reports its wall time against the sum of
// the points' own (points.csv): issue 11 wants at most 60%, both cores
// busy.
func BenchmarkSweep100(b *testing.B) {
	speeds := make([]string, 100)
	for i := range speeds {
		speeds[i] = strconv.Itoa(20 + i)
	}
	trace, _ := filepath.Abs(filepath.Join("..", "..", "traces", "peer-0-to-1.jsonl"))
	bin := binary(b)
	for range b.N {
		dir := b.TempDir()
		start := time.Now()
		cmd := exec.Command(bin, "sweep", "-set", "xgmi.lane_bandwidth_gbps="+strings.Join(speeds, ","), "-trace", trace,
			"-outdir", filepath.Join(dir, "D"), "-jobs", "2", "-quiet")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		wall := time.Since(start).Seconds()
		points, _ := os.ReadFile(filepath.Join(dir, "D", "points.csv"))
		sum, n := 0.0, 0
		for _, l := range strings.Split(strings.TrimSpace(string(points)), "\n")[1:] {
			f := strings.Split(l, ",")
			s, err := strconv.ParseFloat(f[len(f)-1], 64)
			if err != nil || f[len(f)-2] != "done" {
				b.Fatalf("point %q", l)
			}
			sum += s
			n++
		}
		if n != 100 {
			b.Fatalf("%d points", n)
		}
		b.ReportMetric(wall, "wall-s")
		b.ReportMetric(sum, "sum-of-points-s")
		b.ReportMetric(wall/sum, "wall/sum")
		if wall > 0.6*sum {
			b.Errorf("wall %.2f s is %.0f%% of the points' %.2f s (at most 60%%)", wall, 100*wall/sum, sum)
		}
	}
}

// -config and -env lists are axes too: a column each, in flag order, the
// workload named as a word kept first on each point's command line.
func TestSweepConfigsAndEnv(t *testing.T) {
	dir := t.TempDir()
	r := exe(t, dir, nil, nil, "sweep", "-config", "frontier-node.toml,frontier-dual-xgmi.toml", "-env", "HSA_ENABLE_SDMA=1,0",
		"-set", "stack.rocm=5.7", "p2p", "-cases", "latency", "-outdir", "D") // 5.7: small peer copies on SDMA
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "D", "results.csv"))
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if lines[0] != "config,env.HSA_ENABLE_SDMA,stack.rocm,workload,case,src,dst,bytes,metric,value,unit" || len(lines) != 1+4*64 {
		t.Fatalf("header %q, %d rows", lines[0], len(lines)-1)
	}
	lat := map[string]string{}
	for _, l := range lines[1:] {
		if f := strings.Split(l, ","); f[5] == "gcd0" && f[6] == "gcd1" {
			lat[f[0]+","+f[1]] = f[9]
		}
	}
	if len(lat) != 4 || lat["frontier-node.toml,1"] == lat["frontier-node.toml,0"] {
		t.Errorf("GCD 0 -> 1 latency by point: %v (SDMA on and off should differ)", lat)
	}
	points, _ := os.ReadFile(filepath.Join(dir, "D", "points.csv"))
	if strings.Count(string(points), ",done,") != 4 {
		t.Errorf("points.csv:\n%s", points)
	}
}

// count is "1,2,...,n".
func count(n int) string {
	v := make([]string, n)
	for i := range v {
		v[i] = strconv.Itoa(i + 1)
	}
	return strings.Join(v, ",")
}

// An input in a point's own folder would be replaced by its run: refused
// in a large sweep too, whose points are not all checked one by one.
func TestSweepInputInAPointFolder(t *testing.T) {
	dir := t.TempDir()
	args := []string{"-set", "host.cores=" + count(65), "-set", "gcd.compute_units=" + count(65), "-outdir", filepath.Join(dir, "D")}
	in := filepath.Join(dir, "in.jsonl") // a point's id hashes its arguments, the trace's path among them
	s, err := newSweep(append(args, "-trace", in), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	last := s.Points()[len(s.Points())-1]                         // checked only as a product point
	real := filepath.Join(dir, "D", "points", last.ID, "t.jsonl") // the trace's path links there
	os.MkdirAll(filepath.Dir(real), 0o755)
	os.WriteFile(real, []byte(`{"op":"device_sync"}`+"\n"), 0o644)
	if err := os.Symlink(real, in); err != nil {
		t.Skip(err)
	}
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "in a point's folder, which its run replaces") {
		t.Errorf("input in point %d's folder: %v", last.Index, err)
	}
	beside := filepath.Join(dir, "D", "points", "t.jsonl") // no point's folder: no run replaces it
	os.WriteFile(beside, []byte(`{"op":"device_sync"}`+"\n"), 0o644)
	s, _ = newSweep(append(args, "-trace", beside), io.Discard)
	if err := s.Check(); err != nil {
		t.Errorf("input beside the points' folders: %v", err)
	}
}
