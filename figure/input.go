package figure

import (
	"bytes"
	"fmt"
	"io"
)

// What a results file may hold: a figure holds every row in memory (a
// few times the file's size) and draws values on float64 axes.
const (
	// MaxFileBytes is the largest results file read; larger is bad input.
	MaxFileBytes = 256 << 20
	// MaxLineBytes is the longest line: a row is under a hundred bytes,
	// a sweep's keys add their values. A file without line ends
	// (/dev/zero) stops here.
	MaxLineBytes = 1 << 20
	// MaxValue bounds a value's magnitude, as int64 bounds bytes: two
	// values differ by a finite float64, so an axis's range and ticks
	// are finite.
	MaxValue = 1 << 63
	// MaxEnds is the most sources or destinations a heat map has.
	MaxEnds = 1024
)

// capReader reads at most MaxFileBytes, in lines of at most MaxLineBytes.
type capReader struct {
	r       io.Reader
	file    string
	read    int64 // bytes so far
	line    int   // the line being read, from 1
	lineLen int   // its bytes so far
	err     *capError
}

// capError is input past a cap; its message is whole (file and line).
type capError struct{ msg string }

func (e *capError) Error() string { return e.msg }

func (c *capReader) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.r.Read(p)
	if c.read += int64(n); c.read > MaxFileBytes {
		c.err = &capError{fmt.Sprintf("%s: larger than %d MiB, the most akisim plot reads; plot a part of it (rows of one workload or case)", c.file, MaxFileBytes>>20)}
		return 0, c.err
	}
	if !c.lines(p[:n]) {
		c.err = &capError{fmt.Sprintf("%s:%d: a line longer than %d MiB, the most a results line may be", c.file, c.line, MaxLineBytes>>20)}
		return 0, c.err
	}
	return n, err
}

// lines counts the lines in b and says whether each is within
// MaxLineBytes; at false, c.line is the long one.
func (c *capReader) lines(b []byte) bool {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			c.lineLen += len(b)
			return c.lineLen <= MaxLineBytes
		}
		if c.lineLen+i > MaxLineBytes {
			return false
		}
		if len(b) <= MaxLineBytes { // no whole line in b can be too long: count them at once
			last := bytes.LastIndexByte(b, '\n')
			c.line += bytes.Count(b, []byte{'\n'})
			c.lineLen = len(b) - last - 1
			return true
		}
		c.line, c.lineLen, b = c.line+1, 0, b[i+1:]
	}
	return true
}
