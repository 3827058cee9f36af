package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/akisim/akisim/internal/benchmeter"
)

// writeLongTrace writes a trace of n operations such as an imported
// profile holds: host time, kernels held at their recorded durations and
// 64 KiB copies on four streams of two GCDs, a device synchronise every
// hundred rounds.
func writeLongTrace(tb testing.TB, n int) string {
	return writeTrace(tb, "long.jsonl", func(w *bufio.Writer) {
		fmt.Fprintln(w, `{"op":"malloc","buf":"a","gcd":0,"bytes":1048576}`)
		fmt.Fprintln(w, `{"op":"malloc","buf":"b","gcd":1,"bytes":1048576}`)
		fmt.Fprintln(w, `{"op":"host_malloc","buf":"h","numa":0,"bytes":1048576}`)
		for i, ops := 0, 3; ops < n; i++ {
			s := 1 + i%4
			fmt.Fprintln(w, `{"op":"host_compute","compute_ns":2000}`)
			fmt.Fprintf(w, `{"op":"kernel","name":"k%d","gcd":%d,"stream":%d,"grid":65536,"workgroup":256,"duration_ns":20000}`+"\n", i%50, i%2, s)
			fmt.Fprintf(w, `{"op":"memcpy_async","src":"h","dst":"a","bytes":65536,"stream":%d}`+"\n", s)
			ops += 3
			if i%100 == 99 && ops < n {
				fmt.Fprintln(w, `{"op":"device_sync"}`)
				ops++
			}
		}
	})
}

// writeTrace writes the trace file name in a temporary folder, its lines
// written by write, and returns its path.
func writeTrace(tb testing.TB, name string, write func(w *bufio.Writer)) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriter(f)
	write(w)
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkReplay1M replays a trace of a million operations through the
// command line (read, check, simulate, rows as CSV) and reports the peak
// heap in use (sampled every 10 ms) beside the time.
func BenchmarkReplay1M(b *testing.B) {
	path := writeLongTrace(b, 1_000_000)
	b.ResetTimer() // writing the trace is not the replay
	for range b.N {
		runtime.GC()
		var peak atomic.Uint64
		done := make(chan bool)
		go func() {
			var ms runtime.MemStats
			for {
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak.Load() {
					peak.Store(ms.HeapInuse)
				}
				select {
				case <-done:
					return
				case <-time.After(10 * time.Millisecond):
				}
			}
		}()
		if code := cli([]string{"-trace", path, "-format", "csv"}, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
		close(done)
		b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
	}
}

// BenchmarkValidate is `akisim validate` whole, in the process (issue 23's
// target: at most 30 s). Its events and simulated time are not counted:
// only wall time and memory are reported.
func BenchmarkValidate(b *testing.B) {
	b.Chdir("../..")
	for b.Loop() {
		m := benchmeter.Start()
		if code := cli([]string{"validate"}, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
		m.Stop(b, 0, 0)
	}
}

// BenchmarkSweepStart is what a sweep does before its first point runs
// (its points made, then checked: flags, config, paths, then the points
// left to run listed) for 10^4 and
// 10^6 points, two axes of 100 or 1000 values (target: a sweep of 10^6
// points starts within 10 s).
func BenchmarkSweepStart(b *testing.B) {
	for _, per := range []int{100, 1000} {
		b.Run(fmt.Sprintf("points=%d", per*per), func(b *testing.B) {
			vals := make([]string, per)
			for i := range vals {
				vals[i] = strconv.Itoa(i + 1)
			}
			v := strings.Join(vals, ",")
			args := []string{"-set", "host.cores=" + v, "-set", "gcd.compute_units=" + v, "-trace", "/dev/null", "-outdir", filepath.Join(b.TempDir(), "D")}
			for b.Loop() {
				m := benchmeter.Start()
				s, err := newSweep(args, io.Discard)
				if err == nil {
					err = s.Check()
				}
				if err == nil && len(s.Todo()) != len(s.Points()) {
					err = fmt.Errorf("a fresh sweep has points done")
				}
				m.Stop(b, 0, 0)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(len(s.Points())), "points")
			}
		})
	}
}
