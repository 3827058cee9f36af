package main

import (
	"os/exec"
	"strings"
	"testing"
)

// Under an address-space limit (ulimit -v, as HPC login nodes and batch
// systems set) akisim starts and runs: nothing reserves address space it
// may not take. What does not fit under the limit is a resource limit
// (exit 4, one line naming ulimit -v) found before it is allocated.
func TestAddressSpaceLimit(t *testing.T) {
	bin := binary(t)
	under := func(kb string, args ...string) result {
		t.Helper()
		cmd := exec.Command("sh", append([]string{"-c", `ulimit -v "$0" && exec "$@"`, kb, bin}, args...)...)
		return exeCmd(t, cmd, t.TempDir(), nil, nil)
	}
	if r := under("4000000", "-version"); r.code != 0 || !strings.HasPrefix(r.stdout, "akisim ") {
		t.Errorf("ulimit -v 4000000, -version: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
	if r := under("4000000", "-config", "frontier-node.toml", "-cases", "latency", "-format", "csv"); r.code != 0 || strings.Count(r.stdout, "\n") != 1+64 {
		t.Errorf("ulimit -v 4000000, the p2p latencies: exit %d, %d lines, stderr %q", r.code, strings.Count(r.stdout, "\n"), r.stderr)
	}
	r := under("4000000", "halo", "-bench", "exchange", "-procs", "512")
	oneLine(t, r, 4, "of address space the limit of ulimit -v (RLIMIT_AS) leaves; raise ulimit -v")
}
