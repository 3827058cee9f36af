package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Every file akisim writes, but an outdir's own files (written into the
// outdir's temporary folder, which is renamed whole), goes through
// openOutput, which decides before any work how the file is written:
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
// checkPaths refuses beforehand an output that is an input, stdout's file
// or another output.

// output is one file a command writes.
type output struct {
	flag, arg string // as the user typed them, for messages
	path      string // where the file ends: arg, its links followed
	tmp       string // the temporary file beside path; "" when written in place
	perm      fs.FileMode
	dev       *os.File // a special file, opened in place
	cleanup   func()   // removes tmp
}

// openOutput checks an output's place and prepares it, before anything is
// simulated: a temporary file beside it (which proves the folder
// writable), or the special file opened. Its errors are bad input (exit 2).
// Opening a FIFO waits, as a shell's redirection does, for its reader.
func openOutput(flagName, arg string) (*output, error) { return openOutputPerm(flagName, arg, 0o644) }

// openOutputPerm is openOutput giving a new file perm (a script's 0755).
func openOutputPerm(flagName, arg string, perm fs.FileMode) (*output, error) {
	o := &output{flag: flagName, arg: arg, path: arg, perm: perm, cleanup: func() {}}
	st, err := os.Stat(arg) // through links
	switch {
	case err == nil && st.IsDir():
		return nil, bad("%s %s: is a folder", flagName, arg)
	case err == nil && !st.Mode().IsRegular():
		// in place: /dev/null, /dev/stdout to a pipe, a FIFO; O_TRUNC would
		// mean nothing to them, and O_CREATE nothing since it exists
		f, err := os.OpenFile(arg, os.O_WRONLY, 0)
		if err != nil {
			return nil, bad("%s %s: %v", flagName, arg, errText(err))
		}
		o.dev = f
		return o, nil
	case err == nil:
		if o.path, err = filepath.EvalSymlinks(arg); err != nil {
			return nil, bad("%s %s: %v", flagName, arg, errText(err))
		}
		o.perm = st.Mode().Perm() // a file replaced keeps its permissions
	case errors.Is(err, fs.ErrNotExist):
		if l, lerr := os.Lstat(arg); lerr == nil && l.Mode()&fs.ModeSymlink != 0 {
			to, _ := os.Readlink(arg)
			return nil, bad("%s %s: is a symbolic link to %s, which does not exist; name the file itself", flagName, arg, to)
		}
	default:
		return nil, bad("%s %s: %v", flagName, arg, errText(err))
	}
	tmp, err := os.CreateTemp(filepath.Dir(o.path), fmt.Sprintf(".%s.tmp-%d-*", filepath.Base(o.path), os.Getpid()))
	if err != nil {
		return nil, bad("%s %s: %v", flagName, arg, errText(err))
	}
	o.tmp = tmp.Name()
	err = tmp.Chmod(o.perm)
	tmp.Close()
	if err != nil {
		os.Remove(o.tmp)
		return nil, bad("%s %s: %v", flagName, arg, errText(err))
	}
	o.cleanup = removeAtExit(o.tmp)
	return o, nil
}

// create opens the output for writing as a command goes (a CPU profile);
// finish closes what it returns. A regular file is synced to disk.
func (o *output) create() (*streamedFile, error) {
	if o.dev != nil {
		return &streamedFile{f: o.dev, bw: bufio.NewWriterSize(o.dev, 1<<16)}, nil
	}
	f, err := openWriter(o.tmp)
	if err != nil {
		return nil, o.fail(err)
	}
	return f, nil
}

// finish flushes and closes what create returned.
func (o *output) finish(f *streamedFile) error {
	o.dev = nil // closed by f
	if err := f.close(o.tmp != ""); err != nil {
		return o.fail(err)
	}
	return nil
}

// write writes the output whole through fn, into its temporary file or
// in place.
func (o *output) write(fn func(io.Writer) error) error {
	f, err := o.create()
	if err != nil {
		return err
	}
	if err := fn(f.bw); err != nil {
		f.f.Close()
		o.dev = nil
		return o.fail(err)
	}
	return o.finish(f)
}

// commit renames the temporary file into place; a file written in place
// is done already.
func (o *output) commit() error {
	if o.tmp == "" {
		return nil
	}
	if err := os.Rename(o.tmp, o.path); err != nil {
		return o.fail(err)
	}
	if err := syncDir(filepath.Dir(o.path)); err != nil {
		return o.fail(err)
	}
	return nil
}

// close removes what was not committed and closes a special file never
// written.
func (o *output) close() {
	if o.dev != nil {
		o.dev.Close()
		o.dev = nil
	}
	o.cleanup()
}

// fail is a write error of the output: the run failed (exit 1), its input
// was fine.
func (o *output) fail(err error) error {
	return fmt.Errorf("%s %s: %v", o.flag, o.arg, errText(err))
}

// writeOutput is openOutput, write and commit in one, for a file written
// after the work in a place checked before it (a sweep's own files): that
// the place fails now is the run's failure (exit 1), not bad input.
func writeOutput(flagName, arg string, perm fs.FileMode, fn func(io.Writer) error) error {
	o, err := openOutputPerm(flagName, arg, perm)
	var ue *usageError
	if errors.As(err, &ue) {
		return errors.New(ue.msg)
	}
	if err != nil {
		return err
	}
	defer o.close()
	if err := o.write(fn); err != nil {
		return err
	}
	return o.commit()
}
