package main

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/run"
)

// liveRuns are a benchmark command line, a regular expression of its
// size lines, a line of its head, and the runs (sizes) it makes.
var liveRuns = []struct {
	args []string
	line *regexp.Regexp
	head string
	runs int
}{
	{[]string{"all_reduce_perf", "-b", "8", "-e", "64K", "-f", "8", "-g", "8"}, regexp.MustCompile(`(?m)^ +\d+ +\d+ +float `), "# Using devices", 5}, // 8 B to 32 KiB by 8
	{[]string{"osu_bw", "-m", "1:8", "-d", "rocm", "D", "D"}, regexp.MustCompile(`(?m)^\d+ +\d+\.\d\d$`), "# Datatype: MPI_CHAR.", 4},
}

// rccl-tests and OSU print each size's line as that size finishes,
// smallest first, as the tools do, the head with the first; nothing
// before the first size has run, so a run failing there prints nothing.
func TestLinesComeAsSizesFinish(t *testing.T) {
	for _, c := range liveRuns {
		var log []string // what stdout held at each step of the run
		var stdout bytes.Buffer
		lines := func() int { return len(c.line.FindAllString(stdout.String(), -1)) }
		saved := simulate
		simulate = func(n *config.Node, rs []job.Run, opts ...run.Option) (*run.Result, error) {
			log = append(log, fmt.Sprintf("start: head %v, %d size lines", strings.Contains(stdout.String(), c.head), lines()))
			opts = append(opts, run.WithProgress(func(done, total int, _ float64) {
				log = append(log, fmt.Sprintf("run %d done: head %v, %d size lines", done, strings.Contains(stdout.String(), c.head), lines()))
			}))
			return saved(n, rs, opts...)
		}
		t.Chdir("../..")
		code := cli(append(c.args, "-quiet"), &stdout, &bytes.Buffer{})
		simulate = saved
		t.Chdir("cmd/akisim")
		if code != 0 {
			t.Fatalf("%v: exit %d", c.args, code)
		}
		want := []string{"start: head false, 0 size lines"}
		for k := 1; k <= c.runs; k++ {
			want = append(want, fmt.Sprintf("run %d done: head true, %d size lines", k, k))
		}
		if strings.Join(log, "\n") != strings.Join(want, "\n") {
			t.Errorf("%v as the run went:\n%s\nwant\n%s", c.args, strings.Join(log, "\n"), strings.Join(want, "\n"))
		}
	}
	// the whole is what the run prints held to its end (the goldens' layout)
	_, out, _ := akisim(t, "all_reduce_perf", "-b", "8", "-e", "64K", "-f", "8", "-g", "8", "-quiet")
	if !regexp.MustCompile(`\n           8             2     float .*\n(.*\n){4}# Out of bounds values : 0 OK\n# Avg bus bandwidth    : \S+ \n#\n\n$`).MatchString(out) {
		t.Errorf("rccl-tests output:\n%s", out)
	}
}
