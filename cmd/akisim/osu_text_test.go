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
	// the ranks and the run's setup under the title, as "#" lines
	c, err := config.Load("../../configs/frontier-node.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "\n# OSU MPI-ROCM Bandwidth Test v7.4\n# 2 ranks on GCDs 0,1 of frontier-node\n# config frontier-node (configs/frontier-node.toml)\n# overrides none\n" +
		fmt.Sprintf("# stack ROCm %s, Cray MPICH %s, RCCL %s\n", c.Stack.ROCm, c.Stack.CrayMPICH, c.Stack.RCCL) +
		"# " + versionLine() + "\n# Datatype: MPI_CHAR.\n# Size      Bandwidth (MB/s)\n"
	if !strings.HasPrefix(out, want) {
		t.Fatalf("output does not start with OSU's title lines and the run's setup\n%s", out)
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
