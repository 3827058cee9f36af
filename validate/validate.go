// Package validate runs the calibration experiments of the seed papers that
// akisim can run so far and compares each simulated point with its
// published value and tolerance.
package validate

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"math"
	"regexp"
	"runtime"
	"strconv"
	"strings"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/run"
	"github.com/akisim/akisim/workloads"
)

// Point is one compared value.
type Point struct {
	Experiment string
	Name       string
	Simulated  float64
	Published  float64
	Tolerance  float64 // relative, e.g. 0.05
	Unit       string
	AtMost     bool // one-sided: the simulated value may be anything up to Published (1 + Tolerance)
	AtLeast    bool // one-sided: anything down to Published (1 - Tolerance)
	// Gap, when set, says why the model does not reproduce this claim yet:
	// the mechanism it lacks. With a Band (gaps.go) the point is a known
	// gap while its error stays inside the band.
	Gap  string
	Band *Band
	// Kind is Checks for a published measurement no constant was fitted
	// to, Calibrated for a point a calibrated key of configs/*.toml names,
	// Derived for one a calibration decides (a derived tag names it).
	Kind Kind
	// Source names where a check point's published value comes from.
	Source string
}

// Error is the relative error of the simulated value.
func (p Point) Error() float64 { return (p.Simulated - p.Published) / p.Published }

// Pass says whether the point is within its tolerance (for an AtMost
// point: not above it).
func (p Point) Pass() bool {
	if p.AtMost {
		return p.Error() <= p.Tolerance
	}
	if p.AtLeast {
		return p.Error() >= -p.Tolerance
	}
	return math.Abs(p.Error()) <= p.Tolerance
}

// Reference is the published p2p matrix (seed paper Figure 6), keyed by
// metric, src and dst.
type Reference map[[3]string]float64

//go:embed reference/seed-p2p-matrix.csv
var seedMatrix string

// SeedReference is the published matrix shipped with akisim (a copy of
// the p2p matrices of docs/references.md [seed-000]).
func SeedReference() Reference {
	ref, err := ParseReference("seed-p2p-matrix.csv", strings.NewReader(seedMatrix))
	if err != nil {
		panic(err) // the embedded file is part of the build
	}
	return ref
}

// ParseReference reads a matrix in the seed-p2p-matrix.csv layout.
func ParseReference(path string, r io.Reader) (Reference, error) {
	ref := Reference{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "metric,") {
			continue
		}
		p := strings.Split(line, ",")
		if len(p) != 5 {
			return nil, fmt.Errorf("%s:%d: want 5 fields, got %d", path, n, len(p))
		}
		v, err := strconv.ParseFloat(p[3], 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: value: %v", path, n, err)
		}
		ref[[3]string{p[0], p[1], p[2]}] = v
	}
	return ref, sc.Err()
}

// Kind is a point's kind; as Run's filter, "" (All) selects every point.
type Kind string

const (
	All        Kind = ""
	Calibrated Kind = "calibrated"
	Derived    Kind = "derived"
	Checks     Kind = "check"
)

// experiment is a Point.Experiment a group gives and the publication its
// values come from.
type experiment struct{ name, source string }

// group is experiments that run together; experiments lists every
// Experiment its points name.
type group struct {
	experiments []experiment
	run         func(c *config.Node, ref Reference) ([]Point, error)
}

// placed is a group that runs on a shipped config with that config's
// calibration, whatever node validate was given.
type placed struct {
	node string
	g    group
}

func placedGroups() []placed {
	return []placed{{mi300xConfig, mi300xGroup()}, {mi300xConfig, mi300xSizesGroup()}, {mi300aConfig, mi300aGroup()},
		{mi300xConfig, mi300xModesGroup()}, {mi300aConfig, mi300aModesGroup()}}
}

const seed = "seed paper 000 (Infinity Fabric on MI250X)"

