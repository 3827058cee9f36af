package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/configs"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/output"
	"github.com/akisim/akisim/run"
)

// snapshot reads every file of an outdir; nil when it does not exist.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, e := range es {
		m[e.Name()] = readFile(t, filepath.Join(dir, e.Name()))
	}
	if st, ok := m["stats.txt"]; ok {
		m["stats.txt"] = hostTimeRe.ReplaceAllString(st, "$1 (host time)")
	}
	if s, ok := m["setup.json"]; ok { // its command names the outdir and -force, which a reference run's does not
		var setup map[string]any
		if err := json.Unmarshal([]byte(s), &setup); err != nil {
			t.Fatalf("%s/setup.json: %v", dir, err)
		}
		delete(setup, "command")
		b, _ := json.Marshal(setup)
		m["setup.json"] = string(b)
	}
	return m
}

// hostTimeRe matches the statistics of the host's wall time (hostSeconds,
// hostTickRate), the only output that differs between two runs.
var hostTimeRe = regexp.MustCompile(`(?m)^(host\w*) .*$`)

func same(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || v != w {
			return false
		}
	}
	return true
}

// noScratch fails if a run left temporary files beside its outputs.
func noScratch(t *testing.T, parent string) {
	t.Helper()
	if n := names(t, parent); strings.Contains(n, ".tmp-") {
		t.Errorf("temporary files left in %s: %s", parent, n)
	}
}

// An outdir from another run is replaced whole, and only with -force: a
// stale commscope.json does not stay beside stream results.
func TestOutdirReplacedWholeOnlyWithForce(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	if code, _, errs := akisim(t, "-workload", "commscope", "-filter", `PinnedToGPU/0/0/log2\(N\):20/`, "-outdir", dir); code != 0 {
		t.Fatalf("commscope: exit %d: %s", code, errs)
	}
	first := snapshot(t, dir)
	if first["commscope.json"] == "" {
		t.Fatal("commscope run wrote no commscope.json")
	}
	if code, _, errs := akisim(t, smallStream("-outdir", dir)...); code != 2 || !strings.Contains(errs, "-force") {
		t.Errorf("without -force: exit %d, %q", code, errs)
	}
	if !same(snapshot(t, dir), first) {
		t.Error("a refused run changed the outdir")
	}
	ref := filepath.Join(parent, "ref")
	akisim(t, smallStream("-outdir", ref)...)
	if code, _, errs := akisim(t, smallStream("-outdir", dir, "-force")...); code != 0 {
		t.Fatalf("with -force: exit %d: %s", code, errs)
	}
	if got, want := snapshot(t, dir), snapshot(t, ref); !same(got, want) {
		t.Errorf("replaced outdir holds %d files, not the new run's %d (commscope.json: %t)", len(got), len(want), got["commscope.json"] != "")
	}
	noScratch(t, parent)
}

// Two runs into one outdir at once leave exactly one run's files: with
// -force both succeed and the last one stays whole. Without it, two runs
// that both decided on the outdir before either committed both succeed
// and the first one's run is kept aside whole, not deleted; a run that
// opens it after the other's commit is refused (exit 2).
func TestConcurrentRunsIntoOneOutdir(t *testing.T) {
	parent := t.TempDir()
	argsA := smallStream("-alloc", "2")
	argsB := smallStream("-alloc", "host")
	refA, refB := filepath.Join(parent, "a"), filepath.Join(parent, "b")
	for _, r := range []struct {
		dir  string
		args []string
	}{{refA, argsA}, {refB, argsB}} {
		if code := cli(append(r.args, "-outdir", r.dir), new(bytes.Buffer), new(bytes.Buffer)); code != 0 {
			t.Fatalf("reference run %v: exit %d", r.args, code)
		}
	}
	a, b := snapshot(t, refA), snapshot(t, refB)
	if same(a, b) {
		t.Fatal("the two runs write the same files: the test could not tell them apart")
	}
	for _, force := range []bool{true, false} {
		dir := filepath.Join(parent, "shared")
		os.RemoveAll(dir)
		var wg sync.WaitGroup
		codes := make([]int, 2)
		errs := make([]bytes.Buffer, 2)
		for i, args := range [][]string{argsA, argsB} {
			args = append(args, "-outdir", dir)
			if force {
				args = append(args, "-force")
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[i] = cli(args, new(bytes.Buffer), &errs[i])
			}()
		}
		wg.Wait()
		got := snapshot(t, dir)
		if !same(got, a) && !same(got, b) {
			t.Errorf("force=%t: the outdir mixes the runs (%d files)", force, len(got))
		}
		switch {
		case force && (codes[0] != 0 || codes[1] != 0):
			t.Errorf("force: exits %v (%s|%s)", codes, &errs[0], &errs[1])
		case !force && codes[0]+codes[1] > 2:
			t.Errorf("no force: exits %v (%s|%s)", codes, &errs[0], &errs[1])
		}
		kept, _ := filepath.Glob(dir + ".before-*")
		switch overlapped := codes[0]+codes[1] == 0; {
		case force && len(kept) != 0:
			t.Errorf("force: kept %v aside", kept)
		case !force && overlapped && (len(kept) != 1 || same(got, a) == same(snapshot(t, kept[0]), a)):
			t.Errorf("no force: kept %v aside, want the other run whole", kept)
		case !force && !overlapped && len(kept) != 0: // the later opened after the earlier's commit: refused (exit 2)
			t.Errorf("no force, one refused: kept %v aside", kept)
		}
		for _, k := range kept {
			os.RemoveAll(k)
		}
		noScratch(t, parent)
	}
}

