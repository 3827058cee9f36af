package output

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/akisim/akisim/internal/errtext"
	"github.com/akisim/akisim/internal/usage"
	"github.com/akisim/akisim/report"
	"github.com/tebeka/atexit"
)

// An outdir is always one whole run. The run writes its files into a
// temporary folder beside the outdir (same parent, so the final rename is
// atomic), syncs them, and renames the folder into place. An existing
// outdir is replaced only if it is empty or holds a previous run (its
// version.txt starts with "akisim ") and -force is given; a folder akisim
// did not write is never replaced.
//
// Whether the outdir may be replaced is decided once, before simulating;
// after that only an I/O error fails the run. What appeared in the outdir
// meanwhile (a file, another run's commit without -force) is not deleted:
// the commit moves it aside to NAME.before-PID and says so on stderr.
//
// Concurrent runs: the swap happens while holding an flock on the outdir's
// parent folder (the folder, not a lock file, so nothing is left beside the
// outdir), so two runs into one outdir commit one after the other; with
// -force the later replaces the earlier's run whole. A run killed by
// SIGINT or SIGTERM removes its temporary folder (atexit); a commit under
// way finishes first (FileMu).
type Outdir struct {
	arg     string // -outdir as given, for messages
	path    string // absolute, symbolic links resolved
	tmp     string // the run's files until commit: .NAME.tmp-PID-RANDOM beside path
	force   bool
	seen    fs.FileInfo // the folder found at the path when the run decided; nil if none
	names   []string    // what it held then
	stderr  io.Writer   // where the commit says what it kept aside
	cleanup func()
}

// Marker is the file that makes a folder an akisim outdir.
const Marker = "version.txt"

// FileMu is held while the run's own goroutine writes or renames output
// files; a signal's cleanup takes it and never gives it back, so it never
// removes a folder being renamed and no commit starts after it.
var FileMu sync.Mutex

// OpenOutdir checks -outdir before anything is simulated and creates the
// temporary folder, which also proves the parent writable.
func OpenOutdir(arg string, force bool, stderr io.Writer) (*Outdir, error) {
	abs, err := filepath.Abs(arg)
	if err != nil {
		return nil, usage.Errorf("-outdir %s: %v", arg, err)
	}
	if st, err := os.Lstat(abs); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		if abs, err = filepath.EvalSymlinks(abs); err != nil {
			return nil, usage.Errorf("-outdir %s: %v", arg, errtext.Of(err))
		}
	}
	parent := filepath.Dir(abs)
	if parent == abs {
		return nil, usage.Errorf("-outdir %s: the root folder cannot be an outdir", arg)
	}
	d := &Outdir{arg: arg, path: abs, force: force, stderr: stderr}
	if err := d.state(); err != nil {
		return nil, err
	}
	if d.seen, err = os.Stat(abs); err == nil {
		d.names = FolderNames(abs)
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, usage.Errorf("-outdir %s: %v", arg, errtext.Of(err))
	}
	d.tmp, err = os.MkdirTemp(parent, fmt.Sprintf(".%s.tmp-%d-*", filepath.Base(abs), os.Getpid()))
	if err != nil {
		return nil, usage.Errorf("-outdir %s: cannot write beside it: %v", arg, errtext.Of(err))
	}
	if err := os.Chmod(d.tmp, 0o755); err != nil {
		os.Remove(d.tmp)
		return nil, usage.Errorf("-outdir %s: %v", arg, errtext.Of(err))
	}
	d.cleanup = RemoveAtExit(d.tmp)
	return d, nil
}

// state refuses an outdir that must not be replaced: a file, a folder
// akisim did not write, a previous run without -force.
func (d *Outdir) state() error {
	st, err := os.Stat(d.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return usage.Errorf("-outdir %s: %v", d.arg, errtext.Of(err))
	case !st.IsDir():
		return usage.Errorf("-outdir %s: is a file, not a folder", d.arg)
	}
	f, err := os.Open(d.path)
	if err != nil {
		return usage.Errorf("-outdir %s: %v", d.arg, errtext.Of(err))
	}
	names, _ := f.Readdirnames(1)
	f.Close()
	if len(names) == 0 {
		return nil
	}
	if !IsRun(d.path) {
		return usage.Errorf("-outdir %s: holds files akisim did not write (no %s from a run); give a new or empty folder", d.arg, Marker)
	}
	if !d.force {
		return usage.Errorf("-outdir %s: holds a previous run; give -force to replace it", d.arg)
	}
	return nil
}

