package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/workloads"
)

// An OSU benchmark as its users type it: `akisim osu_bw -m 1:4194304 -i
// 100 -x 10 -d rocm D D`. OSU's own flags (OSU 7.4 osu_util.c
// process_options) that change what is simulated are mapped; the others
// are refused, each by name. akisim's own flags (-config, -gcds, -nodes,
// -env, -set, -format, -outdir, ...) may be given beside them.

// osuArgs are the OSU flags that change the simulation, and the rank
// count an MPI launcher would take (mpirun -np N, srun -n N).
type osuArgs struct {
	iters, warmup, window int
	itersSet, warmupSet   bool
	ranks                 int     // -np or -n; 0 when not given
	gcds                  []int   // where the ranks ran, for the banner (osuRuns)
	sizes                 []int64 // the message sizes, in run order (osuRuns)
}

// osuValueFlags are OSU's flags that take a value, short and long.
var osuValueFlags = map[string]string{
	"-m": "m", "--message-size": "m", "-i": "i", "--iterations": "i", "-x": "x", "--warmup": "x",
	"-W": "W", "--window-size": "W", "-d": "d", "--accelerator": "d", "-T": "T", "--type": "T",
}

// osuRefused are OSU's flags akisim does not model, with why.
var osuRefused = map[string]string{
	"c": "data validation: akisim moves no data to check", "f": "the full (min/max/iterations) columns are not printed",
	"G": "graphs", "P": "PAPI counters", "D": "derived datatypes", "I": "MPI sessions", "z": "tail latencies",
	"b": "one buffer per message (-b multiple)", "R": "the message-rate column switch", "V": "varied windows",
	"p": "a pair count other than half the ranks", "t": "threads, probes", "M": "a memory limit", "a": "a device array size",
	"r": "kernel targets", "u": "validation warm-ups", "k": "root rotation", "l": "MPI_IN_PLACE", "N": "neighbourhoods",
	"q": "partitions", "s": "one-sided synchronisation", "w": "one-sided windows", "v": "OSU's version line",
}

// osuPoint are the point-to-point tests (buffers placed by the trailing
// "D D"); the others are collectives (placed by -d rocm).
var osuPoint = []string{"osu_latency", "osu_bw", "osu_bibw", "osu_mbw_mr", "osu_multi_lat"}

// parseOSU reads `akisim <osu benchmark> ARGS` as the akisim command line
// `akisim osu -bench NAME -sizes ... ARGS-that-are-akisim's`, then keeps
// the OSU settings that have no akisim flag in o.osu.
func parseOSU(args []string, stderr io.Writer) (*options, error) {
	name, args := args[0], args[1:]
	point := slices.Contains(osuPoint, name)
	a := osuArgs{}
	var rest, bufs []string
	lo, hi := int64(1), int64(1<<22) // MIN_MESSAGE_SIZE; MAX_MESSAGE_SIZE (point to point)
	if !point {
		hi = 1 << 20 // MAX_MSG_SIZE_COLL
	}
	accel := false
	for i := 0; i < len(args); i++ {
		arg := args[i]
		flagName, value, inline := strings.Cut(arg, "=")
		short, ok := osuValueFlags[flagName]
		if !ok && joined(arg) { // -m1:4096, getopt's joined form
			short, value, inline, ok = osuValueFlags[arg[:2]], arg[2:], true, true
		}
		switch {
		case arg == "-h" || arg == "--help":
			fmt.Fprint(stderr, osuUsage(name))
			return nil, flag.ErrHelp
		case flagName == "-np" || flagName == "-n":
			if !inline {
				if i+1 >= len(args) {
					return nil, bad("%s %s: wants a rank count", name, arg)
				}
				i++
				value = args[i]
			}
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 || n > 1<<20 {
				return nil, bad("%s %s %s: want a rank count 1..%d", name, flagName, value, 1<<20)
			}
			if a.ranks != 0 {
				return nil, bad("%s %s: the rank count given twice", name, flagName)
			}
			a.ranks = n
		case ok:
			if !inline {
				if i+1 >= len(args) {
					return nil, bad("%s %s: wants a value", name, arg)
				}
				i++
				value = args[i]
			}
			if err := a.set(name, short, value, &lo, &hi, &accel); err != nil {
				return nil, err
			}
		case len(arg) == 2 && arg[0] == '-' && osuRefused[arg[1:]] != "":
			return nil, bad("%s %s: not modelled by akisim (%s)", name, arg, osuRefused[arg[1:]])
		case strings.HasPrefix(arg, "--"):
			return nil, bad("%s %s: not an OSU flag akisim models", name, arg)
		case isBufferLetter(arg):
			bufs = append(bufs, arg)
		case strings.HasPrefix(arg, "-") && (arg == "-bench" || arg == "-sizes" || strings.HasPrefix(arg, "-bench=") || strings.HasPrefix(arg, "-sizes=")):
			return nil, bad("%s %s: the benchmark name and -m choose these", name, arg)
		default:
			rest = append(rest, arg)
		}
	}
	if err := osuBuffers(name, point, accel, bufs); err != nil {
		return nil, err
	}
	if lo > hi {
		return nil, bad("%s -m %d:%d: MIN is above MAX", name, lo, hi)
	}
	var sizes []string
	for n := lo; n <= hi; n *= 2 {
		sizes = append(sizes, strconv.FormatInt(n, 10))
	}
	o, err := parse(append([]string{"osu", "-bench", name, "-sizes", strings.Join(sizes, ",")}, rest...), stderr)
	if err != nil {
		return nil, err
	}
	o.osu = a
	return o, nil
}

