package output

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/akisim/akisim/internal/errtext"
	"github.com/akisim/akisim/internal/usage"
)

// Every file akisim writes, but an outdir's own files (written into the
// outdir's temporary folder, which is renamed whole), goes through
// Open, which decides before any work how the file is written:
//
//   - a regular file, or a name where nothing is, is written into a
//     temporary file beside it and renamed into place at commit, so a
//     reader sees the old file or the new one whole, never a part;
//   - a device, FIFO or socket is opened at once and written in place: it
//     is never replaced by a regular file;
//   - a symbolic link is followed, and its target written as above; a link
//     whose target does not exist is refused;
//   - a folder is refused.
//
// Check refuses beforehand an output that is an input, stdout's file
// or another output.

// output is one file a command writes.
type File struct {
	flag, arg string // as the user typed them, for messages
	path      string // where the file ends: arg, its links followed
	tmp       string // the temporary file beside path; "" when written in place
	perm      fs.FileMode
	dev       *os.File // a special file, opened in place
	cleanup   func()   // removes tmp
}

// Open checks an output's place and prepares it, before anything is
// simulated: a temporary file beside it (which proves the folder
// writable), or the special file opened. Its errors are bad input (exit 2).
// Opening a FIFO waits, as a shell's redirection does, for its reader.
func Open(flagName, arg string) (*File, error) { return OpenPerm(flagName, arg, 0o644) }

// OpenPerm is Open giving a new file perm (a script's 0755).
func OpenPerm(flagName, arg string, perm fs.FileMode) (*File, error) {
	o := &File{flag: flagName, arg: arg, path: arg, perm: perm, cleanup: func() {}}
	st, err := os.Stat(arg) // through links
	switch {
	case err == nil && st.IsDir():
		return nil, usage.Errorf("%s %s: is a folder", flagName, arg)
	case err == nil && !st.Mode().IsRegular():
		// in place: /dev/null, /dev/stdout to a pipe, a FIFO; O_TRUNC would
		// mean nothing to them, and O_CREATE nothing since it exists
		f, err := os.OpenFile(arg, os.O_WRONLY, 0)
		if err != nil {
			return nil, usage.Errorf("%s %s: %v", flagName, arg, errtext.Of(err))
		}
		o.dev = f
		return o, nil
	case err == nil:
		if o.path, err = filepath.EvalSymlinks(arg); err != nil {
			return nil, usage.Errorf("%s %s: %v", flagName, arg, errtext.Of(err))
		}
		o.perm = st.Mode().Perm() // a file replaced keeps its permissions
	case errors.Is(err, fs.ErrNotExist):
		if l, lerr := os.Lstat(arg); lerr == nil && l.Mode()&fs.ModeSymlink != 0 {
			to, _ := os.Readlink(arg)
			return nil, usage.Errorf("%s %s: is a symbolic link to %s, which does not exist; name the file itself", flagName, arg, to)
		}
	default:
		return nil, usage.Errorf("%s %s: %v", flagName, arg, errtext.Of(err))
	}
	tmp, err := os.CreateTemp(filepath.Dir(o.path), fmt.Sprintf(".%s.tmp-%d-*", filepath.Base(o.path), os.Getpid()))
	if err != nil {
		return nil, usage.Errorf("%s %s: %v", flagName, arg, errtext.Of(err))
	}
	o.tmp = tmp.Name()
	err = tmp.Chmod(o.perm)
	tmp.Close()
	if err != nil {
		os.Remove(o.tmp)
		return nil, usage.Errorf("%s %s: %v", flagName, arg, errtext.Of(err))
	}
	o.cleanup = RemoveAtExit(o.tmp)
	return o, nil
}

// create opens the output for writing as a command goes (a CPU profile);
// finish closes what it returns. A regular file is synced to disk.
func (o *File) Create() (*Buffered, error) {
	if o.dev != nil {
		return &Buffered{f: o.dev, W: bufio.NewWriterSize(o.dev, 1<<16)}, nil
	}
	f, err := openWriter(o.tmp)
	if err != nil {
		return nil, o.Fail(err)
	}
	return f, nil
}

// finish flushes and closes what create returned.
func (o *File) Finish(f *Buffered) error {
	o.dev = nil // closed by f
	if err := f.Close(o.tmp != ""); err != nil {
		return o.Fail(err)
	}
	return nil
}

// write writes the output whole through fn, into its temporary file or
// in place.
func (o *File) Write(fn func(io.Writer) error) error {
	f, err := o.Create()
	if err != nil {
		return err
	}
	if err := fn(f.W); err != nil {
		f.Abort()
		o.dev = nil
		return o.Fail(err)
	}
	return o.Finish(f)
}

// commit renames the temporary file into place; a file written in place
// is done already.
func (o *File) Commit() error {
	if o.tmp == "" {
		return nil
	}
	if err := os.Rename(o.tmp, o.path); err != nil {
		return o.Fail(err)
	}
	if err := syncDir(filepath.Dir(o.path)); err != nil {
		return o.Fail(err)
	}
	return nil
}

// close removes what was not committed and closes a special file never
// written.
func (o *File) Close() {
	if o.dev != nil {
		o.dev.Close()
		o.dev = nil
	}
	o.cleanup()
}

// Fail is a write error of the output: the run failed (exit 1), its input
// was fine.
func (o *File) Fail(err error) error {
	return fmt.Errorf("%s %s: %v", o.flag, o.arg, errtext.Of(err))
}

// Write is Open, Write and Commit in one, for a file written
// after the work in a place checked before it (a sweep's own files): that
// the place fails now is the run's failure (exit 1), not bad input.
func Write(flagName, arg string, perm fs.FileMode, fn func(io.Writer) error) error {
	o, err := OpenPerm(flagName, arg, perm)
	var ue *usage.Error
	if errors.As(err, &ue) {
		return errors.New(ue.Msg)
	}
	if err != nil {
		return err
	}
	defer o.Close()
	if err := o.Write(fn); err != nil {
		return err
	}
	return o.Commit()
}
