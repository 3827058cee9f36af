package trace

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
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

// TestParallelParseAgrees: a long trace parsed on several goroutines gives
// what parsing line by line gives, ops and errors alike.
func TestParallelParseAgrees(t *testing.T) {
	for _, bad := range []int{0, 5, 3*parseBatchLines + 17} {
		text := longTrace(5*parseBatchLines, bad)
		want, werr := parse(strings.NewReader(text), "t.jsonl", 1)
		got, gerr := parseParallel(strings.NewReader(text), "t.jsonl", 1)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Errorf("bad line %d: errors %v and %v", bad, werr, gerr)
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("bad line %d: %d ops line by line, %d in parallel, or they differ", bad, len(want), len(got))
		}
		if bad == 0 && len(got) < 4*parseBatchLines {
			t.Errorf("only %d ops", len(got))
		}
	}
}
