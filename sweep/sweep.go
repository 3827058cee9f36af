package sweep

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/akisim/akisim/internal/errtext"
	"github.com/akisim/akisim/internal/limit"
	"github.com/akisim/akisim/internal/usage"
	"github.com/akisim/akisim/output"
	"github.com/akisim/akisim/report"
)

// Usage is akisim sweep's synopsis.
const Usage = "akisim sweep -outdir DIR [-set KEY=V1,V2,...] [-env VAR=V1,...] [-config A,B] [-jobs N] [-quiet] " +
	"[-slurm [-partition P] [-time T] [-account A] [-sbatch ARG]] WORKLOAD-OR-TRACE FLAGS...: one akisim run per point of the " +
	"lists' cartesian product, their rows merged into DIR/results.csv"

// axis is one swept flag: its values, in the order given.
type axis struct {
	flag   string   // "set", "env" or "config"
	key    string   // the config key, variable name, or "config"
	column string   // its column in the merged results
	values []string // one per point along this axis
}

// Point is one run of a sweep.
type Point struct {
	Index  int
	Values []string // one per axis
	Args   []string // the point's akisim arguments, without -outdir
	ID     string   // its folder under points/: a hash of Args
}

// Sweep is a parsed akisim sweep command line. Its hooks are set by the
// command before Run: what the sweep needs of the runs it makes.
type Sweep struct {
	// CheckPoint checks point p's command line as the command would, with
	// -outdir its folder (PointDir), and returns the files its run reads
	// and writes; with toRun, also what its run checks of its inputs
	// before simulating.
	CheckPoint func(p Point, toRun bool) (ins, outs []output.Path, err error)
	// Signal is the signal that asked the sweep to stop, 0 if none.
	Signal func() int
	// Graceful says whether a signal now stops the sweep, which then keeps
	// the points that finished, or ends it at once.
	Graceful func(on bool)
	// Note is the file an interrupted run leaves in its outdir.
	Note string
	// Paths finds the files the points name, each once.
	Paths output.LocatedOnce

	outdir  string
	jobs    int
	quiet   bool
	slurm   bool
	sbatch  []string // sbatch options passed through
	axes    []axis
	fixed   []string // the arguments every point gets (the workload and its flags)
	points  []Point
	stderr  io.Writer
	binary  string // the akisim each point runs
	logsDir string
	started func(c *exec.Cmd, running bool) // a point's process started or ended (runLocal)
	tookMu  sync.Mutex
	times   map[string]time.Duration // wall time of the points run now, by id (local)
	ran     map[string]bool          // the points run now, by id
}

// Points are the sweep's points, in product order (the first axis
// slowest).
func (s *Sweep) Points() []Point { return s.points }

// Outdir is the sweep's -outdir.
func (s *Sweep) Outdir() string { return s.outdir }

// stopped says whether a signal asked the sweep to stop.
func (s *Sweep) stopped() bool { return s.Signal() != 0 }

// took records a point's wall time.
func (s *Sweep) took(p Point, d time.Duration) {
	s.tookMu.Lock()
	defer s.tookMu.Unlock()
	s.times[p.ID], s.ran[p.ID] = d, true
}

// sweepFlags are the flags sweep takes for itself; the others go to every
// point.
var sweepFlags = map[string]bool{"outdir": true, "jobs": true, "quiet": true, "slurm": true, "sbatch": true,
	"partition": true, "time": true, "account": true, "set": true, "env": true, "config": true}

