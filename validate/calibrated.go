package validate

import (
	"fmt"
	"regexp"
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

// Tag is one calibrated key.
type Tag struct {
	File        string
	Line        int
	Key         string // table.key
	Experiments []string
}

// Calibration is the calibrated keys of a config and its bases.
type Calibration struct {
	Tags []Tag
}

// tagForm is the comment of a calibrated key.
var tagForm = regexp.MustCompile(`^calibrated \[([^\]]+)\]: \S`)

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
			if strings.HasPrefix(comment, "calibrated [") {
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
		if !strings.HasPrefix(comment, "calibrated") {
			continue
		}
		m := tagForm.FindStringSubmatch(comment)
		if m == nil {
			return fail(key + `: a calibrated key's comment must read "# calibrated [<experiment>, ...]: <why>"`)
		}
		t := Tag{File: file, Line: n + 1, Key: key}
		for _, e := range strings.Split(m[1], ",") {
			if e = strings.TrimSpace(e); e == "" {
				return fail(key + ": an empty experiment in its calibrated tag")
			}
			t.Experiments = append(t.Experiments, e)
		}
		cal.Tags = append(cal.Tags, t)
	}
	return nil
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
		for _, e := range t.Experiments {
			if !known[e] {
				return fmt.Errorf("%s:%d: %s: calibrated against %q, which no validate point has (have: %s)",
					t.File, t.Line, t.Key, e, strings.Join(sortedKeys(known), ", "))
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