// isRun reports whether dir holds an akisim run.
func IsRun(dir string) bool {
	f, err := os.Open(filepath.Join(dir, Marker))
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len("akisim "))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == "akisim "
}

// write writes one file of the run.
func (d *Outdir) Write(name string, fn func(io.Writer) error) error {
	if err := writeFile(filepath.Join(d.tmp, name), true, fn); err != nil {
		return fmt.Errorf("-outdir %s: %s: %v", d.arg, name, errtext.Of(err))
	}
	return nil
}

// commit puts the run's folder in place of the outdir, as decided when
// the run opened it.
func (d *Outdir) Commit() error {
	if err := syncDir(d.tmp); err != nil {
		return fmt.Errorf("-outdir %s: %v", d.arg, errtext.Of(err))
	}
	parent := filepath.Dir(d.path)
	unlock, err := lockDir(parent)
	if err != nil {
		return fmt.Errorf("-outdir %s: lock %s: %v", d.arg, parent, errtext.Of(err))
	}
	defer unlock()
	if _, err := os.Lstat(d.path); errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(d.tmp, d.path); err != nil {
			return fmt.Errorf("-outdir %s: %v", d.arg, errtext.Of(err))
		}
	} else {
		// os.Rename refuses to replace a folder, even an empty one: move it aside first
		old := d.tmp + ".old"
		if err := os.Rename(d.path, old); err != nil {
			return fmt.Errorf("-outdir %s: %v", d.arg, errtext.Of(err))
		}
		if err := os.Rename(d.tmp, d.path); err != nil {
			os.Rename(old, d.path)
			return fmt.Errorf("-outdir %s: %v", d.arg, errtext.Of(err))
		}
		d.dispose(old)
	}
	if err := syncDir(parent); err != nil {
		return fmt.Errorf("-outdir %s: %v", d.arg, errtext.Of(err))
	}
	return nil
}

// dispose removes the folder the commit replaced if it is what the run
// decided to replace: the folder it saw, holding the same names, or with
// -force another run committed meanwhile. Anything else appeared during
// the run and is kept beside the outdir.
func (d *Outdir) dispose(old string) {
	st, err := os.Stat(old)
	unchanged := err == nil && d.seen != nil && os.SameFile(st, d.seen) && slices.Equal(FolderNames(old), d.names)
	anotherRun := err == nil && d.force && IsRun(old) && (d.seen == nil || !os.SameFile(st, d.seen))
	if unchanged || anotherRun {
		os.RemoveAll(old)
		return
	}
	kept := fmt.Sprintf("%s.before-%d", d.path, os.Getpid())
	for i := 2; ; i++ {
		if _, err := os.Lstat(kept); errors.Is(err, fs.ErrNotExist) {
			break
		}
		kept = fmt.Sprintf("%s.before-%d-%d", d.path, os.Getpid(), i)
	}
	if err := os.Rename(old, kept); err != nil {
		kept = old
	}
	fmt.Fprintf(d.stderr, "akisim: -outdir %s: changed during the run; what it held then is kept in %s\n", d.arg, report.Printable(kept))
}

// folderNames lists a folder's entries, sorted.
func FolderNames(dir string) []string {
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	slices.Sort(names)
	return names
}

// close removes the temporary folder if the run did not commit it.
func (d *Outdir) Close() { d.cleanup() }

// SyncFile is what a file is written to: written, synced, closed.
type SyncFile interface {
	io.Writer
	Sync() error
	Close() error
}

// CreateFile creates every file written here; tests replace it to
// simulate a full disk.
var CreateFile = func(path string) (SyncFile, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
}

// writeFile writes path through fn; a regular file (sync) is synced to
// disk, a device or pipe is not.
func writeFile(path string, sync bool, fn func(io.Writer) error) error {
	f, err := openWriter(path)
	if err != nil {
		return err
	}
	if err := fn(f.W); err != nil {
		f.Abort()
		return err
	}
	return f.Close(sync)
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	return nil
}

// RemoveAtExit removes path when the returned function is called, or at
// exit if the process ends first (a signal). Removing a path that was
// renamed away does nothing.
func RemoveAtExit(path string) func() {
	id := atexit.Register(func() { os.RemoveAll(path) })
	return func() {
		id.Cancel()
		os.RemoveAll(path)
	}
}
