package sweep

import (
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/akisim/akisim/internal/limit"
	"github.com/akisim/akisim/internal/usage"
)

// FuzzSweepArgs reads sweep command lines (one argument a line) without
// running a point: an accepted one lists every point of its axes'
// product, in order, each with its values as its flags, and a refused one
// is bad input on one line.
func FuzzSweepArgs(f *testing.F) {
	os.Setenv("AKISIM_MEMORY_BYTES", strconv.Itoa(16<<20)) // a product of a million points is refused, not listed
	for _, seed := range []string{
		"-set\nxgmi.bundle[*].lanes=1,2,4\n-set\nrouting.sdma=widest,fewest\n-workload\np2p\n-cases\nunidirectional",
		"-set=host.gcd_numa=[3,3,1,1,0,0,2,2],[0,0,1,1,2,2,3,3]\n-env\nHSA_ENABLE_SDMA=0,1\n-trace\nt.jsonl",
		"-config\nfrontier-node.toml,lumi-node.toml\n-jobs\n2\n-quiet=false\nrccl\n-sizes\n1024",
		"-slurm\n-partition\ndebug\n-time=00:30:00\n-sbatch\n--qos=x\n-set\na={1,2},'3,4'",
		"-set\n gcd.compute_units = 1 , 2 \n-set\nhost.cores=1,1",
		"-env\nX=\n-outdir=",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := append(strings.Split(line, "\n"), "-outdir", filepath.Join(t.TempDir(), "D"))
		s, err := Parse(args, io.Discard)
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		if err != nil {
			wantBadInput(t, err)
			return
		}
		n := 1
		for _, ax := range s.axes {
			n *= len(ax.values)
			if ax.flag == "set" || ax.flag == "env" { // split at its commas outside brackets and quotes, nothing lost
				_, vals, _ := strings.Cut(given(args, ax), "=")
				items := splitValues(vals)
				for i := range items {
					items[i] = strings.TrimSpace(items[i])
				}
				if strings.Join(items, "\x00") != strings.Join(ax.values, "\x00") {
					t.Fatalf("-%s %s: values %q, from %q", ax.flag, ax.key, ax.values, vals)
				}
			}
		}
		if len(s.points) != n {
			t.Fatalf("%d points of a product of %d", len(s.points), n)
		}
		ids := map[string]string{}
		for i, p := range s.points {
			rest := i // point i is i in the axes' mixed radix, the first axis slowest
			for k := len(s.axes) - 1; k >= 0; k-- {
				ax := s.axes[k]
				if p.Values[k] != ax.values[rest%len(ax.values)] {
					t.Fatalf("point %d: %s=%s, want %s", i, ax.column, p.Values[k], ax.values[rest%len(ax.values)])
				}
				rest /= len(ax.values)
			}
			joined := strings.Join(p.Args, "\x00")
			for k, ax := range s.axes {
				flagArg := "-" + ax.flag + "\x00" + ax.key + "=" + p.Values[k]
				if ax.flag == "config" {
					flagArg = "-config\x00" + p.Values[k]
				}
				if !strings.Contains(joined, flagArg) {
					t.Fatalf("point %d: args %q lack %q", i, p.Args, flagArg)
				}
			}
			if prev, dup := ids[p.ID]; dup && prev != joined {
				t.Fatalf("points with args %q and %q share folder %s", prev, joined, p.ID)
			}
			ids[p.ID] = joined
		}
	})
}

// given is the value of the argument that made axis ax, read as
// Parse reads its flags: "-flag V", "-flag=V", "--flag V".
func given(args []string, ax axis) string {
	v := ""
	for i := 0; i < len(args); i++ {
		name, value, has := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if !strings.HasPrefix(args[i], "-") || !sweepFlags[name] || name == "quiet" || name == "slurm" {
			continue
		}
		if !has {
			if i++; i == len(args) {
				break
			}
			value = args[i]
		}
		if k, _, _ := strings.Cut(value, "="); name == ax.flag && k == ax.key {
			v = value
		}
	}
	return v
}

// wantBadInput fails unless err is bad input (exit 2) or a resource
// limit (exit 4), in one line.
func wantBadInput(t *testing.T, err error) {
	t.Helper()
	var ue *usage.Error
	var le *limit.Error
	if !errors.As(err, &ue) && !errors.As(err, &le) {
		t.Fatalf("error %T: %v", err, err)
	}
	if strings.Contains(err.Error(), "\n") && !strings.Contains(err.Error(), "\\n") {
		t.Fatalf("error of more than one line: %q", err)
	}
}
