package report

import (
	"bytes"
	"strings"
	"testing"
)

// User-supplied strings print as text, never as terminal controls.
func TestPrintable(t *testing.T) {
	for _, c := range []struct{ in, want, text string }{
		{"plain label → gcd1", "plain label → gcd1", "plain label → gcd1"},
		{"\x1b[2Jboom", `\x1b[2Jboom`, `\x1b[2Jboom`},
		{"a\nb\tc\rd", `a\nb\tc\rd`, "a\nb\tc\\rd"},
		{"bell\a del\x7f csi\u009b zw\u200b", `bell\a del\x7f csi\u009b zw\u200b`, `bell\a del\x7f csi\u009b zw\u200b`},
		{"bad \xff utf8", `bad \xff utf8`, `bad \xff utf8`},
	} {
		if got := Printable(c.in); got != c.want {
			t.Errorf("Printable(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := PrintableText(c.in); got != c.text {
			t.Errorf("PrintableText(%q) = %q, want %q", c.in, got, c.text)
		}
	}
}

// The text table escapes a label's controls and keeps one row per line.
func TestWriteTableEscapesLabels(t *testing.T) {
	var b bytes.Buffer
	rows := []Row{{Workload: "trace", Case: "evil\x1b]0;title\a\nfake row", Metric: "time", Value: 1, Unit: "us"}}
	if err := WriteTable(&b, rows); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.ContainsAny(out, "\x1b\a") || strings.Count(out, "\n") != 2 || !strings.Contains(out, `evil\x1b]0;title\a\nfake row`) {
		t.Errorf("table:\n%q", out)
	}
}