func groups() []group {
	gs := []group{
		{[]experiment{{"E4 bandwidth", seed + " Figure 6(c)"}, {"E4 latency", seed + " Figure 6(b)"},
			{e4Diagonal, seed + " Figure 6(c)"}}, onSeedStack(p2pPoints)},
		{[]experiment{{"E1 pinned H2D", seed + " Figures 2, 3"}, {"E2 NUMA placement", seed + " section 4 (NUMA)"},
			{"E5 hipMemcpy size sweep", seed + " Figure 7"}}, onSeedStack(copyPoints)},
		{[]experiment{{"E1 managed migration", seed + " Figures 2, 3"}, {"E1 managed zero-copy", seed + " Figures 2, 3"}}, onSeedStack(noRef(managedPoints))},
		{[]experiment{{"E2 NUMA placement", seed + " section 4 (NUMA)"}}, onSeedStack(noRef(numaPoints))},
		{[]experiment{{"E6 local STREAM", seed + " section 5 (STREAM on local memory)"}, {"E6 peer STREAM", seed + " Figures 8, 9"}}, onSeedStack(noRef(e6Points))},
		{[]experiment{{"E3 host STREAM", seed + " Figures 4, 5"}}, onSeedStack(noRef(e3Points))},
		{[]experiment{{"E7 MPI over SDMA", seed + " Figure 10"}, {"E7 MPI without SDMA", seed + " Figure 10"}}, onSeedStack(mpiPoints)},
		{[]experiment{{"E8 RCCL 2 GCDs", seed + " Figure 12, section 6"}, {"E8 RCCL vs MPI", seed + " Figure 11, section 6"},
			{"E8 RCCL 7 -> 8 GCDs", seed + " Figure 12, section 6"}}, onSeedStack(noRef(e8Points))},
		{[]experiment{{netExperiment, "LUMI ReFrame checks (docs/references.md [lumi-reframe])"}}, noRef(netPoints)},
		{[]experiment{{haloPackExperiment, "seed paper 001 (Pekkilä et al., IJHPCA, halo exchange)"}}, noRef(haloPoints)},
		{[]experiment{{haloExchangeExperiment, "seed paper 001 (Pekkilä et al., IJHPCA, halo exchange)"}}, noRef(haloExchangePoints)},
		{[]experiment{{haloMHDExperiment, "seed paper 001 (Pekkilä et al., IJHPCA, halo exchange)"}}, noRef(haloMHDPoints)},
		{hostMemExperiments(), noRef(hostMemPoints)},
	}
	return append(gs, checkGroups()...)
}

// onSeedStack runs f on seed-000's software stack: ROCm 5.7.0, RCCL
// 2.17.1 and Cray MPICH 8.1.28, as the paper's runs were.
func onSeedStack(f func(*config.Node, Reference) ([]Point, error)) func(*config.Node, Reference) ([]Point, error) {
	return func(c *config.Node, ref Reference) ([]Point, error) {
		x, err := c.Select("5.7", "8.1.28", "2.17.1")
		if err != nil {
			return nil, fmt.Errorf("validate: seed-000's stack: %w", err)
		}
		return f(x, ref)
	}
}

func noRef(f func(*config.Node) ([]Point, error)) func(*config.Node, Reference) ([]Point, error) {
	return func(c *config.Node, _ Reference) ([]Point, error) { return f(c) }
}

// Select is which points Run runs: of one kind (All: every kind), of the
// experiments Experiment matches (nil: every experiment).
type Select struct {
	Kind       Kind
	Experiment *regexp.Regexp
}

