package main

import (
	"strings"
	"testing"
)

// akisim -config mi300a-node.toml prints p2pBandwidthLatencyTest's
// matrices over the node's 4 APUs.
func TestAPUNodePrintsFourByFour(t *testing.T) {
	code, out, errs := akisim(t, "-config", "mi300a-node.toml", "-cases", "latency")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	i := strings.Index(out, "   GPU     0      1      2      3 \n")
	if i < 0 {
		t.Fatalf("no 4-column latency matrix:\n%s", out)
	}
	rows := strings.Split(strings.TrimSpace(out[i:]), "\n")[1:]
	if len(rows) != 4 || !strings.HasPrefix(strings.TrimSpace(rows[3]), "3 ") {
		t.Errorf("matrix rows %q, want GPUs 0..3", rows)
	}
}
