package trace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"unsafe"

	"github.com/akisim/akisim/internal/limit"
)

// Traces parse on every core: one goroutine reads lines in batches,
// workers decode the batches, and the ops are kept in line order; the
// first error by line wins, as when parsing one line after another.

// parseBatchLines is the lines a worker decodes at once.
const parseBatchLines = 4096

// parseBatch is a run of lines and what they decode to.
type parseBatch struct {
	lines [][]byte
	nums  []int // each line's number
	ops   []Op
	err   *Error // the first bad line's error, or a read error after the lines
	done  chan struct{}
}

// parseBatches parses r on every core. The batches come out in line
// order, each once decoded; a batch with an error is the last. stop ends
// the parse early and returns once the reader is done with r.
func parseBatches(r io.Reader, name string) (batches <-chan *parseBatch, stop func()) {
	workers := runtime.GOMAXPROCS(0)
	todo := make(chan *parseBatch, 2*workers)
	inOrder := make(chan *parseBatch, 2*workers)
	decoded := make(chan *parseBatch, 2*workers)
	quit, readerDone := make(chan struct{}), make(chan struct{})
	for range workers {
		go func() {
			for b := range todo {
				b.decode(name)
			}
		}()
	}
	go func() { // batches wait in order for their decoding
		defer close(decoded)
		for b := range inOrder {
			<-b.done
			select {
			case decoded <- b:
			case <-quit:
				return
			}
			if b.err != nil {
				return
			}
		}
	}()
	go func() { // the reader
		defer close(readerDone)
		defer close(todo)
		defer close(inOrder)
		br := bufio.NewReader(r)
		b := &parseBatch{done: make(chan struct{})}
		send := func() bool {
			select {
			case inOrder <- b:
			case <-quit:
				return false
			}
			todo <- b
			b = &parseBatch{done: make(chan struct{})}
			return true
		}
		for n := 1; ; n++ {
			line, err := readLine(br)
			if err != nil && err != io.EOF {
				msg := "read: " + err.Error()
				if errors.Is(err, errLineTooLong) {
					msg = err.Error()
				}
				b.err = &Error{File: name, Line: n, Msg: msg} // after the batch's lines
				send()
				return
			}
			if n == 1 {
				line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")) // UTF-8 BOM
			}
			if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
				b.lines, b.nums = append(b.lines, line), append(b.nums, n)
			}
			if err == io.EOF {
				send()
				return
			}
			if len(b.lines) == parseBatchLines && !send() {
				return
			}
		}
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() { close(quit) })
		<-readerDone
	}
	return decoded, stop
}

// parse is Parse with room for capacity ops (the ops expected) before
// any is moved.
func parse(r io.Reader, name string, capacity int) ([]Op, error) {
	batches, stop := parseBatches(r, name)
	defer stop()
	// Ops are large: past the room expected they are gathered in chunks
	// and copied once at the end, not moved each time a slice doubles.
	ops := make([]Op, 0, max(1, capacity))
	var chunks [][]Op
	total := 0
	for b := range batches {
		if b.err != nil {
			return nil, b.err
		}
		if next := total + len(b.ops); next>>16 != total>>16 { // each 64 Ki ops: they and their copy at the end fit
			if err := limit.Memory(fmt.Sprintf("%s: a trace of %d ops and more", name, next), limit.Product(int64(next), 2*int64(unsafe.Sizeof(Op{})))); err != nil {
				return nil, err
			}
		}
		total += len(b.ops)
		if chunks == nil && len(ops)+len(b.ops) <= cap(ops) {
			ops = append(ops, b.ops...)
			continue
		}
		if chunks == nil {
			chunks = [][]Op{ops}
		}
		chunks = append(chunks, b.ops)
	}
	if chunks == nil {
		return ops, nil
	}
	all := make([]Op, 0, total)
	for _, c := range chunks {
		all = append(all, c...)
	}
	return all, nil
}

// decode parses the batch's lines, stopping at the first bad one (whose
// error replaces a read error after the lines).
func (b *parseBatch) decode(name string) {
	defer close(b.done)
	b.ops = make([]Op, 0, len(b.lines))
	for i, line := range b.lines {
		op, perr := parseLine(line)
		if perr != nil {
			perr.File, perr.Line = name, b.nums[i]
			b.err = perr
			return
		}
		op.Line = b.nums[i]
		b.ops = append(b.ops, op)
	}
	b.lines = nil
}