// Run simulates the selected experiments on the node and returns their
// points, each given its kind by cal (the config's calibrated and derived
// keys), its source and, for a known gap, its band. A group with no
// selected experiment is not run.
func Run(c *config.Node, ref Reference, cal *Calibration, sel Select) ([]Point, error) {
	if err := cal.Known(); err != nil {
		return nil, err
	}
	all := []placed{}
	for _, g := range groups() {
		all = append(all, placed{g: g})
	}
	all = append(all, placedGroups()...)
	// the groups are independent simulations: they run side by side
	// (run.InOrder), and their points are taken in group order, so the
	// output is the serial one; a group's panic is raised here
	type outcome struct {
		pts []Point
		err error
	}
	var pts []Point
	var err error
	run.InOrder(len(all), runtime.GOMAXPROCS(0), func(i int, _ func() bool) outcome {
		ps, err := all[i].points(c, ref, cal, sel)
		return outcome{ps, err}
	}, func(_ int, o outcome) bool {
		err = o.err
		pts = append(pts, o.pts...)
		return err == nil
	})
	if err != nil {
		return nil, err
	}
	return pts, banded(pts, sel == Select{})
}

// banded gives each known gap's point its band. With every point run,
// a band whose point no experiment gave is an error: a renamed point
// must not leave its gap behind.
func banded(pts []Point, every bool) error {
	index := map[[2]string]int{}
	for i, p := range pts {
		index[[2]string{p.Experiment, p.Name}] = i
	}
	for _, g := range knownGaps {
		i, ok := index[[2]string{g.experiment, g.point}]
		if !ok {
			if every {
				return fmt.Errorf("validate: known gap %q, %q: no such point", g.experiment, g.point)
			}
			continue
		}
		b := g.band
		pts[i].Band = &b
	}
	return nil
}

// points runs pg on its node (the given one, or its shipped config with
// that config's calibration) and keeps its points of kind only; a group
// with none of that kind is not run.
func (pg placed) points(c *config.Node, ref Reference, cal *Calibration, sel Select) ([]Point, error) {
	g, gc, gcal := pg.g, c, cal
	if pg.node != "" {
		var err error
		if gc, gcal, err = shippedNode(pg.node); err != nil {
			return nil, err
		}
	}
	if !g.wanted(gcal, sel) {
		return nil, nil
	}
	ps, err := g.run(gc, ref)
	if err != nil {
		return nil, err
	}
	return g.classify(ps, gcal, sel)
}

// want says whether sel selects experiment exp under cal.
func want(exp string, cal *Calibration, sel Select) bool {
	return (sel.Kind == All || cal.Kind(exp) == sel.Kind) && (sel.Experiment == nil || sel.Experiment.MatchString(exp))
}

// wanted says whether sel selects some experiment of g.
func (g group) wanted(cal *Calibration, sel Select) bool {
	for _, e := range g.experiments {
		if want(e.name, cal, sel) {
			return true
		}
	}
	return false
}

// classify keeps the points of g sel selects, gives each its kind and
// its experiment's source; a point naming an experiment g does not list
// is an error.
func (g group) classify(ps []Point, cal *Calibration, sel Select) ([]Point, error) {
	source := map[string]string{}
	for _, e := range g.experiments {
		source[e.name] = e.source
	}
	var kept []Point
	for _, p := range ps {
		src, ok := source[p.Experiment]
		if !ok {
			return nil, fmt.Errorf("validate: point %q names experiment %q, which its group does not list", p.Name, p.Experiment)
		}
		if !want(p.Experiment, cal, sel) {
			continue
		}
		p.Kind = cal.Kind(p.Experiment)
		if p.Source == "" {
			p.Source = src
		}
		kept = append(kept, p)
	}
	return kept, nil
}

// e4Diagonal is E4's diagonal: a copy within each GCD, a blit kernel.
const e4Diagonal = "E4 blit diagonal (cal)"

