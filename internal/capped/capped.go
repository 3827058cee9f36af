// Package capped opens input files that akisim reads up to a cap: a file
// known larger than its kind may be is refused before it is read, and a
// pipe or device that gives more fails its read at the cap. An input
// without a cap could fill the memory with one typo (akisim plot /dev/zero).
package capped

import (
	"fmt"
	"io"
	"os"
)

// TooLarge is an input past its cap.
type TooLarge struct {
	Path string
	What string // the kind of file, "a rocprofv3 JSON file"
	Cap  int64
}

func (e *TooLarge) Error() string {
	return fmt.Sprintf("%s: larger than %s, the most akisim reads of %s", e.Path, Size(e.Cap), e.What)
}

// Size is bytes in the largest binary unit that divides them, or bytes.
func Size(b int64) string {
	for _, u := range []struct {
		shift uint
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if b >= 1<<u.shift && b%(1<<u.shift) == 0 {
			return fmt.Sprintf("%d %s", b>>u.shift, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", b)
}

// File is an input open for reading, at most its cap. It has only Read
// and Close: an embedded *os.File's WriteTo would read past the cap.
type File struct {
	f    *os.File
	r    io.Reader
	read int64
	err  *TooLarge
}

// Open opens path, what of kind at most cap bytes: a regular file larger
// is refused here; anything else fails the read that passes the cap.
func Open(path, what string, cap int64) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	tl := &TooLarge{Path: path, What: what, Cap: cap}
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > cap {
		f.Close()
		return nil, tl
	}
	return &File{f: f, r: io.LimitReader(f, cap+1), err: tl}, nil
}

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// Read reads on, and fails with *TooLarge once past the cap.
func (f *File) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	f.read += int64(n)
	if f.read > f.err.Cap {
		return 0, f.err
	}
	return n, err
}

// ReadFile reads path whole, at most cap bytes.
func ReadFile(path, what string, cap int64) ([]byte, error) {
	f, err := Open(path, what, cap)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