// Parse reads sweep's command line, its errors bad input (usage.Error).
func Parse(args []string, stderr io.Writer) (*Sweep, error) {
	s := &Sweep{jobs: runtime.GOMAXPROCS(0), stderr: stderr, times: map[string]time.Duration{}, ran: map[string]bool{}}
	seen := map[string]bool{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if a == "-h" || a == "-help" || a == "--help" {
			fmt.Fprintf(stderr, "usage: %s\n", Usage)
			return nil, flag.ErrHelp
		}
		if !strings.HasPrefix(a, "-") || !sweepFlags[name] {
			s.fixed = append(s.fixed, a)
			continue
		}
		if name == "quiet" || name == "slurm" {
			b, err := true, error(nil)
			if hasValue {
				if b, err = strconv.ParseBool(value); err != nil {
					return nil, usage.Errorf("sweep -%s: %q is not true or false", name, value)
				}
			}
			if name == "quiet" {
				s.quiet = b
			} else {
				s.slurm = b
			}
			continue
		}
		if !hasValue {
			if i+1 == len(args) {
				return nil, usage.Errorf("sweep -%s: needs a value", name)
			}
			i++
			value = args[i]
		}
		if value == "" {
			return nil, usage.Errorf("sweep -%s: empty value (give one, or leave the flag out)", name)
		}
		seen[name] = true
		switch name {
		case "outdir":
			s.outdir = value
		case "jobs":
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 {
				return nil, usage.Errorf("sweep -jobs: %q is not a number of processes (at least 1)", value)
			}
			s.jobs = n
		case "sbatch":
			s.sbatch = append(s.sbatch, value)
		case "partition", "time", "account":
			s.sbatch = append(s.sbatch, "--"+name+"="+value)
		case "config":
			if s.axisOf("config") >= 0 {
				return nil, usage.Errorf("sweep -config: given twice (list the configs in one -config, comma separated)")
			}
			vals, err := usage.List("sweep -config", value, nil)
			if err != nil {
				return nil, err
			}
			s.axes = append(s.axes, axis{flag: "config", key: "config", column: "config", values: vals})
		default: // set, env
			key, vals, ok := strings.Cut(value, "=")
			if !ok || key == "" {
				return nil, usage.Errorf("sweep -%s %q: want KEY=V1,V2,...", name, value)
			}
			column := key
			if name == "env" {
				column = "env." + key
			}
			if s.axisOf(column) >= 0 {
				return nil, usage.Errorf("sweep -%s %s: given twice (list its values in one flag, comma separated)", name, key)
			}
			values, err := usage.List("sweep -"+name+" "+key, vals, splitValues)
			if err != nil {
				return nil, err
			}
			s.axes = append(s.axes, axis{flag: name, key: key, column: column, values: values})
		}
	}
	if s.outdir == "" {
		return nil, usage.Errorf("sweep: -outdir DIR is required (the points' runs and the merged results go there)")
	}
	if s.slurm && seen["jobs"] {
		return nil, usage.Errorf("sweep -jobs: does not apply with -slurm (Slurm runs the points)")
	}
	if !s.slurm && len(s.sbatch) > 0 {
		return nil, usage.Errorf("sweep -sbatch, -partition, -time, -account: only with -slurm")
	}
	for _, a := range s.fixed {
		if n, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); strings.HasPrefix(a, "-") && (n == "force" || n == "timeline" || n == "rocprof" || n == "daisen" || n == "cpuprofile" || n == "memprofile") { // one file for every point
			return nil, usage.Errorf("sweep: -%s does not apply to a sweep's points", n)
		}
	}
	if err := s.makePoints(); err != nil {
		return nil, err
	}
	return s, nil
}

// axisOf is the index of the axis with column c, or -1.
func (s *Sweep) axisOf(c string) int {
	for k, ax := range s.axes {
		if ax.column == c {
			return k
		}
	}
	return -1
}

