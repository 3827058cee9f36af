package output

import (
	"bufio"
	"fmt"
	"path/filepath"

	"github.com/akisim/akisim/internal/errtext"
)

// Buffered is a file being written through a buffer: an output file
// whole (writeFile), or an outdir file a row at a time.
type Buffered struct {
	f SyncFile
	W *bufio.Writer
}

// create opens name in the run's folder, to be written as the run goes.
func (d *Outdir) Create(name string) (*Buffered, error) {
	f, err := openWriter(filepath.Join(d.tmp, name))
	if err != nil {
		return nil, fmt.Errorf("-outdir %s: %s: %v", d.arg, name, errtext.Of(err))
	}
	return f, nil
}

// openWriter creates path for buffered writing.
func openWriter(path string) (*Buffered, error) {
	f, err := CreateFile(path)
	if err != nil {
		return nil, err
	}
	return &Buffered{f: f, W: bufio.NewWriterSize(f, 1<<16)}, nil
}

// close flushes the file, syncs it to disk if asked (a regular file; a
// device or pipe is not) and closes it.
func (s *Buffered) Close(sync bool) error {
	err := s.W.Flush()
	if err == nil && sync {
		err = s.f.Sync()
	}
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Abort closes the file without flushing what is buffered: a write that
// failed.
func (s *Buffered) Abort() { s.f.Close() }