// p2pPoints are E4: p2pBandwidthLatencyTest, every pair; the diagonal's
// bandwidth is a calibration experiment of its own (e4Diagonal).
func p2pPoints(c *config.Node, ref Reference) ([]Point, error) {
	var pts []Point
	p := workloads.DefaultP2P(c.GCD.Count)
	p.Cases = []string{"unidirectional", "latency"}
	res, err := run.Execute(c, p.Runs())
	if err != nil {
		return nil, err
	}
	for _, r := range res.Rows {
		src, dst, err := ids(r)
		if err != nil {
			return nil, err
		}
		metric, tol, exp := "bandwidth", 0.05, "E4 bandwidth"
		if r.Case == "latency" {
			metric, tol, exp = "latency", 0.10, "E4 latency"
		} else if src == dst {
			// the copy within one GCD is ROCclr's copy kernel (read and
			// write counted): it calibrates gcd.wave_start_ns
			exp = e4Diagonal
		}
		pub, ok := ref[[3]string{metric, src, dst}]
		if !ok {
			continue
		}
		pts = append(pts, Point{Experiment: exp, Name: "GCD " + src + " -> " + dst,
			Simulated: r.Value, Published: pub, Tolerance: tol, Unit: r.Unit})
	}
	return pts, nil
}

// copyPoints are E1 (pinned host-to-device copy of 1 GiB, GCD 0, NUMA 0:
// 28.3 GB/s), E2 (the same from every NUMA domain to GCD 0 and GCD 4: no
// loss) and E5 (hipMemcpy GCD 0 -> 1, 2, 6 keeps the E4 plateau at large sizes).
func copyPoints(c *config.Node, ref Reference) ([]Point, error) {
	var pts []Point
	rows, err := commScope(c, `^Comm_hipMemcpyAsync_(PinnedToGPU/[0-9]+/[04]|GPUToGPU/0/[126])/log2\(N\):30/`)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if r.Metric != "bandwidth" {
			continue
		}
		src, dst, err := ids(r)
		if err != nil {
			return nil, err
		}
		if strings.HasSuffix(r.Case, "PinnedToGPU") {
			exp := "E2 NUMA placement"
			if src == "0" && dst == "0" {
				exp = "E1 pinned H2D"
			}
			pts = append(pts, Point{Experiment: exp, Name: "NUMA " + src + " -> GCD " + dst + ", 1 GiB",
				Simulated: r.Value, Published: 28.3, Tolerance: 0.05, Unit: r.Unit})
			continue
		}
		pub := ref[[3]string{"bandwidth", src, dst}]
		pts = append(pts, Point{Experiment: "E5 hipMemcpy size sweep", Name: "GCD " + src + " -> " + dst + ", 1 GiB",
			Simulated: r.Value, Published: pub, Tolerance: 0.05, Unit: r.Unit})
	}
	return pts, nil
}

// ids are the decimal ids of a row's endpoints ("gcd3" -> "3"), as the
// published matrix numbers GCDs.
func ids(r report.Row) (src, dst string, err error) {
	s, d, err := endpointIDs(r.Workload, r)
	return strconv.Itoa(s), strconv.Itoa(d), err
}

// endpointIDs are the ids of a row's endpoints; what names the row in an error.
func endpointIDs(what string, r report.Row) (src, dst int, err error) {
	s, err := report.ParseEndpoint(r.Src)
	if err != nil {
		return 0, 0, fmt.Errorf("validate: %s row: src: %w", what, err)
	}
	d, err := report.ParseEndpoint(r.Dst)
	if err != nil {
		return 0, 0, fmt.Errorf("validate: %s row: dst: %w", what, err)
	}
	return s.ID, d.ID, nil
}

// commScope runs the Comm|Scope benchmarks whose names match filter on c.
func commScope(c *config.Node, filter string) ([]report.Row, error) {
	cs := workloads.DefaultCommScope(c.GCD.Count, c.Host.NUMADomains)
	cs.Filter = regexp.MustCompile(filter)
	res, err := run.Execute(c, cs.Runs())
	if err != nil {
		return nil, err
	}
	return res.Rows, nil
}

// stream runs one STREAM copy and returns its bandwidth (GB/s).
func stream(c *config.Node, gcds []int, alloc string, bytes int64) (float64, error) {
	return streamKernel(c, gcds, alloc, "copy", bytes)
}