// makePoints lists the product of the axes, the first axis slowest,
// once it knows their memory fits (each point holds its arguments).
func (s *Sweep) makePoints() error {
	n, perPoint := int64(1), int64(256)
	for _, ax := range s.axes {
		n = limit.Product(max(0, n), int64(len(ax.values)))
		perPoint += int64(len(ax.key)) + 64
	}
	for _, a := range s.fixed {
		perPoint += int64(len(a)) + 16
	}
	if err := limit.Memory(fmt.Sprintf("a sweep of %d axes' product (%d points)", len(s.axes), n), limit.Product(max(0, n), perPoint)); err != nil {
		return err
	}
	for i := range int(n) {
		p := Point{Index: i}
		rest := i
		stride := int(n)
		for _, ax := range s.axes {
			stride /= len(ax.values)
			v := ax.values[rest/stride]
			rest %= stride
			p.Values = append(p.Values, v)
		}
		// the axes' flags first, in axis order, then the fixed ones: a
		// fixed -set after a swept one would override it, as on one run.
		// A workload named as a word (akisim rccl ...) stays first.
		fixed := s.fixed
		if len(fixed) > 0 && !strings.HasPrefix(fixed[0], "-") {
			p.Args, fixed = append(p.Args, fixed[0]), fixed[1:]
		}
		for k, ax := range s.axes {
			switch ax.flag {
			case "config":
				p.Args = append(p.Args, "-config", p.Values[k])
			case "set":
				p.Args = append(p.Args, "-set", ax.key+"="+p.Values[k])
			case "env":
				p.Args = append(p.Args, "-env", ax.key+"="+p.Values[k])
			}
		}
		p.Args = append(p.Args, fixed...)
		h := sha256.Sum256([]byte(strings.Join(p.Args, "\x00")))
		p.ID = hex.EncodeToString(h[:6])
		s.points = append(s.points, p)
	}
	return nil
}

// label names a point by its swept values, for messages.
func (s *Sweep) Label(p Point) string {
	parts := make([]string, len(s.axes))
	for k, ax := range s.axes {
		parts[k] = ax.column + "=" + p.Values[k]
	}
	if len(parts) == 0 {
		return "the only point"
	}
	return strings.Join(parts, " ")
}

func (s *Sweep) PointDir(p Point) string { return filepath.Join(s.outdir, "points", p.ID) }
func (s *Sweep) logPath(p Point) string  { return filepath.Join(s.logsDir, p.ID+".log") }

// Todo are the points whose runs have not finished. Only the points with
// a folder already are looked at: a fresh sweep of 10^6 points makes no
// 10^6 calls to stat.
func (s *Sweep) Todo() []Point {
	finished := s.finished()
	var todo []Point
	for _, p := range s.points {
		if !finished[p.ID] {
			todo = append(todo, p)
		}
	}
	return todo
}

// finished are the ids of the points whose runs finished, found among
// the folders there are.
func (s *Sweep) finished() map[string]bool {
	have := map[string]bool{}
	entries, _ := os.ReadDir(filepath.Join(s.outdir, "points")) // none yet: every point is to run
	for _, e := range entries {
		have[e.Name()] = true
	}
	finished := map[string]bool{}
	for _, p := range s.points {
		if have[p.ID] && s.done(p) {
			finished[p.ID] = true
		}
	}
	return finished
}

// done says whether a point's run finished: its outdir was committed and
// is not an interrupted run's.
func (s *Sweep) done(p Point) bool {
	_, err := os.Stat(filepath.Join(s.PointDir(p), output.Marker))
	_, note := os.Stat(filepath.Join(s.PointDir(p), s.Note))
	return err == nil && os.IsNotExist(note)
}

