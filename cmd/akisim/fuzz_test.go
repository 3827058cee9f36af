package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/akisim/akisim/internal/limit"
)

// FuzzSweepPointArgs reads sweep command lines (one argument a line)
// without running a point: an accepted one's first point's command line
// passes akisim's own parse or is refused as bad input (package sweep's
// FuzzSweepArgs checks the points themselves).
func FuzzSweepPointArgs(f *testing.F) {
	os.Setenv("AKISIM_MEMORY_BYTES", strconv.Itoa(16<<20)) // a product of a million points is refused, not listed
	f.Add("-set\nxgmi.bundle[*].lanes=1,2\n-workload\np2p\n-cases\nlatency")
	f.Add("-config\nlumi-node.toml\nrccl\n-sizes\n1024,x")
	f.Add("-env\nHSA_ENABLE_SDMA=0,1\n-trace\nt.jsonl\n-format\ngbench")
	f.Fuzz(func(t *testing.T, line string) {
		args := append(strings.Split(line, "\n"), "-outdir", filepath.Join(t.TempDir(), "D"))
		s, err := newSweep(args, io.Discard)
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		if err != nil {
			wantBadInput(t, err)
			return
		}
		if ps := s.Points(); len(ps) > 0 {
			_, err := parse(append(append([]string{}, ps[0].Args...), "-outdir", s.PointDir(ps[0])), io.Discard)
			if err != nil && !errors.Is(err, flag.ErrHelp) {
				wantBadInput(t, err)
			}
		}
	})
}

// wantBadInput fails unless err is bad input (exit 2) or a resource
// limit (exit 4), in one line.
func wantBadInput(t *testing.T, err error) {
	t.Helper()
	var ue *usageError
	var le *limit.Error
	if !errors.As(err, &ue) && !errors.As(err, &le) {
		t.Fatalf("error %T: %v", err, err)
	}
	if strings.Contains(err.Error(), "\n") && !strings.Contains(err.Error(), "\\n") {
		t.Fatalf("error of more than one line: %q", err)
	}
}

// FuzzPlot runs akisim plot on a results file and filter flags: it
// draws the figure (into a temporary folder) or exits 2 with one line;
// never another status, a panic or a hang.
func FuzzPlot(f *testing.F) {
	head := "workload,case,src,dst,bytes,metric,value,unit\n"
	for _, seed := range []struct {
		csv, kind, cs, src, dst, metric, x, where string
		bytes                                     int64
		outdir                                    bool
	}{
		{csv: head + "p2p,unidirectional,gcd0,gcd1,1000,bandwidth,50.5,GB/s\np2p,unidirectional,gcd1,gcd0,1000,bandwidth,49,GB/s\n"},
		{csv: head + "commscope,h2d,numa0,gcd0,1024,bandwidth,10,GB/s\ncommscope,h2d,numa0,gcd0,2048,bandwidth,20,GB/s\n", kind: "size"},
		{csv: "k," + head + "1,p2p,u,gcd0,gcd1,8,bandwidth,1,GB/s\n2,p2p,u,gcd0,gcd1,8,bandwidth,2,GB/s\n", kind: "sweep", x: "k", where: "k=1"},
		{csv: head + "x,a,gcd0,gcd1,1,bandwidth,1e308,GB/s\nx,a,gcd0,gcd1,2,bandwidth,-1e308,GB/s\n"},
		{csv: head + "trace,line3:sync,,,0,return,9,us\n", bytes: 0, outdir: true}, // found: -outdir listed a matrix it could not draw, exit 1
		{csv: head + "p2p,l,gcd0,gcd1,4,latency,1,us\n", kind: "matrix", cs: "l", src: "gcd0", dst: "gcd1,gcd2", metric: "latency", bytes: 4},
	} {
		f.Add([]byte(seed.csv), seed.kind, seed.cs, seed.src, seed.dst, seed.metric, seed.x, seed.where, seed.bytes, seed.outdir)
	}
	f.Fuzz(func(t *testing.T, csv []byte, kind, cs, src, dst, metric, x, where string, size int64, outdir bool) {
		dir := t.TempDir()
		in := filepath.Join(dir, "results.csv")
		if err := os.WriteFile(in, csv, 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"plot", in}
		if outdir {
			args = append(args, "-outdir", filepath.Join(dir, "figs"))
		} else {
			args = append(args, "-o", filepath.Join(dir, "f.svg"), "-bytes", strconv.FormatInt(size, 10))
		}
		for _, fl := range []struct{ name, v string }{{"kind", kind}, {"case", cs}, {"src", src}, {"dst", dst}, {"metric", metric}, {"x", x}, {"where", where}} {
			if fl.v != "" {
				args = append(args, "-"+fl.name, fl.v)
			}
		}
		var out, errb bytes.Buffer
		code := cli(args, &out, &errb)
		switch {
		case code == 2:
			if out.Len() != 0 || strings.Count(errb.String(), "\n") != 1 {
				t.Fatalf("exit 2 with stdout %q, stderr %q; want one line on stderr", out.String(), errb.String())
			}
		case code != 0:
			t.Fatalf("exit %d: %s", code, errb.String())
		}
	})
}
