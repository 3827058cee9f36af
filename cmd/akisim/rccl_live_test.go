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

// sizeLine is an rccl-tests line of one size's results.
var sizeLine = regexp.MustCompile(`(?m)^ +\d+ +\d+ +float `)

// rccl-tests prints each size's line as that size finishes, smallest
// first, as rccl-tests does, the head with the first; nothing before the
// first size has run, so a run failing there prints nothing.
func TestRCCLLinesComeAsSizesFinish(t *testing.T) {
	var log []string // what stdout held at each step of the run
	var stdout bytes.Buffer
	saved := simulate
	simulate = func(c *config.Node, rs []job.Run, opts ...run.Option) (*run.Result, error) {
		log = append(log, fmt.Sprintf("start: head %v, %d size lines", strings.Contains(stdout.String(), "# Using devices"), len(sizeLine.FindAllString(stdout.String(), -1))))
		opts = append(opts, run.WithProgress(func(done, total int, _ float64) {
			log = append(log, fmt.Sprintf("run %d done: %d size lines", done, len(sizeLine.FindAllString(stdout.String(), -1))))
		}))
		return saved(c, rs, opts...)
	}
	t.Cleanup(func() { simulate = saved })
	args := []string{"all_reduce_perf", "-b", "8", "-e", "64K", "-f", "8", "-g", "8", "-quiet"}
	t.Chdir("../..")
	if code := cli(args, &stdout, &bytes.Buffer{}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	want := []string{"start: head false, 0 size lines", "run 1 done: 1 size lines", "run 2 done: 2 size lines",
		"run 3 done: 3 size lines", "run 4 done: 4 size lines", "run 5 done: 5 size lines"} // 8 B to 32 KiB by 8
	if strings.Join(log, "\n") != strings.Join(want, "\n") {
		t.Errorf("as the run went:\n%s\nwant\n%s", strings.Join(log, "\n"), strings.Join(want, "\n"))
	}
	sizes := sizeLine.FindAllString(stdout.String(), -1)
	if len(sizes) != 5 || !strings.HasPrefix(strings.TrimSpace(sizes[0]), "8 ") ||
		!regexp.MustCompile(`\n# Avg bus bandwidth    : \S+ \n#\n\n$`).MatchString(stdout.String()) {
		t.Errorf("output:\n%s", stdout.String())
	}
}
