package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/run"
)

// -format text of the osu workload is OSU 7.4's own output and nothing
// else: its empty line, title, datatype and header lines, then one line
// per size holding the simulated row in MB/s.
func TestOSUText(t *testing.T) {
	var res *run.Result
	saved := simulate
	simulate = func(c *config.Node, rs []job.Run, opts ...run.Option) (*run.Result, error) {
		r, err := saved(c, rs, opts...)
		res = r
		return r, err
	}
	t.Cleanup(func() { simulate = saved })

	code, out, errs := akisim(t, "osu", "-sizes", "1:4", "-format", "text")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := "\n# OSU MPI-ROCM Bandwidth Test v7.4\n# Datatype: MPI_CHAR.\n# Size      Bandwidth (MB/s)\n"
	if !strings.HasPrefix(out, want) {
		t.Fatalf("output does not start with OSU's title lines\n%s", out)
	}
	if res == nil || len(res.Rows) != 3 {
		t.Fatalf("want 3 simulated rows, got %v", res)
	}
	for i, r := range res.Rows {
		if r.Bytes != 1<<i || r.Unit != "GB/s" {
			t.Fatalf("row %d: %+v", i, r)
		}
		want += fmt.Sprintf("%-10d%18.2f\n", r.Bytes, r.Value*1e3)
	}
	if out != want {
		t.Errorf("output\n%q\nwant\n%q", out, want)
	}
}
