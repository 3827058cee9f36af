package main

import (
	"strings"
	"testing"
)

// Issue 21: -h and -help on every command print its usage on stderr and
// exit 0 (import, compare and sweep exited 2, plot 1), with nothing run.
func TestHelpExitsZero(t *testing.T) {
	commands := [][]string{{}, {"run"}, {"validate"}, {"configs"}, {"routes"}, {"import"}, {"import", "rocprof"},
		{"compare"}, {"compare", "gem5"}, {"sweep"}, {"sweep", "-outdir", "x"}, {"plot"}, {"plot", "x"},
		{"p2p"}, {"commscope"}, {"stream"}, {"osu"}, {"rccl"}, {"halo"}, {"transferbench"}}
	for _, c := range commands {
		for _, h := range []string{"-h", "-help", "--help"} {
			args := append(append([]string{}, c...), h)
			code, stdout, stderr := akisim(t, args...)
			if code != 0 || stdout != "" || !strings.Contains(strings.ToLower(stderr), "usage") {
				t.Errorf("akisim %s: exit %d, stdout %q, stderr %.80q: want 0, nothing on stdout and the usage on stderr",
					strings.Join(args, " "), code, stdout, stderr)
			}
		}
	}
}
