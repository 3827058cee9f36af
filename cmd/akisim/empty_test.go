package main

import (
	"strings"
	"testing"
)

// Issue 21: an empty trace and one of comments and blank lines run nothing
// and exit 0, as /dev/null does (they exited 1: "the host threads
// stopped"); their rows are the same: none.
func TestEmptyTraceRunsNothing(t *testing.T) {
	_, want, _ := akisim(t, "-trace", "/dev/null", "-format", "csv")
	for _, text := range []string{"", "# only a comment\n", "\n\n# two\n\n# comments\n"} {
		code, stdout, stderr := akisim(t, "-trace", traceFile(t, text), "-format", "csv")
		if code != 0 || stdout != want || stderr != "" && !strings.HasPrefix(stderr, "akisim: trace") {
			t.Errorf("trace %q: exit %d, stdout %q, stderr %q; want 0 and /dev/null's %q", text, code, stdout, stderr, want)
		}
	}
}