// set applies OSU flag -short value.
func (a *osuArgs) set(name, short, value string, lo, hi *int64, accel *bool) error {
	num := func(min int) (int, error) {
		n, err := strconv.Atoi(value)
		if err != nil || n < min || n > 1<<20 {
			return 0, bad("%s -%s %s: want a count %d..%d", name, short, value, min, 1<<20)
		}
		return n, nil
	}
	var err error
	switch short {
	case "m":
		return osuMessageSize(name, value, lo, hi)
	case "i":
		a.iters, err = num(1)
		a.itersSet = true
	case "x":
		a.warmup, err = num(0)
		a.warmupSet = true
	case "W":
		if name != "osu_bw" && name != "osu_bibw" && name != "osu_mbw_mr" {
			return bad("%s -W: only osu_bw, osu_bibw and osu_mbw_mr keep a window", name)
		}
		a.window, err = num(1)
	case "d":
		if !strings.EqualFold(value, "rocm") {
			return bad("%s -d %s: akisim models ROCm device buffers only (-d rocm)", name, value)
		}
		*accel = true
	case "T":
		if !strings.EqualFold(value, "mpi_char") {
			return bad("%s -T %s: akisim runs MPI_CHAR only", name, value)
		}
	}
	return err
}

// osuMessageSize reads -m [MIN:]MAX, MIN: or :MAX as OSU's set_message_size.
func osuMessageSize(name, v string, lo, hi *int64) error {
	parse := func(s string) (int64, bool) {
		n, err := strconv.ParseInt(s, 10, 64)
		return n, err == nil && n >= 1 && n <= 1<<40
	}
	a, b, two := strings.Cut(v, ":")
	var ok bool
	switch {
	case !two:
		*hi, ok = parse(a)
	case a == "":
		*hi, ok = parse(b)
	case b == "":
		*lo, ok = parse(a)
	default:
		var ok2 bool
		*lo, ok = parse(a)
		*hi, ok2 = parse(b)
		ok = ok && ok2
	}
	if !ok {
		return bad("%s -m %s: want [MIN:]MAX in bytes, 1..2^40", name, v)
	}
	return nil
}

// osuBuffers checks where the buffers are: a point-to-point test places
// them by its two trailing letters, a collective by -d rocm; akisim
// models device buffers only.
func osuBuffers(name string, point, accel bool, bufs []string) error {
	switch {
	case len(bufs) != 0 && len(bufs) != 2:
		return bad("%s %s: want two buffer locations (D D)", name, strings.Join(bufs, " "))
	case len(bufs) == 2 && (bufs[0] != "D" || bufs[1] != "D"):
		return bad("%s %s %s: akisim models device buffers only (D D)", name, bufs[0], bufs[1])
	case point && len(bufs) == 0:
		return bad("%s: without D D its buffers are host memory, which akisim does not model; give -d rocm D D", name)
	case !point && !accel:
		return bad("%s: without -d rocm its buffers are host memory, which akisim does not model; give -d rocm", name)
	}
	return nil
}