// streamKernel runs one STREAM kernel and returns its bandwidth (GB/s).
func streamKernel(c *config.Node, gcds []int, alloc, kernel string, bytes int64) (float64, error) {
	return streamPasses(c, gcds, alloc, kernel, bytes, 1, 0)
}

// streamPasses runs one STREAM kernel that goes over its arrays passes
// times and returns its bandwidth (GB/s, every pass's bytes).
func streamPasses(c *config.Node, gcds []int, alloc, kernel string, bytes, passes, inFlight int64) (float64, error) {
	st := workloads.Stream{GCDs: gcds, Alloc: alloc, Sizes: []int64{bytes}, Kernels: []string{kernel},
		Iterations: 2, Workgroup: 128, NUMA: c.Host.GCDNUMA, Passes: passes, InFlight: inFlight}
	runs, err := st.Runs()
	if err != nil {
		return 0, err
	}
	res, err := run.Execute(c, runs)
	if err != nil {
		return 0, err
	}
	return res.Rows[0].Value, nil
}

// e6Points are E6: STREAM copy on GCD 0, local and on peers 1, 2, 6.
func e6Points(c *config.Node) ([]Point, error) {
	var pts []Point
	local, err := stream(c, []int{0}, "local", 8<<30)
	if err != nil {
		return nil, err
	}
	pts = append(pts, Point{Experiment: "E6 local STREAM", Name: "GCD 0, 8 GiB copy",
		Simulated: local, Published: 1400, Tolerance: 0.05, Unit: "GB/s"})
	// Peer copies reach 43-44% of the bundle's bidirectional peak: 43.5 +- 3 points.
	for _, peer := range []int{1, 2, 6} {
		bw, err := stream(c, []int{0}, strconv.Itoa(peer), 1<<30)
		if err != nil {
			return nil, err
		}
		lanes := 0
		for _, b := range c.XGMI.Bundles {
			if (b.GCDs[0] == 0 && b.GCDs[1] == peer) || (b.GCDs[1] == 0 && b.GCDs[0] == peer) {
				lanes = b.Lanes
			}
		}
		peak := 2 * c.XGMI.LaneBandwidthGBps * float64(lanes)
		pts = append(pts, Point{Experiment: "E6 peer STREAM", Name: fmt.Sprintf("GCD 0 on GCD %d (%d lanes), %% of %.0f GB/s", peer, lanes, peak),
			Simulated: 100 * bw / peak, Published: 43.5, Tolerance: 3 / 43.5, Unit: "%"})
	}
	return pts, nil
}

// e3Points are E3: host STREAM on 1, 2, 4 and 8 GCDs, host arrays (8 GB in
// the paper; 1 GiB here reaches the same plateau).
func e3Points(c *config.Node) ([]Point, error) {
	var pts []Point
	one, err := stream(c, []int{0}, "host", 1<<30)
	if err != nil {
		return nil, err
	}
	four := 0.0
	for _, e := range []struct {
		gcds      []int
		name      string
		want, tol float64
	}{
		{[]int{0, 1}, "GCDs 0,1 (same package) / GCD 0", 1, 0.10},
		{[]int{0, 4}, "GCDs 0,4 (spread) / GCD 0", 2, 0.05},
		{[]int{0, 2, 4, 6}, "GCDs 0,2,4,6 / GCD 0", 3.9, 0.3 / 3.9},
		{[]int{0, 1, 2, 3, 4, 5, 6, 7}, "all 8 GCDs / GCDs 0,2,4,6", 1, 0.10},
	} {
		bw, err := stream(c, e.gcds, "host", 1<<30)
		if err != nil {
			return nil, err
		}
		ratio := bw / one
		if len(e.gcds) == 8 {
			ratio = bw / four
		}
		if len(e.gcds) == 4 {
			four = bw
		}
		pts = append(pts, Point{Experiment: "E3 host STREAM", Name: e.name,
			Simulated: ratio, Published: e.want, Tolerance: e.tol, Unit: "x"})
	}
	return pts, nil
}
