package validate

import (
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
)

// setsTables are docs/validation.md's calibration, derived and check
// sets, made from the shipped configs' tags and validate's experiments:
// frontier-node.toml for the groups that run on the given node, each
// placed group's own config for the rest.
func setsTables(t *testing.T) string {
	t.Helper()
	type row struct {
		exp, source, kind string
		keys              []string
	}
	var rows []row
	seen := map[string]bool{}
	add := func(g group, node string) {
		cal, _, _ := shipped(t, node)
		for _, e := range g.experiments {
			if seen[e.name] {
				continue
			}
			seen[e.name] = true
			r := row{exp: e.name, source: e.source, kind: string(cal.Kind(e.name))}
			for _, tag := range cal.Tags {
				if slices.Contains(tag.Experiments, e.name) {
					k := "`" + tag.Key + "`"
					if f := path.Base(tag.File); f != "frontier-node.toml" {
						k = f + " `" + tag.Key + "`"
					}
					if tag.From != nil {
						k += " (from " + strings.Join(tag.From, ", ") + ")"
					}
					r.keys = append(r.keys, k)
				}
			}
			rows = append(rows, r)
		}
	}
	for _, g := range groups() {
		add(g, "frontier-node.toml")
	}
	for _, pg := range placedGroups() {
		add(pg.g, pg.node)
	}
	var b strings.Builder
	for _, k := range []struct{ kind, title, col string }{
		{"calibrated", "Calibration set", "keys fitted to it"},
		{"derived", "Derived set", "the key that decides it"},
		{"check", "Check set", ""},
	} {
		fmt.Fprintf(&b, "%s:\n\n", k.title)
		if k.col != "" {
			fmt.Fprintf(&b, "| experiment | source | %s |\n| --- | --- | --- |\n", k.col)
		} else {
			b.WriteString("| experiment | source |\n| --- | --- |\n")
		}
		for _, r := range rows {
			if r.kind != k.kind {
				continue
			}
			src := strings.ReplaceAll(r.source, "|", "\\|")
			exp := strings.ReplaceAll(r.exp, "|", "\\|")
			if k.col != "" {
				fmt.Fprintf(&b, "| %s | %s | %s |\n", exp, src, strings.Join(r.keys, ", "))
			} else {
				fmt.Fprintf(&b, "| %s | %s |\n", exp, src)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// docs/validation.md lists the calibration, derived and check sets as the
// configs' tags make them: a tag added, moved or dropped shows here.
func TestValidationDocListsTheSets(t *testing.T) {
	doc, err := os.ReadFile("../docs/validation.md")
	if err != nil {
		t.Fatal(err)
	}
	want := setsTables(t)
	if !strings.Contains(string(doc), want) {
		t.Errorf("docs/validation.md does not hold the sets as the configs tag them; want:\n%s", want)
	}
}
