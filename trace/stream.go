package trace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"sync/atomic"
)

// A long trace need not be held whole: a Stream parses and checks it on
// the other cores while the run takes its ops a chunk at a time. Only
// traces whose checks need nothing from later lines stream: MPI and RCCL
// calls are expanded by their libraries over the whole trace, and a flag
// wait looks ahead for its setter, so those traces are read whole.

// Stream is a trace file parsed and checked a chunk at a time, in order.
type Stream struct {
	ranks []int
	out   chan streamChunk
	stop  func()
	file  *os.File
	total int64        // the trace's ops, counted when it was scanned
	taken atomic.Int64 // the ops Next handed on
}

type streamChunk struct {
	ops []Op
	err error
}

// wholeOnly are byte strings of a line that may need the whole trace:
// MPI and RCCL calls, flags, setenv (applied to the config before the
// run) and \u escapes, which could spell any of them. A name that merely
// contains one only costs the trace its streaming.
var wholeOnly = [][]byte{[]byte("mpi_"), []byte("rccl_"), []byte("flag"), []byte("setenv"), []byte(`\u`)}

// OpenStream reads the trace file at path once to see whether it can
// stream and which ranks it names; nil, nil when it cannot stream (read
// it whole, ReadFile). Checks run against n and errors name the file as
// path, as ReadFile and Check do.
func OpenStream(path string, n Limits) (*Stream, error) { return OpenStreamAs(path, path, n) }

// OpenStreamAs is OpenStream of the file at read, its errors naming it
// path (a trace Spool copied).
func OpenStreamAs(read, path string, n Limits) (*Stream, error) {
	ranks, total, ok, err := scanStream(read)
	if err != nil || !ok {
		return nil, err
	}
	f, err := os.Open(read)
	if err != nil {
		return nil, err
	}
	batches, stop := parseBatches(f, path)
	s := &Stream{ranks: ranks, out: make(chan streamChunk, 4), stop: stop, file: f, total: total}
	c := newChecker(n, map[string][]int{}, map[string]bool{}, ranks) // no flags: nothing looked ahead for
	go func() {
		defer close(s.out)
		for b := range batches {
			if b.err != nil {
				s.out <- streamChunk{err: b.err}
				return
			}
			if e := c.ops(b.ops, 0, path); e != nil {
				s.out <- streamChunk{err: e}
				return
			}
			s.out <- streamChunk{ops: b.ops}
		}
		if err := c.finish(path); err != nil {
			s.out <- streamChunk{err: err}
		}
	}()
	return s, nil
}

// Ranks is the ranks (host processes) the trace names, ascending.
func (s *Stream) Ranks() []int { return s.ranks }

// Next is the next chunk of checked ops: every chunk but the last has
// the same length; nil, nil at the end.
func (s *Stream) Next() ([]Op, error) {
	c, ok := <-s.out
	if !ok {
		return nil, nil
	}
	s.taken.Add(int64(len(c.ops)))
	return c.ops, c.err
}

// Progress is how many ops the stream has handed on, of all it holds: a
// long replay's progress (safe to ask from any goroutine).
func (s *Stream) Progress() (taken, total int64) { return s.taken.Load(), s.total }

// Close stops the parse and closes the file.
func (s *Stream) Close() {
	s.stop()
	go func() { // the checker may be waiting to hand on a chunk
		for range s.out {
		}
	}()
	s.file.Close()
}

// scanStream reads the file once: whether it can stream, the ranks its
// lines name (a line without a rank is rank 0's) and how many ops it has.
func scanStream(path string) (ranks []int, ops int64, ok bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, false, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, 0, false, nil // a pipe is read once, whole
	}
	br := bufio.NewReaderSize(f, 1<<20)
	seen := map[int]bool{}
	for n := 1; ; n++ {
		line, err := readLine(br)
		if err != nil && err != io.EOF {
			if errors.Is(err, errLineTooLong) {
				return nil, 0, false, nil // the whole read reports it at its line
			}
			return nil, 0, false, err
		}
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			for _, w := range wholeOnly {
				if bytes.Contains(t, w) {
					return nil, 0, false, nil
				}
			}
			r, ok := rankOf(t)
			if !ok {
				return nil, 0, false, nil // the whole read words what is wrong
			}
			seen[r] = true
			ops++
		}
		if err == io.EOF {
			break
		}
	}
	for r := range seen {
		ranks = append(ranks, r)
	}
	sort.Ints(ranks)
	return ranks, ops, true, nil
}

// rankOf is the rank a line names: the non-negative integer after its one
// "rank" key, 0 without one; not ok for anything else.
func rankOf(line []byte) (int, bool) {
	key := []byte(`"rank"`)
	k := bytes.Index(line, key)
	if k < 0 {
		return 0, true
	}
	rest := line[k+len(key):]
	if bytes.Contains(rest, key) {
		return 0, false
	}
	rest = bytes.TrimLeft(rest, " \t")
	if len(rest) == 0 || rest[0] != ':' {
		return 0, false
	}
	rest = bytes.TrimLeft(rest[1:], " \t")
	r, digits := 0, 0
	for ; digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9'; digits++ {
		if r > 1<<30 {
			return 0, false
		}
		r = 10*r + int(rest[digits]-'0')
	}
	if digits == 0 || digits < len(rest) && rest[digits] != ',' && rest[digits] != '}' && rest[digits] != ' ' && rest[digits] != '\t' {
		return 0, false
	}
	return r, true
}

// Spool makes a trace that comes through a pipe (or a socket; e.g.
// -trace /dev/stdin) readable twice, as a stream is (once to see whether
// it can stream, then a chunk at a time): it copies it, at most
// MaxFileBytes, into a new temporary file in dir (os.TempDir when empty)
// and returns that file's path, which the caller removes. Anything else
// (a regular file, a directory or device, whose errors ReadFile words) is
// read where it is: path itself; so is a pipe when no temporary file can
// be made, read once, whole.
func Spool(path, dir string) (string, error) {
	in, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer in.Close()
	if st, err := in.Stat(); err != nil || st.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return path, nil
	}
	out, err := os.CreateTemp(dir, "akisim-trace-*.jsonl")
	if err != nil {
		return path, nil
	}
	n, err := io.Copy(out, io.LimitReader(in, MaxFileBytes+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		err = &Error{File: path, Msg: "copying it into a temporary file: " + err.Error()}
	case n > MaxFileBytes:
		err = &Error{File: path, Msg: fmt.Sprintf("larger than %d MiB (the limit for a trace)", MaxFileBytes>>20)}
	}
	if err != nil {
		os.Remove(out.Name())
		return "", err
	}
	return out.Name(), nil
}