// fullFile is a file on a disk that fills after a few bytes.
type fullFile struct {
	*os.File
	left int
}

func (f *fullFile) Write(p []byte) (int, error) {
	if len(p) > f.left {
		n, _ := f.File.Write(p[:f.left])
		f.left = 0
		return n, &fs.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
	}
	f.left -= len(p)
	return f.File.Write(p)
}

// A full disk fails the run with one line and leaves neither a truncated
// outdir nor temporary files; a previous run stays as it was.
func TestFullDiskLeavesNoOutdir(t *testing.T) {
	saved := output.CreateFile
	t.Cleanup(func() { output.CreateFile = saved })
	// The disk fills while stats.txt is written.
	full := func(path string) (output.SyncFile, error) {
		f, err := saved(path)
		if err != nil || filepath.Base(path) != "stats.txt" {
			return f, err
		}
		return &fullFile{File: f.(*os.File), left: 1000}, nil
	}
	output.CreateFile = full
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	code, out, errs := akisim(t, smallStream("-outdir", dir, "-format", "csv")...)
	if code != 1 || errs != "akisim: -outdir "+dir+": stats.txt: no space left on device\n" || out != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if n := names(t, parent); n != "" {
		t.Errorf("a failed run left %q", n)
	}
	output.CreateFile = saved
	akisim(t, smallStream("-outdir", dir)...)
	before := snapshot(t, dir)
	output.CreateFile = full
	if code, _, _ := akisim(t, smallStream("-outdir", dir, "-force", "-alloc", "host")...); code != 1 || !same(snapshot(t, dir), before) {
		t.Errorf("exit %d; the previous run changed", code)
	}
	noScratch(t, parent)
	// A full device as the timeline: the run fails and commits no outdir.
	if _, err := os.Stat("/dev/full"); err == nil {
		output.CreateFile = saved
		other := filepath.Join(parent, "other")
		code, _, errs := akisim(t, smallStream("-outdir", other, "-timeline", "/dev/full")...)
		if code != 1 || errs != "akisim: -timeline /dev/full: no space left on device\n" {
			t.Errorf("/dev/full timeline: exit %d, %q", code, errs)
		}
		if _, err := os.Stat(other); err == nil {
			t.Error("the outdir was committed though the timeline failed")
		}
		noScratch(t, parent)
		code, _, errs = akisim(t, smallStream("-cpuprofile", "/dev/full")...)
		if code != 1 || errs != "akisim: -cpuprofile /dev/full: no space left on device\n" {
			t.Errorf("/dev/full profile: exit %d, %q", code, errs)
		}
	}
}

// A panic escaping the simulation is an internal error: exit 3 with the
// stack, never 2, and the outputs are cleaned up.
func TestInternalErrorExitsThree(t *testing.T) {
	saved := simulate
	t.Cleanup(func() { simulate = saved })
	simulate = func(*config.Node, []job.Run, ...run.Option) (*run.Result, error) { panic("boom") }
	parent := t.TempDir()
	code, out, errs := akisim(t, smallStream("-outdir", filepath.Join(parent, "out"))...)
	if code != 3 || !strings.HasPrefix(errs, "akisim: internal error: boom\n") || !strings.Contains(errs, "goroutine ") || out != "" {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if n := names(t, parent); n != "" {
		t.Errorf("the panic left %q", n)
	}
}

func TestVersion(t *testing.T) {
	code, out, errs := akisim(t, "-version")
	if code != 0 || errs != "" || !strings.HasPrefix(out, "akisim ") || !strings.Contains(out, "\nrevision ") {
		t.Errorf("exit %d, %q, %q", code, out, errs)
	}
}

func TestConfigsList(t *testing.T) {
	code, out, _ := akisim(t, "configs")
	if code != 0 || !strings.Contains(out, "frontier-node.toml  ") || !strings.Contains(out, "one OLCF Frontier compute node") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	shipped, _ := filepath.Glob("../../configs/*.toml")
	if got := strings.Count(out, ".toml"); got != len(shipped) || got != len(config.Builtin(configs.FS)) {
		t.Errorf("%d configs listed, %d shipped", got, len(shipped))
	}
}
