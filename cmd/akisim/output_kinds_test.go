package main

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/akisim/akisim/output"
)

// outputCommands are the commands that write a file the user names, each
// as a function of that file's path. A kind of path must behave alike in
// every one of them: they all write through output.Open.
func outputCommands(t *testing.T) map[string]func(path string) []string {
	t.Helper()
	csv := filepath.Join(t.TempDir(), "r.csv")
	os.WriteFile(csv, []byte("workload,case,src,dst,bytes,metric,value,unit\np2p,u,gcd0,gcd1,1,bandwidth,1,GB/s\np2p,u,gcd1,gcd0,1,bandwidth,2,GB/s\n"), 0o644)
	tr := traceFile(t, `{"op":"malloc","buf":"a","gcd":0,"bytes":4096}
{"op":"malloc","buf":"b","gcd":1,"bytes":4096}
{"op":"memcpy","src":"a","dst":"b","bytes":4096}
`)
	return map[string]func(string) []string{
		"import -o": func(p string) []string {
			return []string{"import", "rocprof", "profile/testdata/rocprofv3-json", "-o", p}
		},
		"plot -o":     func(p string) []string { return []string{"plot", csv, "-o", p} },
		"-timeline":   func(p string) []string { return []string{"-trace", tr, "-timeline", p} },
		"-cpuprofile": func(p string) []string { return []string{"-trace", tr, "-cpuprofile", p} },
		"-memprofile": func(p string) []string { return []string{"-trace", tr, "-memprofile", p} },
	}
}

// A regular file is replaced whole (a new file, its permissions kept) and
// a new name created; nothing is left beside them.
func TestOutputRegularAndNew(t *testing.T) {
	for name, args := range outputCommands(t) {
		dir := t.TempDir()
		fresh := filepath.Join(dir, "new.svg")
		old := filepath.Join(dir, "old.svg")
		os.WriteFile(old, []byte("old"), 0o600)
		before, _ := os.Stat(old)
		for _, p := range []string{fresh, old} {
			if code, _, errs := akisim(t, args(p)...); code != 0 {
				t.Fatalf("%s %s: exit %d: %s", name, p, code, errs)
			}
		}
		st, err := os.Stat(fresh)
		if err != nil || !st.Mode().IsRegular() || st.Size() == 0 || st.Mode().Perm() != 0o644 {
			t.Errorf("%s: the new file: %v %v", name, st, err)
		}
		after, _ := os.Stat(old)
		if after.Size() == 3 || os.SameFile(before, after) || after.Mode().Perm() != 0o600 {
			t.Errorf("%s: the old file was not replaced whole with its permissions kept: %v -> %v", name, before.Mode(), after.Mode())
		}
		if names := output.FolderNames(dir); len(names) != 2 {
			t.Errorf("%s: the folder holds %v, want the two outputs only", name, names)
		}
	}
}

// A device stays a device; a FIFO stays a FIFO and its reader gets the
// output; a symbolic link stays a link and its target is written; a link
// to nothing and a folder are refused (exit 2, one line). Run as root, the
// device is a null device of the test's own (mknod), not the system's.
func TestOutputSpecialPaths(t *testing.T) {
	for name, args := range outputCommands(t) {
		dir := t.TempDir()
		if os.Geteuid() == 0 {
			dev := filepath.Join(dir, "null.svg")
			if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
				t.Fatal(err)
			}
			if code, _, errs := akisim(t, args(dev)...); code != 0 {
				t.Errorf("%s on a device: exit %d: %s", name, code, errs)
			}
			if st, err := os.Lstat(dev); err != nil || st.Mode()&fs.ModeCharDevice == 0 {
				t.Errorf("%s: the device became %v (%v)", name, st.Mode(), err)
			}
		}

		fifo := filepath.Join(dir, "fifo.svg")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
		// the reader opens first and a writer of the test's keeps the FIFO
		// open, so the reader sees its end only when both writers closed,
		// and nothing waits whatever the command did
		r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			t.Fatal(err)
		}
		keep, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := make(chan int)
		go func() {
			b, _ := io.ReadAll(r)
			r.Close()
			got <- len(b)
		}()
		code, _, errs := akisim(t, args(fifo)...)
		keep.Close()
		if n := <-got; code != 0 || n == 0 {
			t.Errorf("%s on a FIFO: exit %d (%s), its reader got %d bytes", name, code, errs, n)
		}
		if st, err := os.Lstat(fifo); err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
			t.Errorf("%s: the FIFO became %v (%v)", name, st.Mode(), err)
		}

		target, link := filepath.Join(dir, "target.svg"), filepath.Join(dir, "link.svg")
		os.WriteFile(target, []byte("old"), 0o644)
		os.Symlink(target, link)
		if code, _, errs := akisim(t, args(link)...); code != 0 {
			t.Errorf("%s on a link: exit %d: %s", name, code, errs)
		}
		if st, err := os.Lstat(link); err != nil || st.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s: the link became %v (%v)", name, st.Mode(), err)
		}
		if b, _ := os.ReadFile(target); string(b) == "old" {
			t.Errorf("%s: the link's target was not written", name)
		}

		dangling := filepath.Join(dir, "dangling.svg")
		os.Symlink(filepath.Join(dir, "nowhere"), dangling)
		wantBad(t, args(dangling), "is a symbolic link to "+filepath.Join(dir, "nowhere")+", which does not exist")
		if _, err := os.Lstat(filepath.Join(dir, "nowhere")); err == nil {
			t.Errorf("%s: wrote through a dangling link", name)
		}
		folder := filepath.Join(dir, "folder.svg")
		os.Mkdir(folder, 0o755)
		wantBad(t, args(folder), "is a folder")
		wantBad(t, args(filepath.Join(dir, "no", "such", "x.svg")), "no such file or directory")
	}
}

