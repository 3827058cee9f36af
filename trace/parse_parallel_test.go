package trace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/akisim/akisim/internal/limit"
)

// longTrace is a trace of n op lines with comments and blank lines among
// them, and a bad line at bad (0: none).
func longTrace(n, bad int) string {
	var b strings.Builder
	b.WriteString("\xef\xbb\xbf# a long trace\n")
	for i := 1; i <= n; i++ {
		switch {
		case i == bad:
			b.WriteString(`{"op":"malloc","bytes":1e9}` + "\n")
		case i%7 == 0:
			b.WriteString("\n# note\n")
		default:
			fmt.Fprintf(&b, `{"op":"kernel","name":"k%d","gcd":%d,"stream":1,"grid":256,"workgroup":64,"duration_ns":%d}`+"\n", i, i%8, i)
		}
	}
	return b.String()
}

// lineByLine parses a trace one line after another, the reference the
// batched parse must agree with.
func lineByLine(text, name string) ([]Op, error) {
	br := bufio.NewReader(strings.NewReader(text))
	var ops []Op
	for n := 1; ; n++ {
		line, err := readLine(br)
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			op, perr := parseLine(line)
			if perr != nil {
				perr.File, perr.Line = name, n
				return nil, perr
			}
			op.Line = n
			ops = append(ops, op)
		}
		if err == io.EOF {
			return ops, nil
		}
	}
}

// TestParallelParseAgrees: a long trace parsed on several goroutines gives
// what parsing line by line gives, ops and errors alike, whether the room
// expected for its ops is too small or enough.
func TestParallelParseAgrees(t *testing.T) {
	for _, bad := range []int{0, 5, 3*parseBatchLines + 17} {
		text := longTrace(5*parseBatchLines, bad)
		want, werr := lineByLine(text, "t.jsonl")
		for _, room := range []int{1, 6 * parseBatchLines} {
			got, gerr := parse(strings.NewReader(text), "t.jsonl", room)
			if fmt.Sprint(werr) != fmt.Sprint(gerr) {
				t.Errorf("bad line %d, room %d: errors %v and %v", bad, room, werr, gerr)
			}
			if !reflect.DeepEqual(want, got) {
				t.Errorf("bad line %d, room %d: %d ops line by line, %d batched, or they differ", bad, room, len(want), len(got))
			}
		}
		if bad == 0 && len(want) < 4*parseBatchLines {
			t.Errorf("only %d ops", len(want))
		}
	}
}

// Issue 21: a trace whose ops do not fit in the memory available is a
// resource limit found as it is read, not Go's out-of-memory death.
func TestParseOpsMemoryLimit(t *testing.T) {
	t.Setenv("AKISIM_MEMORY_BYTES", "10000000") // 10 MB: less than 64 Ki ops and their copy
	_, err := Parse(strings.NewReader(strings.Repeat(`{"op":"device_sync"}`+"\n", 1<<16+1)), "big.jsonl")
	var le *limit.Error
	if !errors.As(err, &le) || !strings.HasPrefix(err.Error(), "big.jsonl: a trace of 6553") {
		t.Errorf("error %v, want a resource limit naming the trace", err)
	}
}
