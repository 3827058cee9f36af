package validate

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/configs"
)

func TestCalibrationParse(t *testing.T) {
	text := `name = "x" # label
[gcd]
hub_forward_ns = 490 # calibrated [E4 latency]: the hub's forwarding
hbm_efficiency = 0.875 # calibrated [E6 local STREAM, E4 bandwidth]: 87%
label = "a # calibrated [nope]: inside a string" # assumed
[[xgmi.bundle]] # [0]
lanes = 4 # (T)
[sdma]
fence_ns = 380 # assumed, calibrated later
`
	cal := &Calibration{}
	if err := cal.Parse("n.toml", text); err != nil {
		t.Fatal(err)
	}
	if len(cal.Tags) != 2 {
		t.Fatalf("tags %+v, want 2", cal.Tags)
	}
	if got := cal.Keys("E4 latency"); len(got) != 1 || got[0] != "n.toml:3: gcd.hub_forward_ns" {
		t.Errorf("E4 latency keys %q", got)
	}
	if got := cal.Keys("E4 bandwidth"); len(got) != 1 || got[0] != "n.toml:4: gcd.hbm_efficiency" {
		t.Errorf("E4 bandwidth keys %q", got)
	}
	if cal.Calibrated("nope") || cal.Calibrated("E1 pinned H2D") {
		t.Error("a tag inside a string or an untagged experiment counts as calibrated")
	}
}

