package main

import (
	"strconv"
	"strings"
	"testing"
)

// An rccl-tests flag akisim does not model, or a bad value, exits 2 with
// one line naming the flag, before anything is simulated.
func TestRCCLTestsArgsRejected(t *testing.T) {
	noSimulation(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"all_reduce_perf", "-G", "1"}, "all_reduce_perf: -G 1: not modelled: HIP graph launches"},
		{[]string{"all_reduce_perf", "-m", "4"}, "all_reduce_perf: -m 4: not modelled"},
		{[]string{"all_reduce_perf", "-t", "2", "-g", "2"}, "all_reduce_perf: -t 2 with -g 2: not modelled"},
		{[]string{"all_reduce_perf", "-t", "9"}, "-t 9: a node has 8 GCDs"},
		{[]string{"all_reduce_perf", "-t", "2", "-nodes", "2"}, "-t 2: not modelled on 2 nodes"},
		// counts below 1 and values outside rccl-tests' own ranges are no values, not unmodelled ones
		{[]string{"all_reduce_perf", "-t", "0"}, "all_reduce_perf: -t 0: want a whole number of at least 1"},
		{[]string{"all_reduce_perf", "-m", "-1"}, "all_reduce_perf: -m -1: want a whole number of at least 1"},
		{[]string{"all_reduce_perf", "-s", "0"}, "all_reduce_perf: -s 0: want a whole number of at least 1"},
		{[]string{"all_reduce_perf", "-a", "-1"}, "all_reduce_perf: -a -1: want a whole number 0..3"},
		{[]string{"all_reduce_perf", "-a", "4"}, "all_reduce_perf: -a 4: want a whole number 0..3"},
		{[]string{"all_reduce_perf", "-p", "2"}, "all_reduce_perf: -p 2: want a whole number 0..1"},
		{[]string{"all_reduce_perf", "-T", "-5"}, "all_reduce_perf: -T -5: want a whole number 0..2147483647"},
		{[]string{"all_reduce_perf", "-x", "3"}, "all_reduce_perf: -x: not an rccl-tests option"},
		{[]string{"all_reduce_perf", "--bogus=1"}, "all_reduce_perf: --bogus=1: not an rccl-tests option"},
		{[]string{"all_reduce_perf", "-b"}, "all_reduce_perf: -b: wants a value"},
		{[]string{"all_reduce_perf", "-b", "8X"}, `all_reduce_perf: -b 8X: want a size in bytes`},
		{[]string{"all_reduce_perf", "-b", "1G", "-e", "8"}, "all_reduce_perf: -b 1073741824 -e 8: want 1 <= minbytes <= maxbytes"},
		{[]string{"all_reduce_perf", "-b", "1", "-e", "1G", "-i", "1"}, "sizes, at most 4096 in one run"},
		{[]string{"all_reduce_perf", "-o", "mulsum"}, "all_reduce_perf: -o mulsum: want one of sum, prod, max, min, avg"},
		{[]string{"all_reduce_perf", "-g", "9"}, "-g 9: a node has 8 GCDs"},
		{[]string{"all_reduce_perf", "-g", "0"}, "all_reduce_perf: -g 0: want a whole number of at least 1"},
		{[]string{"all_reduce_perf", "-d", "fp8_e4m3"}, `-datatype: unknown type "fp8_e4m3"`},
		{[]string{"broadcast_perf", "-g", "2", "-r", "2"}, "-root: rank 2 is outside the 2 GCDs"},
		{[]string{"all_reduce_perf", "-Y", "fine"}, "all_reduce_perf: -Y fine: not modelled"},
	} {
		code, out, errs := akisim(t, tc.args...)
		if code != 2 || strings.Count(strings.TrimRight(errs, "\n"), "\n") != 0 || !strings.Contains(errs, tc.want) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2, nothing, one line containing %q", tc.args, code, out, errs, tc.want)
		}
	}
}

