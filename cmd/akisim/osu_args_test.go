package main

import (
	"strconv"
	"strings"
	"testing"
)

// An OSU test typed as its users type it runs what `akisim osu` runs for
// the same benchmark and sizes: -m MIN:MAX doubles from MIN (not only
// powers of two), the joined short forms (-m4, -drocm) read the same.
func TestOSUArgsMapToTheWorkload(t *testing.T) {
	for _, c := range []struct{ osu, akisim []string }{
		{[]string{"osu_bw", "-m", "1:8", "-d", "rocm", "D", "D"}, []string{"osu", "-bench", "osu_bw", "-sizes", "1:8"}},
		{[]string{"osu_latency", "-m3:12", "D", "D", "-gcds", "0,2"}, []string{"osu", "-bench", "osu_latency", "-sizes", "3,6,12", "-gcds", "0,2"}},
		{[]string{"osu_allreduce", "-m", ":16", "-drocm", "-gcds", "0,1,2,3"}, []string{"osu", "-bench", "osu_allreduce", "-sizes", "1:16", "-gcds", "0,1,2,3"}},
	} {
		code, out, errs := akisim(t, append(c.osu, "-quiet")...)
		code2, want, errs2 := akisim(t, append(c.akisim, "-quiet")...)
		if code != 0 || code2 != 0 || out != want {
			t.Errorf("%v: exit %d %s\n%s\nwant (%v, exit %d %s)\n%s", c.osu, code, errs, out, c.akisim, code2, errs2, want)
		}
	}
}

// -x 0 times the first iteration, which opens the IPC handles, so a
// 1 MiB osu_latency is slower than with OSU's warm-up; -W changes osu_bw's
// window, which osu_mbw_mr prints in its header.
func TestOSUArgsChangeTheRun(t *testing.T) {
	value := func(args ...string) float64 {
		t.Helper()
		code, out, errs := akisim(t, append(args, "-quiet")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		v, err := strconv.ParseFloat(strings.Fields(lines[len(lines)-1])[1], 64)
		if err != nil {
			t.Fatalf("%v: last line %q", args, lines[len(lines)-1])
		}
		return v
	}
	warm := value("osu_latency", "-m", "1048576:1048576", "-i", "2", "D", "D")
	cold := value("osu_latency", "-m", "1048576:1048576", "-i", "2", "-x", "0", "D", "D")
	if warm >= cold {
		t.Errorf("osu_latency 1 MiB: %.2f us with the warm-up, %.2f without: want it slower without", warm, cold)
	}
	w64 := value("osu_bw", "-m", "8:8", "D", "D")
	w1 := value("osu_bw", "-m", "8:8", "-W", "1", "D", "D")
	if w64 == w1 {
		t.Errorf("osu_bw 8 B: %.2f MB/s with a window of 64 and of 1: -W changed nothing", w64)
	}
	_, out, _ := akisim(t, "osu_mbw_mr", "-m", "8:8", "-W", "16", "-gcds", "0,1,2,3", "D", "D", "-quiet")
	if !strings.Contains(out, "# [ pairs: 2 ] [ window size: 16 ]\n") {
		t.Errorf("osu_mbw_mr -W 16 on 4 GCDs: header\n%s\nwant pairs 2, window 16", out)
	}
}

// OSU flags akisim does not model, and bad values, exit 2 with one line
// naming the flag.
func TestOSUArgsBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"osu_bw", "-c", "D", "D"}, "osu_bw -c: not modelled by akisim (data validation"},
		{[]string{"osu_bw", "-f", "D", "D"}, "osu_bw -f: not modelled by akisim"},
		{[]string{"osu_bw", "--validation", "D", "D"}, "osu_bw --validation: not an OSU flag akisim models"},
		{[]string{"osu_bw", "-m", "0:8", "D", "D"}, "osu_bw -m 0:8: want [MIN:]MAX in bytes"},
		{[]string{"osu_bw", "-m", "16:8", "D", "D"}, "osu_bw -m 16:8: MIN is above MAX"},
		{[]string{"osu_bw", "-i", "0", "D", "D"}, "osu_bw -i 0: want a count 1.."},
		{[]string{"osu_bw", "-x", "-1", "D", "D"}, "osu_bw -x -1: want a count 0.."},
		{[]string{"osu_bw", "-i"}, "osu_bw -i: wants a value"},
		{[]string{"osu_latency", "-W", "4", "D", "D"}, "osu_latency -W: only osu_bw, osu_bibw and osu_mbw_mr keep a window"},
		{[]string{"osu_bw", "-d", "cuda", "D", "D"}, "osu_bw -d cuda: akisim models ROCm device buffers only"},
		{[]string{"osu_bw", "-T", "mpi_int", "D", "D"}, "osu_bw -T mpi_int: akisim runs MPI_CHAR only"},
		{[]string{"osu_bw", "D", "H"}, "osu_bw D H: akisim models device buffers only"},
		{[]string{"osu_bw", "D"}, "osu_bw D: want two buffer locations"},
		{[]string{"osu_bw", "-d", "rocm"}, "osu_bw: without D D its buffers are host memory"},
		{[]string{"osu_allreduce", "-m", "8"}, "osu_allreduce: without -d rocm its buffers are host memory"},
		{[]string{"osu_bw", "-sizes", "8", "D", "D"}, "osu_bw -sizes: the benchmark name and -m choose these"},
		{[]string{"osu_mbw_mr", "-gcds", "0,1,2", "D", "D"}, "-gcds: osu_mbw_mr pairs rank i with rank i+n/2 and needs an even number of GCDs, got 3"},
		{[]string{"osu_allreduce", "-d", "rocm"}, "osu_allreduce: give the rank count, -np N"},
		{[]string{"osu_allreduce", "-np", "16", "-d", "rocm"}, "-np 16: frontier-node has 8 GCDs"},
		{[]string{"osu_allreduce", "-np", "4", "-gcds", "0,1", "-d", "rocm"}, "-np 4 and -gcds 0,1: 2 GCDs for 4 ranks"},
		{[]string{"osu_allreduce", "-np", "x", "-d", "rocm"}, "osu_allreduce -np x: want a rank count"},
		{[]string{"osu_allreduce", "-n", "2", "-np", "2", "-d", "rocm"}, "osu_allreduce -np: the rank count given twice"},
		{[]string{"osu_allreduce", "-d", "rocm", "-n"}, "osu_allreduce -n: wants a rank count"},
		{[]string{"osu_bw", "-np", "3", "D", "D"}, "-np 3: osu_bw runs two ranks"},
	} {
		code, _, errs := akisim(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", c.args, code, errs, c.want)
		}
	}
}

