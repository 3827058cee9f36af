package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/akisim/akisim/run"
)

// These tests run the built binary: what a user types, from any folder,
// with pipes, devices and signals.

var built struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func TestMain(m *testing.M) {
	run.CheckAll(true) // every run of the tests checks the model's invariants, and so does the binary they build
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// binary builds akisim once per test run, stamped with its VCS revision
// when the toolchain can (-buildvcs=auto overrides a GOFLAGS=-buildvcs=false).
func binary(t testing.TB) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "akisim-bin-"); built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "akisim")
		out, err := exec.Command("go", "build", "-buildvcs=auto", "-ldflags", "-X main.checkBuild=on", "-o", built.path, ".").CombinedOutput()
		if err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

type result struct {
	code           int
	stdout, stderr string
}

// exe runs the binary in dir with stdin and stdout as given (nil: none, a
// buffer), and returns its exit status and output.
func exe(t *testing.T, dir string, stdin, stdout *os.File, args ...string) result {
	t.Helper()
	return exeCmd(t, exec.Command(binary(t), args...), dir, stdin, stdout)
}

// exeCmd is exe of a command line of its own (the binary under a shell's
// ulimit).
func exeCmd(t *testing.T, cmd *exec.Cmd, dir string, stdin, stdout *os.File) result {
	t.Helper()
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if stdin != nil {
		cmd.Stdin = stdin
	}
	if stdout != nil {
		cmd.Stdout = stdout
	}
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}

func oneLine(t *testing.T, r result, code int, want string) {
	t.Helper()
	if r.code != code || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, stderr %q; want exit %d and one line with %q", r.code, r.stderr, code, want)
	}
}

// `go install` then `akisim -config frontier-node.toml` in any folder: the
// configs are built in; a file on disk of that name still wins.
func TestBinaryRunsAnywhere(t *testing.T) {
	dir := t.TempDir()
	r := exe(t, dir, nil, nil, "-config", "frontier-node.toml", "-cases", "latency", "-format", "csv")
	if r.code != 0 || strings.Count(r.stdout, "\n") != 1+64 {
		t.Fatalf("exit %d, %d lines: %s", r.code, strings.Count(r.stdout, "\n"), r.stderr)
	}
	r = exe(t, dir, nil, nil, "configs")
	if r.code != 0 || !strings.Contains(r.stdout, "lumi-node.toml") {
		t.Errorf("configs: exit %d: %s", r.code, r.stdout)
	}
	// A local file named like a built-in config is used instead.
	os.WriteFile(filepath.Join(dir, "frontier-node.toml"), []byte("name = \"local\"\n"), 0o644)
	oneLine(t, exe(t, dir, nil, nil, "-config", "frontier-node.toml"), 2, "frontier-node.toml: ")
	if r := exe(t, dir, nil, nil, "-config", "lumi-node", "-cases", "latency"); r.code != 0 || !strings.Contains(r.stdout, "on lumi-node") {
		t.Errorf("built-in lumi-node: exit %d: %s", r.code, r.stderr)
	}
}

func TestBinaryVersion(t *testing.T) {
	r := exe(t, t.TempDir(), nil, nil, "-version")
	rev := regexp.MustCompile(`(?m)^revision ([0-9a-f]{40}|\(devel\))$`)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "akisim ") || !rev.MatchString(r.stdout) {
		t.Errorf("exit %d:\n%s", r.code, r.stdout)
	}
}

// -config /dev/zero stops with an error at the size cap instead of
// reading forever (which the test's own timeout would catch); the message
// names the cap it stopped at. No wall-clock bound: a loaded machine made
// one flaky.
func TestBinaryDevZeroConfig(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	oneLine(t, exe(t, t.TempDir(), nil, nil, "-config", "/dev/zero"), 2, "/dev/zero: cannot read config: larger than 16 MiB")
}