// An output that is stdout's or stderr's file is refused before anything
// runs: stdout redirected to a file named as -timeline would be replaced
// and its rows lost; a pipe would mix the two. Two outputs on one FIFO are
// refused too; a device (a terminal, /dev/null) may be named twice.
func TestOutputIsNotStdout(t *testing.T) {
	tr := traceFile(t, `{"op":"malloc","buf":"a","gcd":0,"bytes":4096}
{"op":"malloc","buf":"b","gcd":1,"bytes":4096}
{"op":"memcpy","src":"a","dst":"b","bytes":4096}
`)
	dir := t.TempDir()
	csv := filepath.Join(dir, "r.csv")
	os.WriteFile(csv, []byte("workload,case,src,dst,bytes,metric,value,unit\np2p,u,gcd0,gcd1,1,bandwidth,1,GB/s\n"), 0o644)
	res := filepath.Join(dir, "res.svg")
	stdout, err := os.Create(res)
	if err != nil {
		t.Fatal(err)
	}
	defer stdout.Close()
	var errb strings.Builder
	wd, _ := os.Getwd()
	os.Chdir("../..")
	defer os.Chdir(wd)
	for _, args := range [][]string{
		{"-trace", tr, "-format", "csv", "-timeline", res},
		{"-trace", tr, "-format", "csv", "-timeline", "/proc/self/fd/" + strconv.Itoa(int(stdout.Fd()))},
		{"-trace", tr, "-format", "csv", "-cpuprofile", res},
		{"import", "rocprof", "profile/testdata/rocprofv3-json", "-o", res},
		{"plot", csv, "-o", res},
	} {
		errb.Reset()
		code := cli(args, stdout, &errb)
		if code != 2 || !strings.Contains(errb.String(), "is the file stdout writes to") {
			t.Errorf("%q: exit %d, stderr %q: want 2, naming stdout", args, code, errb.String())
		}
	}
	if st, _ := os.Stat(res); st.Size() != 0 {
		t.Errorf("stdout's file holds %d bytes after refused runs", st.Size())
	}
	errb.Reset() // the control: another file is written
	if code := cli([]string{"plot", csv, "-o", res + ".2.svg"}, stdout, &errb); code != 0 {
		t.Errorf("plot -o beside stdout's file: exit %d (%s)", code, errb.String())
	}

	// stdout's file inside a previous run's folder that -force replaces
	prev := filepath.Join(dir, "prev")
	os.Mkdir(prev, 0o755)
	os.WriteFile(filepath.Join(prev, "version.txt"), []byte("akisim (devel)\n"), 0o644)
	inside, err := os.Create(filepath.Join(prev, "res.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer inside.Close()
	errb.Reset()
	if code := cli([]string{"-trace", tr, "-outdir", prev, "-force"}, inside, &errb); code != 2 || !strings.Contains(errb.String(), "holds the file stdout writes to") {
		t.Errorf("-outdir holding stdout's file: exit %d, stderr %q", code, errb.String())
	}
	if _, err := os.Stat(filepath.Join(prev, "res.txt")); err != nil {
		t.Errorf("stdout's file in the outdir: %v", err)
	}

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	errb.Reset()
	if code := cli([]string{"-trace", tr, "-timeline", "/proc/self/fd/" + strconv.Itoa(int(w.Fd()))}, w, &errb); code != 2 {
		t.Errorf("-timeline on stdout's pipe: exit %d (%s), want 2", code, errb.String())
	}

	fifo := filepath.Join(dir, "fifo")
	syscall.Mkfifo(fifo, 0o644)
	wantBad(t, []string{"-trace", tr, "-timeline", fifo, "-rocprof", fifo}, "name the same file")
	if code, _, errs := akisim(t, "-trace", tr, "-timeline", "/dev/null", "-rocprof", "/dev/null"); code != 0 {
		t.Errorf("two outputs on /dev/null: exit %d: %s", code, errs)
	}
}