// -np N and -n N put the ranks on the first N GCDs, as -gcds would, and
// the banner says where they ran; osu_bw's two ranks are said too.
func TestOSURankCount(t *testing.T) {
	for _, c := range []struct {
		osu    []string
		banner string
	}{
		{[]string{"osu_allreduce", "-np", "4", "-m", "8:8", "-d", "rocm"}, "# 4 ranks on GCDs 0-3 of frontier-node\n"},
		{[]string{"osu_allreduce", "-n=4", "-m", "8:8", "-d", "rocm"}, "# 4 ranks on GCDs 0-3 of frontier-node\n"},
		{[]string{"osu_allreduce", "-gcds", "0,1,2,3", "-m", "8:8", "-d", "rocm"}, "# 4 ranks on GCDs 0-3 of frontier-node\n"},
		{[]string{"osu_allreduce", "-np", "16", "-nodes", "2", "-m", "8:8", "-d", "rocm"}, "# 16 ranks on GCDs 0-15 of 2 frontier-node nodes\n"},
		{[]string{"osu_bw", "-m", "8:8", "D", "D"}, "# 2 ranks on GCDs 0,1 of frontier-node\n"},
		{[]string{"osu_latency", "-gcds", "0,8", "-nodes", "2", "-m", "8:8", "D", "D"}, "# 2 ranks on GCDs 0,8 of 2 frontier-node nodes\n"},
	} {
		code, out, errs := akisim(t, append(c.osu, "-quiet")...)
		if code != 0 || !strings.Contains(out, " v7.4\n"+c.banner) {
			t.Errorf("%v: exit %d %s\n%s\nwant the banner %q under the title", c.osu, code, errs, out, c.banner)
		}
	}
	_, np, _ := akisim(t, "osu_allreduce", "-np", "4", "-m", "8:8", "-d", "rocm", "-format", "csv")
	_, gcds, _ := akisim(t, "osu_allreduce", "-gcds", "0,1,2,3", "-m", "8:8", "-d", "rocm", "-format", "csv")
	if np != gcds || np == "" {
		t.Errorf("-np 4 rows\n%s\ndiffer from -gcds 0,1,2,3 rows\n%s", np, gcds)
	}
}