// isBufferLetter says whether arg is one of OSU's buffer locations.
func isBufferLetter(arg string) bool {
	return arg == "D" || arg == "H" || arg == "M" || arg == "MD" || arg == "MH"
}

// joined says whether arg is an OSU flag with its value joined (-m1:4096,
// -i100, -drocm, -TMPI_CHAR), not one of akisim's words (-memprofile,
// -iters, -datatype).
func joined(arg string) bool {
	if len(arg) < 3 || arg[0] != '-' || arg[1] == '-' {
		return false
	}
	rest := arg[2:]
	switch arg[:2] {
	case "-m", "-i", "-x", "-W":
		return rest[0] == ':' || (rest[0] >= '0' && rest[0] <= '9')
	case "-d":
		return slices.Contains([]string{"rocm", "cuda", "openacc", "sycl", "managed"}, strings.ToLower(rest))
	case "-T":
		return strings.HasPrefix(strings.ToLower(rest), "mpi_")
	}
	return false
}

// isOSUBenchmark says whether a command-line word names an OSU test akisim runs.
func isOSUBenchmark(word string) bool { return slices.Contains(workloads.OSUBenchmarks, word) }

// osuUsage is the line -h prints.
func osuUsage(name string) string {
	return fmt.Sprintf("usage: akisim %s [-np RANKS] [-m [MIN:]MAX] [-i ITERS] [-x WARMUP] [-W WINDOW] [-d rocm] [D D] [akisim flags]\n", name)
}

// osuGCDs are the GCDs of the ranks, rank i on the i-th: -gcds, or -np N's
// first N GCDs. A point-to-point test runs two ranks (OSU needs two) on
// GCDs 0 and 1 unless told; a collective has no such count, so it wants one.
func osuGCDs(o *options, c *config.Node) ([]int, error) {
	bench := cmp.Or(o.bench, "osu_bw")
	n := o.osu.ranks
	switch {
	case o.gcds != "":
		ids, err := gcdIDs("-gcds", o.gcds, c.TotalGCDs())
		if err == nil && n > 0 && len(ids) != n {
			return nil, bad("-np %d and -gcds %s: %d GCDs for %d ranks", n, o.gcds, len(ids), n)
		}
		return ids, err
	case n > c.TotalGCDs():
		return nil, bad("-np %d: %s has %d GCDs (-nodes N runs more)", n, c.Name, c.TotalGCDs())
	case n > 0:
		ids := make([]int, n)
		for i := range ids {
			ids[i] = i
		}
		return ids, nil
	case slices.Contains(osuPoint, bench) || !isOSUBenchmark(bench): // OSU's two; osu.Runs names an unknown bench
		return []int{0, 1}, nil
	}
	return nil, bad("%s: give the rank count, -np N (ranks on GCDs 0..N-1), or the GCDs, -gcds LIST", bench)
}

// osuBanner is what an OSU run says under its title: its ranks and where
// they ran, then how it was set up (report.Setup).
func osuBanner(o *options, c *config.Node) string {
	where := c.Name
	if c.Nodes() > 1 {
		where = fmt.Sprintf("%d %s nodes", c.Nodes(), c.Name)
	}
	return fmt.Sprintf("# %d ranks on GCDs %s of %s\n%s", len(o.osu.gcds), idRanges(o.osu.gcds), where, o.setup.Lines("# "))
}

// idRanges writes ids as a list, a run of three or more as FIRST-LAST:
// 0-15, or 0,8.
func idRanges(ids []int) string {
	var parts []string
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if j-i >= 2 {
			parts = append(parts, fmt.Sprintf("%d-%d", ids[i], ids[j]))
		} else {
			for k := i; k <= j; k++ {
				parts = append(parts, strconv.Itoa(ids[k]))
			}
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}