// The sizes rccl-tests steps through: times -f, or plus -i, from -b to -e,
// with its K, M and G.
func TestRCCLTestsSizes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-b", "8", "-e", "64", "-f", "2"}, "8,16,32,64"},
		{[]string{"-b", "1K", "-e", "4k", "-i", "1024"}, "1024,2048,3072,4096"},
		{[]string{"--minbytes=1M", "--maxbytes", "10M", "--stepfactor=3"}, "1048576,3145728,9437184"},
		{[]string{"-b1G"}, "1073741824"}, // -e stays at its 32 MiB default: no size
		{nil, "33554432"},
	} {
		a := &rcclTestsParse{gpus: 1, minB: 32 << 20, maxB: 32 << 20, args: rcclTestsArgs{stepFactor: 1, stepBytes: 1 << 20}}
		for i := 0; i < len(tc.args); i++ {
			f, v, err := rcclTestsLookup(tc.args[i], tc.args, &i)
			if err == nil {
				err = f.set(a, v)
			}
			if err != nil {
				t.Fatalf("%v: %v", tc.args, err)
			}
		}
		got, err := a.sizes()
		if tc.want == "1073741824" {
			if err == nil {
				t.Errorf("%v: sizes %q, want an error (-b above the default -e)", tc.args, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%v: sizes %q, %v; want %q", tc.args, got, err, tc.want)
		}
	}
}

// `akisim all_reduce_perf -b 8 -e 16 -f 2 -g 2` runs what the rccl workload
// runs for those sizes and GCDs, under rccl-tests' header for those flags.
func TestRCCLTestsArgsRunAsWorkload(t *testing.T) {
	code, typed, errs := akisim(t, "all_reduce_perf", "-b", "8", "-e", "16", "-f", "2", "-g", "2", "-n", "2", "-w", "1", "-c", "0", "-quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, plain, errs := akisim(t, "rccl", "-sizes", "8,16", "-gcds", "0,1", "-iters", "2", "-warmup", "1", "-quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	header := "# nThread 1 nGpus 2 minBytes 8 maxBytes 16 step: 2(factor) warmup iters: 1 iters: 2 agg iters: 1 validation: 0 graph: 0\n"
	if !strings.HasPrefix(typed, header) {
		t.Errorf("header:\n%s\nwant it to start with\n%s", typed, header)
	}
	body := func(s string) string { _, b, _ := strings.Cut(s, "\n"); return b }
	if body(typed) != body(plain) {
		t.Errorf("the typed command's table differs from the workload's:\n%s\nagainst\n%s", typed, plain)
	}
}

// -t n -g 1 drives GCDs 0..n-1 from a thread each: the header counts n
// threads of one GPU, the table lists n devices, and a Broadcast whose
// root thread stops once its data is on its way reports less time than
// one thread waiting for every GCD.
func TestRCCLTestsArgsThreads(t *testing.T) {
	bcast := func(args ...string) (string, float64) {
		t.Helper()
		code, out, errs := akisim(t, append([]string{"broadcast_perf", "-b", "1M", "-e", "1M", "-n", "2", "-w", "1", "-c", "0"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) > 6 && f[0] == "1048576" {
				v, err := strconv.ParseFloat(f[5], 64)
				if err != nil {
					t.Fatalf("%v: time %q: %v", args, f[5], err)
				}
				return out, v
			}
		}
		t.Fatalf("%v: no 1 MiB row in\n%s", args, out)
		return "", 0
	}
	out, threads := bcast("-t", "4")
	if want := "# nThread 4 nGpus 1 minBytes 1048576"; !strings.HasPrefix(out, want) {
		t.Errorf("header:\n%s\nwant it to start with\n%s", out, want)
	}
	if n := strings.Count(out, "AMD Instinct MI250X"); n != 4 {
		t.Errorf("%d devices listed, want 4:\n%s", n, out)
	}
	if _, one := bcast("-g", "4"); threads >= one {
		t.Errorf("Broadcast on 4 GCDs: %.2f us a thread each, %.2f us from one thread; want the threads' mean below", threads, one)
	}
}

// The header's maxBytes is -e as given, as rccl-tests prints it, even
// where the sizes stop below it (8, 64 and then 512 > 100).
func TestRCCLTestsArgsHeaderMaxBytes(t *testing.T) {
	code, out, errs := akisim(t, "all_reduce_perf", "-b", "8", "-e", "100", "-f", "8", "-g", "2", "-n", "1", "-w", "0", "-quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if want := "# nThread 1 nGpus 2 minBytes 8 maxBytes 100 step: 8(factor)"; !strings.HasPrefix(out, want) {
		t.Errorf("header:\n%s\nwant it to start with\n%s", out, want)
	}
}

// -e is also how far rccl-tests shifts its timed iterations (startColl):
// 1 MiB on 8 GCDs shifted over 2 MiB (-f 4 stops there) finds its data
// outside the L2 every other iteration and takes longer than with -e 1M,
// where every iteration reuses one place.
func TestRCCLTestsArgsMaxBytesShifts(t *testing.T) {
	time := func(e string) float64 {
		t.Helper()
		code, out, errs := akisim(t, "all_reduce_perf", "-b", "1M", "-e", e, "-f", "4", "-g", "8", "-n", "4", "-w", "1", "-format", "csv")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Split(line, ","); len(f) == 8 && f[5] == "latency" {
				v, err := strconv.ParseFloat(f[len(f)-2], 64)
				if err == nil {
					return v
				}
			}
		}
		t.Fatalf("no out-of-place latency in\n%s", out)
		return 0
	}
	if one, shifted := time("1M"), time("2M"); shifted <= one {
		t.Errorf("1 MiB: %.2f us with -e 2M, %.2f us with -e 1M: want the shifted iterations slower", shifted, one)
	}
}

// -h prints the usage on stderr and exits 0 without a run.
func TestRCCLTestsArgsHelp(t *testing.T) {
	noSimulation(t)
	code, out, errs := akisim(t, "reduce_perf", "-h")
	if code != 0 || out != "" || !strings.Contains(errs, "usage: akisim reduce_perf") {
		t.Errorf("exit %d, stdout %q, stderr %q; want 0, nothing, the usage", code, out, errs)
	}
}