// A piped trace (read once) gives the same results as the file.
func TestBinaryPipedTrace(t *testing.T) {
	tr, err := filepath.Abs("../../traces/peer-0-to-1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(tr)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		defer pw.Close()
		var b bytes.Buffer
		b.ReadFrom(f)
		pw.Write(b.Bytes())
	}()
	piped := exe(t, t.TempDir(), pr, nil, "-trace", "/dev/stdin", "-format", "csv")
	pr.Close()
	file := exe(t, t.TempDir(), nil, nil, "-trace", tr, "-format", "csv")
	if piped.code != 0 || file.code != 0 || piped.stdout != file.stdout || strings.Count(file.stdout, "\n") < 2 {
		t.Errorf("piped: exit %d (%s); file: exit %d; outputs equal: %t", piped.code, piped.stderr, file.code, piped.stdout == file.stdout)
	}
}

// Writing results to a full device fails the run with one line, and the
// outdir is not committed.
func TestBinaryDevFullStdout(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full")
	}
	defer full.Close()
	parent := t.TempDir()
	r := exe(t, parent, nil, full, smallStream("-outdir", "out")...)
	oneLine(t, r, 1, "akisim: stdout: no space left on device")
	if n := names(t, parent); n != "" {
		t.Errorf("left %q", n)
	}
}

// Bad output paths are found before simulating: a long workload fails
// with no result written (a run checked afterwards prints its rows first),
// not by a wall-clock bound, which a loaded machine breaks.
func TestBinaryBadOutdirFailsFast(t *testing.T) {
	parent := t.TempDir()
	os.WriteFile(filepath.Join(parent, "file"), nil, 0o644)
	r := exe(t, parent, nil, nil, "-workload", "stream", "-outdir", "file/out") // e6: seconds of simulation
	oneLine(t, r, 2, "-outdir file/out: not a directory")
	if r.stdout != "" {
		t.Errorf("stdout %q: the outdir was checked after simulating", r.stdout)
	}
}

// Two processes into one outdir leave one whole run.
func TestBinaryConcurrentRuns(t *testing.T) {
	parent := t.TempDir()
	args := [][]string{smallStream("-alloc", "2"), smallStream("-alloc", "host")}
	var refs []map[string]string
	for i, a := range args {
		ref := fmt.Sprintf("ref%d", i)
		if r := exe(t, parent, nil, nil, append(a, "-outdir", ref)...); r.code != 0 {
			t.Fatal(r.stderr)
		}
		refs = append(refs, snapshot(t, filepath.Join(parent, ref)))
	}
	for round := 0; round < 3; round++ {
		var wg sync.WaitGroup
		codes := make([]int, len(args))
		for i, a := range args {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[i] = exe(t, parent, nil, nil, append(a, "-outdir", "shared", "-force")...).code
			}()
		}
		wg.Wait()
		got := snapshot(t, filepath.Join(parent, "shared"))
		if codes[0] != 0 || codes[1] != 0 || !same(got, refs[0]) && !same(got, refs[1]) {
			t.Errorf("round %d: exits %v, the outdir holds neither run whole", round, codes)
		}
	}
	noScratch(t, parent)
}

