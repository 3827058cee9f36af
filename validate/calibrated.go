package validate

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/akisim/akisim/config"
)

// A calibrated key of a config says which points it was fitted to, in its
// line's comment:
//
//	hub_forward_ns = 490 # calibrated [E4 latency]: why
//
// Each name in the brackets is a Point.Experiment. A point is calibration
// when some key names its experiment, a check point otherwise, so the
// split follows the configs, not a list kept by hand.
//
// A key whose value makes some points follow from a calibration says so:
//
//	remote_numa_ns = 50 # derived [E2 NUMA placement] from [E1 pinned H2D]: why
//
// Those points are derived: they repeat what the calibration decided, so
// they count as neither calibration nor an independent check.

// Tag is one calibrated or derived key.
type Tag struct {
	File        string
	Line        int
	Key         string   // table.key
	Experiments []string // fitted to (calibrated) or following from (derived)
	From        []string // derived: the calibrated experiments they follow from
}

// Calibration is the calibrated keys of a config and its bases.
type Calibration struct {
	Tags []Tag
}

// tagForm is the comment of a calibrated key, derivedForm of a derived one.
var (
	tagForm     = regexp.MustCompile(`^calibrated \[([^\]]+)\]: \S`)
	derivedForm = regexp.MustCompile(`^derived \[([^\]]+)\] from \[([^\]]+)\]: \S`)
)

// Parse adds the calibrated tags of one config file's text.
// A comment that begins "calibrated" but is not of the tag's form is an
// error, so a key cannot claim calibration without naming its points.
func (cal *Calibration) Parse(file, text string) error {
	table := ""
	for n, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		code, comment := splitComment(line)
		code = strings.TrimSpace(code)
		fail := func(what string) error {
			return fmt.Errorf("%s:%d: %s", file, n+1, what)
		}
		switch {
		case code == "":
			if strings.HasPrefix(comment, "calibrated [") || strings.HasPrefix(comment, "derived [") {
				return fail("a calibrated tag belongs on the line of the key it describes")
			}
			continue
		case strings.HasPrefix(code, "["):
			table = strings.Trim(code, "[] ")
			continue
		}
		key, _, ok := strings.Cut(code, "=")
		if !ok {
			continue // a continued array
		}
		key = strings.TrimSpace(key)
		if table != "" {
			key = table + "." + key
		}
		t := Tag{File: file, Line: n + 1, Key: key}
		var err error
		switch {
		case strings.HasPrefix(comment, "calibrated"):
			m := tagForm.FindStringSubmatch(comment)
			if m == nil {
				return fail(key + `: a calibrated key's comment must read "# calibrated [<experiment>, ...]: <why>"`)
			}
			t.Experiments, err = tagList(m[1])
		case strings.HasPrefix(comment, "derived ["):
			m := derivedForm.FindStringSubmatch(comment)
			if m == nil {
				return fail(key + `: a derived key's comment must read "# derived [<experiment>, ...] from [<calibrated experiment>, ...]: <why>"`)
			}
			if t.Experiments, err = tagList(m[1]); err == nil {
				t.From, err = tagList(m[2])
			}
		default:
			continue
		}
		if err != nil {
			return fail(key + ": " + err.Error())
		}
		cal.Tags = append(cal.Tags, t)
	}
	return nil
}

// tagList splits a tag's bracketed, comma-separated experiments.
func tagList(s string) ([]string, error) {
	var es []string
	for _, e := range strings.Split(s, ",") {
		if e = strings.TrimSpace(e); e == "" {
			return nil, fmt.Errorf("an empty experiment in its tag")
		}
		es = append(es, e)
	}
	return es, nil
}

// splitComment cuts a TOML line at its comment's '#', outside strings.
func splitComment(line string) (code, comment string) {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == '\\' && quote == '"':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
		case c == '"' || c == '\'':
			quote = c
		case c == '#':
			return line[:i], strings.TrimSpace(line[i+1:])
		}
	}
	return line, ""
}

// Keys are the keys fitted to experiment exp, as file:line: key.
func (cal *Calibration) Keys(exp string) []string {
	var keys []string
	for _, t := range cal.Tags {
		if t.From != nil {
			continue
		}
		for _, e := range t.Experiments {
			if e == exp {
				keys = append(keys, fmt.Sprintf("%s:%d: %s", t.File, t.Line, t.Key))
			}
		}
	}
	return keys
}

// Calibrated says whether some key was fitted to experiment exp.
func (cal *Calibration) Calibrated(exp string) bool { return len(cal.Keys(exp)) > 0 }

// derived says whether some key's derived tag names experiment exp.
func (cal *Calibration) derived(exp string) bool {
	for _, t := range cal.Tags {
		if t.From != nil && slices.Contains(t.Experiments, exp) {
			return true
		}
	}
	return false
}

// Kind is the kind of experiment exp's points: calibration, derived from
// a calibration, or an independent check.
func (cal *Calibration) Kind(exp string) Kind {
	switch {
	case cal.Calibrated(exp):
		return Calibrated
	case cal.derived(exp):
		return Derived
	}
	return Checks
}

// Known checks that every tag names an experiment validate has, so a typo
// cannot turn a calibration point into a check point.
func (cal *Calibration) Known() error {
	known := map[string]bool{}
	gs := groups()
	for _, pg := range placedGroups() {
		gs = append(gs, pg.g)
	}
	for _, g := range gs {
		for _, e := range g.experiments {
			known[e.name] = true
		}
	}
	for _, t := range cal.Tags {
		what := "calibrated against"
		if t.From != nil {
			what = "derived"
		}
		for _, e := range append(append([]string{}, t.Experiments...), t.From...) {
			if !known[e] {
				return fmt.Errorf("%s:%d: %s: %s %q, which no validate point has (have: %s)",
					t.File, t.Line, t.Key, what, e, strings.Join(sortedKeys(known), ", "))
			}
		}
		for _, e := range t.From {
			if !cal.Calibrated(e) {
				return fmt.Errorf("%s:%d: %s: derived from %q, which no key is calibrated against", t.File, t.Line, t.Key, e)
			}
		}
		for _, e := range t.Experiments {
			if t.From != nil && cal.Calibrated(e) {
				return fmt.Errorf("%s:%d: %s: derived %q is also calibrated: a point is one or the other", t.File, t.Line, t.Key, e)
			}
		}
	}
	return nil
}

func sortedKeys(m map[string]bool) []string {
	var s []string
	for k := range m {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}

// CalibrationOf reads the calibrated tags of a config and of every base it
// derives from.
func CalibrationOf(src *config.Source) (*Calibration, error) {
	cal := &Calibration{}
	names, texts := src.Layers()
	for i := range names {
		if err := cal.Parse(names[i], texts[i]); err != nil {
			return nil, err
		}
	}
	return cal, nil
}