// checkPoint checks one point's command line as the command would
// (CheckPoint), and returns the inputs it names; with toRun, also what its run
// checks of them before simulating. No output of the point may overwrite
// an input, another output or the sweep's own files.
func (s *Sweep) checkPoint(p Point, toRun bool) ([]output.Path, error) {
	ins, outs, err := s.CheckPoint(p, toRun)
	if err != nil {
		return nil, err
	}
	// the sweep's own files: its merged results, its list of points and
	// its logs
	outs = append(outs, output.Path{Flag: "sweep -outdir", Path: filepath.Join(s.outdir, "results.csv")},
		output.Path{Flag: "sweep -outdir", Path: filepath.Join(s.outdir, "points.csv")},
		output.Path{Flag: "sweep -outdir", Path: filepath.Join(s.outdir, "logs"), Replaced: true})
	own := s.PointDir(p)
	find := func(path string) output.Place {
		if path == own || strings.HasPrefix(path, own+string(filepath.Separator)) {
			return output.Locate(path) // the point's own: found once anyway
		}
		return s.Paths.Locate(path) // the inputs and the sweep's files, shared by every point
	}
	if err := output.CheckWith(find, ins, outs); err != nil {
		return nil, usage.Errorf("sweep point %d (%s): %v", p.Index, s.Label(p), err)
	}
	return ins, nil
}

// fullCheckPoints is the most points a sweep checks one by one (about a
// second of checks); a larger sweep checks each value of each axis.
const fullCheckPoints = 4096

// Check runs points' command lines through akisim's own checks, so a bad
// flag, config value or path exits 2 before any point runs; on every
// core, the first bad point by index reported. Up to fullCheckPoints
// points, every point is checked. A larger sweep checks the points that
// differ from the first in one axis: every value of every axis, the sum
// of the axes' lengths rather than their product, so a sweep of 10^6
// points starts within seconds. A combination bad only together then
// fails at its own point (the point's run exits 2 and the sweep reports
// it). No input may lie in a point's folder, which its run replaces.
func (s *Sweep) Check() error {
	pick := s.checkedPoints()
	finished := s.finished() // a resumed sweep's finished points do not run: their inputs' checks are skipped
	errs := make([]error, len(pick))
	ins := make([][]output.Path, len(pick))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				p := s.points[pick[i]]
				ins[i], errs[i] = s.checkPoint(p, !finished[p.ID])
			}
		}()
	}
	for i := range pick {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	points := s.Paths.Locate(filepath.Join(s.outdir, "points"))
	for _, in := range ins {
		for _, a := range in {
			if a.Path == "" {
				continue
			}
			w := s.Paths.Locate(a.Path)
			if w.Special() || !output.Within(w, points) {
				continue
			}
			rel, _ := filepath.Rel(points.Path, w.Path)
			id, _, _ := strings.Cut(rel, string(filepath.Separator))
			if slices.ContainsFunc(s.points, func(p Point) bool { return p.ID == id }) {
				return usage.Errorf("sweep -outdir %s: holds the input %s %s in a point's folder, which its run replaces; move the input out", s.outdir, a.Flag, a.Path)
			}
		}
	}
	return nil
}

// checkedPoints are the indexes of the points check runs through
// akisim's checks: all of them, or, past fullCheckPoints, the first point
// and each point that differs from it in one axis.
func (s *Sweep) checkedPoints() []int {
	if len(s.points) <= fullCheckPoints {
		pick := make([]int, len(s.points))
		for i := range pick {
			pick[i] = i
		}
		return pick
	}
	pick, stride := []int{0}, len(s.points)
	for _, ax := range s.axes {
		stride /= len(ax.values)
		for j := 1; j < len(ax.values); j++ {
			pick = append(pick, j*stride)
		}
	}
	slices.Sort(pick)
	return pick
}