// SIGTERM while simulating leaves the runs that finished, with a note
// that the run was interrupted; while writing the files, no outdir or the
// previous run whole; never temporary files; at the latest moment, the
// new run whole.
func TestBinarySIGTERM(t *testing.T) {
	parent := t.TempDir()
	args := []string{"-workload", "stream", "-sizes", "1048576,16777216,67108864", "-outdir"}
	if r := exe(t, parent, nil, nil, append(args, "ref")...); r.code != 0 {
		t.Fatal(r.stderr)
	}
	ref := snapshot(t, filepath.Join(parent, "ref"))
	phases := []struct {
		name string
		when func(tmp []string) bool // given the files in the run's temporary folder
	}{
		{"while simulating", func(tmp []string) bool { return tmp != nil }},
		{"while writing", func(tmp []string) bool { return len(tmp) > 0 }},
	}
	for i := 0; i < 6; i++ {
		ph := phases[i%2]
		out := fmt.Sprintf("out%d", i)
		var previous map[string]string // from i = 2, a previous run that -force would replace
		runArgs := append(slices.Clone(args), out)
		if i >= 2 {
			if r := exe(t, parent, nil, nil, smallStream("-outdir", out)...); r.code != 0 {
				t.Fatal(r.stderr)
			}
			previous = snapshot(t, filepath.Join(parent, out))
			runArgs = append(runArgs, "-force")
		}
		cmd := exec.Command(binary(t), runArgs...)
		cmd.Dir = parent
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		var err error
		signalled := false
	wait:
		for {
			select {
			case err = <-done:
				break wait
			case <-time.After(time.Millisecond):
				if !signalled && ph.when(tmpFiles(parent, out)) {
					cmd.Process.Signal(syscall.SIGTERM)
					signalled = true
				}
			}
		}
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		got := snapshot(t, filepath.Join(parent, out))
		switch {
		case !signalled: // ended before the moment came: it must be whole
			if code != 0 || !same(got, ref) {
				t.Errorf("%s (not signalled): exit %d, %d files", ph.name, code, len(got))
			}
		case code == 128+15 && strings.Contains(got[noteFile], "interrupted by SIGTERM") && got["results.csv"] != "":
		case code == 128+15 && (got == nil && previous == nil || previous != nil && same(got, previous)):
		case same(got, ref): // the signal came during the commit
		default:
			t.Errorf("SIGTERM %s: exit %d, outdir of %d files, whole: %t", ph.name, code, len(got), same(got, ref))
		}
	}
	noScratch(t, parent)
}

// tmpFiles lists the temporary folder of a run into parent/out: nil if
// there is none.
func tmpFiles(parent, out string) []string {
	m, _ := filepath.Glob(filepath.Join(parent, "."+out+".tmp-*"))
	if len(m) == 0 {
		return nil
	}
	es, _ := os.ReadDir(m[0])
	names := []string{}
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// progressRuns is akisim's progress line once a run has finished ("12/15480 runs").
var progressRuns = regexp.MustCompile(`akisim: [1-9][0-9]*/[0-9]+ runs`)

// Interrupting a long commscope run once a run has finished leaves the rows
// measured so far in the outdir, a note saying so, and exit 130 (143 for
// SIGTERM); stdout has the same rows.
func TestBinaryInterruptKeepsRows(t *testing.T) {
	parent := t.TempDir()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		out := "out-" + sig.String()
		cmd := exec.Command(binary(t), "commscope", "-format", "csv", "-outdir", out)
		cmd.Dir = parent
		var stdout, stderr bytes.Buffer
		cmd.Stdout = &stdout
		pipe, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// signal once the progress line says runs have finished, however
		// loaded the machine is (a fixed sleep may come before the first)
		finished, read := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(read)
			buf := make([]byte, 4096)
			for signalled := false; ; {
				n, err := pipe.Read(buf)
				stderr.Write(buf[:n])
				if !signalled && progressRuns.Match(stderr.Bytes()) {
					signalled = true
					close(finished)
				}
				if err != nil {
					return
				}
			}
		}()
		select {
		case <-finished:
		case <-time.After(5 * time.Minute):
			t.Fatalf("%v: no run finished after 5 minutes: %s", sig, stderr.String())
		}
		cmd.Process.Signal(sig)
		<-read
		err = cmd.Wait()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != 128+int(sig) || !strings.Contains(stderr.String(), "interrupted by "+signalName(int(sig))) {
			t.Fatalf("%v: exit %d: %s", sig, code, stderr.String())
		}
		got := snapshot(t, filepath.Join(parent, out))
		rows := strings.Count(got["results.csv"], "\n") - 1
		if rows < 2 || rows%2 != 0 { // each finished benchmark: bandwidth and time
			t.Errorf("%v: %d rows", sig, rows)
		}
		if got["results.csv"] != stdout.String() {
			t.Errorf("%v: stdout is not the outdir's rows", sig)
		}
		note := got[noteFile]
		if !strings.Contains(note, "interrupted by "+signalName(int(sig))) || !strings.Contains(note, fmt.Sprintf("%d of ", rows/2)) {
			t.Errorf("%v: note %q for %d rows", sig, note, rows)
		}
	}
	noScratch(t, parent)
}
