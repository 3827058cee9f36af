package main

import (
	"bufio"
	"fmt"
	"io"
	"testing"

	"github.com/akisim/akisim/internal/benchmeter"
)

// BenchmarkBarrier replays one mpi_barrier per rank (issue 43's report)
// through the command line (read, check, lower, simulate, rows as CSV)
// from 1,024 to 65,536 ranks, the most a trace may name (issue 43's
// target: 65,536 in under 60 s). Run one size per process for its
// maxrss-MB.
func BenchmarkBarrier(b *testing.B) {
	for _, ranks := range []int{1024, 4096, 16384, 65536} {
		b.Run(fmt.Sprint(ranks), func(b *testing.B) {
			path := writeTrace(b, "barrier.jsonl", func(w *bufio.Writer) {
				for r := range ranks {
					fmt.Fprintf(w, `{"op":"mpi_barrier","rank":%d}`+"\n", r)
				}
			})
			for b.Loop() {
				m := benchmeter.Start()
				if code := cli([]string{"-trace", path, "-format", "csv"}, io.Discard, io.Discard); code != 0 {
					b.Fatalf("exit %d", code)
				}
				m.Stop(b, 0, 0)
			}
		})
	}
}