// Run checks every point, then runs those not finished (locally, or
// through Slurm), merges their rows into the sweep's results.csv and lists
// the points in points.csv. It returns how many points failed; each is
// said on stderr.
func (s *Sweep) Run() (failed int, err error) {
	if err := s.Check(); err != nil {
		return 0, err
	}
	if s.binary, err = os.Executable(); err != nil {
		return 0, fmt.Errorf("sweep: the akisim binary to run: %v", err)
	}
	s.logsDir = filepath.Join(s.outdir, "logs")
	for _, d := range []string{filepath.Join(s.outdir, "points"), s.logsDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return 0, usage.Errorf("sweep -outdir %s: %v", s.outdir, errtext.Of(err))
		}
	}
	todo := s.Todo()
	if skipped := len(s.points) - len(todo); !s.quiet {
		fmt.Fprintf(s.stderr, "akisim sweep: %d points, %d done already (skipped), %d to run\n", len(s.points), skipped, len(todo))
	}
	var failures []string
	if s.slurm {
		failures, err = s.runSlurm(todo)
	} else {
		failures = s.runLocal(todo)
	}
	if err != nil {
		return 0, err
	}
	if err := s.merge(); err != nil {
		return 0, err
	}
	if err := s.writePoints(); err != nil {
		return 0, err
	}
	for _, f := range failures {
		fmt.Fprintln(s.stderr, "akisim sweep:", report.Printable(f)) // a point's values and its last line
	}
	return len(failures), nil
}

// merge writes outdir/results.csv: the swept keys, then each finished
// point's rows; points in product order.
func (s *Sweep) merge() error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	header := []string{}
	for _, ax := range s.axes {
		header = append(header, ax.column)
	}
	header = append(header, strings.Split(report.Header, ",")...)
	w.Write(header)
	for _, p := range s.points {
		if !s.done(p) {
			continue
		}
		f, err := os.Open(filepath.Join(s.PointDir(p), "results.csv"))
		if err != nil {
			return fmt.Errorf("sweep: point %d (%s): %v", p.Index, s.Label(p), errtext.Of(err))
		}
		r := csv.NewReader(f)
		recs, err := r.ReadAll()
		f.Close()
		if err != nil {
			return fmt.Errorf("sweep: point %d (%s): results.csv: %v", p.Index, s.Label(p), err)
		}
		for _, rec := range recs[min(1, len(recs)):] { // after its header
			w.Write(append(append([]string{}, p.Values...), rec...))
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return output.Write("sweep -outdir", filepath.Join(s.outdir, "results.csv"), 0o644, bufferTo(&buf))
}

// bufferTo writes what buf holds.
func bufferTo(buf *bytes.Buffer) func(io.Writer) error {
	return func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err }
}

// writePoints writes outdir/points.csv: each point's index, folder, swept
// values, whether it finished, and its wall time when it ran now.
func (s *Sweep) writePoints() error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	head := []string{"point", "folder"}
	for _, ax := range s.axes {
		head = append(head, ax.column)
	}
	w.Write(append(head, "status", "seconds"))
	for _, p := range s.points {
		var status string
		switch done := s.done(p); {
		case done && s.ran[p.ID]:
			status = "done"
		case done:
			status = "done before"
		case s.ran[p.ID] && s.stopped():
			status = "interrupted"
		case s.ran[p.ID]:
			status = "failed"
		default:
			status = "not run"
		}
		secs := ""
		if d, ok := s.times[p.ID]; ok {
			secs = strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
		}
		rec := append([]string{strconv.Itoa(p.Index), filepath.Join("points", p.ID)}, p.Values...)
		w.Write(append(rec, status, secs))
	}
	w.Flush()
	return output.Write("sweep -outdir", filepath.Join(s.outdir, "points.csv"), 0o644, bufferTo(&buf))
}

// pointArgs is the point's full command line: -force, since a point run
// again replaces what an interrupted run of it left.
func (s *Sweep) pointArgs(p Point) []string {
	return append(append([]string{}, p.Args...), "-outdir", s.PointDir(p), "-force", "-format", "csv", "-quiet")
}

// lastLine is a log's last non-empty line, for a failure's message.
func lastLine(path string) string {
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// splitValues splits a swept -set's values at the commas outside brackets
// and quotes: host.gcd_numa=[3,3,1,1,0,0,2,2],[0,0,1,1,2,2,3,3] is two.
func splitValues(v string) []string {
	var out []string
	depth, quote, start := 0, byte(0), 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
		case c == ',' && depth == 0:
			out = append(out, v[start:i])
			start = i + 1
		}
	}
	return append(out, v[start:])
}