// A comment that claims calibration without naming points, or a tag away
// from its key, is an error naming the file, the line and the key.
func TestCalibrationParseErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"[sdma]\nfence_ns = 380 # calibrated against E4\n", "c.toml:2: sdma.fence_ns: a calibrated key's comment must read"},
		{"fence_ns = 380 # calibrated []: why\n", "c.toml:1: fence_ns:"},
		{"fence_ns = 380 # calibrated [E4 latency,]: why\n", "c.toml:1: fence_ns: an empty experiment"},
		{"fence_ns = 380 # calibrated [E4 latency]:\n", "c.toml:1: fence_ns: a calibrated key's comment"},
		{"# calibrated [E4 latency]: why\nfence_ns = 380\n", "c.toml:1: a calibrated tag belongs on the line"},
		{"x = 1 # derived [E2 NUMA placement]: why\n", "c.toml:1: x: a derived key's comment must read"},
		{"x = 1 # derived [E2 NUMA placement] from [,]: why\n", "c.toml:1: x: an empty experiment"},
		{"# derived [E2 NUMA placement] from [E1 pinned H2D]: why\nx = 1\n", "c.toml:1: a calibrated tag belongs on the line"},
	} {
		err := (&Calibration{}).Parse("c.toml", c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}

// A tag naming an experiment no point has is an error, so a typo cannot
// turn calibration points into check points.
func TestCalibrationUnknownExperiment(t *testing.T) {
	cal := &Calibration{}
	if err := cal.Parse("u.toml", "[gcd]\nreorder_ns = 390 # calibrated [E4 latncy]: typo\n"); err != nil {
		t.Fatal(err)
	}
	err := cal.Known()
	if err == nil || !strings.Contains(err.Error(), `u.toml:2: gcd.reorder_ns: calibrated against "E4 latncy", which no validate point has`) {
		t.Errorf("error %v", err)
	}
}

// shipped is the calibration of a config built into akisim.
func shipped(t *testing.T, name string) (*Calibration, []string, []string) {
	t.Helper()
	file, data, err := config.Resolve(name, configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	src, err := config.NewSource(file, data, configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	cal, err := CalibrationOf(src)
	if err != nil {
		t.Fatal(err)
	}
	names, texts := src.Layers()
	return cal, names, texts
}

// Every shipped config's tags name known experiments, and the seed's
// fitted experiments are calibration.
func TestShippedCalibration(t *testing.T) {
	names, err := fs.Glob(configs.FS, "*.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		cal, _, _ := shipped(t, n)
		if err := cal.Known(); err != nil {
			t.Errorf("%s: %v", n, err)
		}
		for _, e := range []string{"E4 latency", "E4 bandwidth", "E1 pinned H2D", "E6 local STREAM"} {
			if !cal.Calibrated(e) {
				t.Errorf("%s: %s is not calibration", n, e)
			}
		}
	}
}

// Removing a key's tag turns the points of an experiment no other key
// names into check points; the split follows the config.
func TestRemovingTagFlipsToCheck(t *testing.T) {
	cal, names, texts := shipped(t, "frontier-node.toml")
	g := group{experiments: []experiment{{"E1 pinned H2D", "seed"}, {"E3 host STREAM", "seed"}}}
	pts := []Point{{Experiment: "E1 pinned H2D", Name: "a"}, {Experiment: "E3 host STREAM", Name: "b"}}
	kinds := func(cal *Calibration) (all, checks []Point) {
		all, err := g.classify(pts, cal, Select{})
		if err != nil {
			t.Fatal(err)
		}
		checks, err = g.classify(pts, cal, Select{Kind: Checks})
		if err != nil {
			t.Fatal(err)
		}
		return all, checks
	}
	all, checks := kinds(cal)
	if all[0].Kind != Calibrated || all[1].Kind != Checks || len(checks) != 1 || checks[0].Name != "b" || all[0].Source != "seed" {
		t.Fatalf("tagged: %+v, checks %+v", all, checks)
	}
	untagged := &Calibration{}
	for i := range names {
		text := strings.ReplaceAll(texts[i], "# calibrated [E1 pinned H2D]:", "# was:")
		if err := untagged.Parse(names[i], text); err != nil {
			t.Fatal(err)
		}
	}
	all, checks = kinds(untagged)
	if all[0].Kind != Checks || len(checks) != 2 {
		t.Errorf("untagged: %+v, checks %+v", all, checks)
	}
	if !g.wanted(untagged, Select{Kind: Checks}) || (group{experiments: g.experiments[:1]}).wanted(cal, Select{Kind: Checks}) {
		t.Error("-only check runs a group without check points, or skips one with them")
	}
	if _, err := g.classify([]Point{{Experiment: "E9", Name: "c"}}, cal, Select{}); err == nil {
		t.Error("a point of an experiment its group does not list is accepted")
	}
}

// The check points are published values with their source, at least 30
// from at least 4 publications with the seed's own check experiments.
func TestCheckPointsData(t *testing.T) {
	sources := map[string]bool{}
	for _, p := range checkPoints {
		if p.source == "" || p.published <= 0 || p.tolerance <= 0 || p.name == "" {
			t.Errorf("%+v: a check point needs a source, a value and a tolerance", p)
		}
		kinds := 0
		for _, k := range []string{p.run.commScope, p.run.osu, p.run.rccl} {
			if k != "" {
				kinds++
			}
		}
		if kinds != 1 {
			t.Errorf("%s: runs %d of Comm|Scope, OSU and rccl-tests, want one", p.name, kinds)
		}
		sources[p.experiment] = true
	}
	if len(checkPoints) < 30 || len(sources) < 3 {
		t.Errorf("%d check points from %d publications", len(checkPoints), len(sources))
	}
}

// A derived tag makes its experiments derived, unless a key is calibrated
// against them; it must derive from a calibrated experiment and name only
// experiments validate has.
func TestDerivedTags(t *testing.T) {
	cal := &Calibration{}
	text := "a = 1 # calibrated [E1 pinned H2D]: why\nb = 2 # derived [E2 NUMA placement] from [E1 pinned H2D]: why\nc = 3 # derived from the others, in prose\n"
	if err := cal.Parse("d.toml", text); err != nil {
		t.Fatal(err)
	}
	if err := cal.Known(); err != nil {
		t.Fatal(err)
	}
	if cal.Kind("E1 pinned H2D") != Calibrated || cal.Kind("E2 NUMA placement") != Derived || cal.Kind("E3 host STREAM") != Checks {
		t.Errorf("kinds %s, %s, %s", cal.Kind("E1 pinned H2D"), cal.Kind("E2 NUMA placement"), cal.Kind("E3 host STREAM"))
	}
	if len(cal.Keys("E2 NUMA placement")) != 0 {
		t.Error("a derived tag counts as a calibrated key")
	}
	for _, c := range []struct{ text, want string }{
		{"b = 2 # derived [E2 NUMA placement] from [E1 pinned H2D]: why\n", `b: derived from "E1 pinned H2D", which no key is calibrated against`},
		{"a = 1 # calibrated [E1 pinned H2D, E2 NUMA placement]: why\nb = 2 # derived [E2 NUMA placement] from [E1 pinned H2D]: why\n", `b: derived "E2 NUMA placement" is also calibrated`},
		{"a = 1 # calibrated [E1 pinned H2D]: why\nb = 2 # derived [E2 NUMA placment] from [E1 pinned H2D]: why\n", `b: derived "E2 NUMA placment", which no validate point has`},
	} {
		cal := &Calibration{}
		if err := cal.Parse("d.toml", c.text); err != nil {
			t.Fatal(err)
		}
		if err := cal.Known(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}
