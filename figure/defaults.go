package figure

import (
	"fmt"
	"strings"
)

// Named is a figure to write and its file's name (without extension).
type Named struct {
	Name string
	Spec Spec
}

// Defaults are the figures a results table is usually looked at as: for
// p2p each case's matrix; for workloads with sizes, value against size
// per workload (per case where one figure would hold too many lines);
// for a sweep, each metric against the first swept key where the lines
// fit in one figure.
func Defaults(t *Table) []Named {
	var out []Named
	for _, w := range distinct(t.Rows, func(r Row) string { return r.Workload }) {
		rows := keep(t.Rows, func(r Row) bool { return r.Workload == w })
		if len(t.Keys) > 0 {
			for _, m := range distinct(rows, func(r Row) string { return r.Metric }) {
				out = append(out, sweepDefaults(t, rows, w, m)...)
			}
			continue
		}
		if Auto(t, rows) == Matrix {
			for _, c := range distinct(rows, func(r Row) string { return r.Case }) {
				s := Spec{Kind: Matrix, Filter: Filter{Workload: w, Case: c}}
				if _, err := Draw(t, s); err == nil { // a trace's rows of one size name no endpoints
					out = append(out, Named{w + "-" + safe(c), s})
				}
			}
			continue
		}
		m, _ := firstMetric(rows, "")
		whole := Spec{Kind: Size, Filter: Filter{Workload: w, Metric: m}}
		if _, err := Draw(t, whole); err == nil {
			out = append(out, Named{w + "-" + m, whole})
			continue
		}
		for _, c := range distinct(rows, func(r Row) string { return r.Case }) {
			s := Spec{Kind: Size, Filter: Filter{Workload: w, Case: c, Metric: m}}
			if _, err := Draw(t, s); err == nil {
				out = append(out, Named{w + "-" + safe(c) + "-" + m, s})
			}
		}
	}
	return unique(out)
}

// unique numbers the figures whose names clash once made safe for a file
// (cases "a b" and "a_b"): the second is NAME-2, and so on.
func unique(figs []Named) []Named {
	names := make([]string, len(figs))
	for i, f := range figs {
		names[i] = f.Name
	}
	for i, n := range numbered(names) {
		figs[i].Name = n
	}
	return figs
}

// numbered numbers the names that clash: the second is NAME-2, and so on.
func numbered(names []string) []string {
	out := make([]string, len(names))
	seen := map[string]bool{}
	for i, n := range names {
		name := n
		for k := 2; seen[name]; k++ {
			name = fmt.Sprintf("%s-%d", n, k)
		}
		seen[name], out[i] = true, name
	}
	return out
}

// FileNames makes names file names a shell takes as typed, each its
// own: validate's families of points ("E4 bandwidth": E4-bandwidth).
func FileNames(names []string) []string {
	safes := make([]string, len(names))
	for i, n := range names {
		if safes[i] = safe(n); safes[i] == "" {
			safes[i] = "figure"
		}
	}
	return numbered(safes)
}

// sweepDefaults are a sweep's figures of metric m: the whole workload if
// its lines fit in one figure, else one per case, else one per case and
// source (a p2p matrix swept: a figure per source GCD, a line per
// destination and other key).
func sweepDefaults(t *Table, rows []Row, w, m string) []Named {
	by := "-" + m + "-by-" + safe(t.Keys[0])
	whole := Spec{Kind: Sweep, Filter: Filter{Workload: w, Metric: m}}
	if _, err := Draw(t, whole); err == nil {
		return []Named{{w + by, whole}}
	}
	var out []Named
	of := keep(rows, func(r Row) bool { return r.Metric == m })
	for _, c := range distinct(of, func(r Row) string { return r.Case }) {
		s := Spec{Kind: Sweep, Filter: Filter{Workload: w, Case: c, Metric: m}}
		if _, err := Draw(t, s); err == nil {
			out = append(out, Named{w + "-" + safe(c) + by, s})
			continue
		}
		inCase := keep(of, func(r Row) bool { return r.Case == c })
		for _, src := range distinct(inCase, func(r Row) string { return r.Src }) {
			s := Spec{Kind: Sweep, Filter: Filter{Workload: w, Case: c, Src: src, Metric: m}}
			if _, err := Draw(t, s); err == nil {
				out = append(out, Named{w + "-" + safe(c) + "-" + safe(src) + by, s})
			}
		}
	}
	return out
}

// safe makes a name a file name a shell takes as typed: [*] is "all",
// a run of other characters one "-" (xgmi.bundle[*].lanes:
// xgmi-bundle-all-lanes).
func safe(s string) string {
	s = strings.ReplaceAll(s, "[*]", "-all-")
	var b strings.Builder
	dash := false
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.Trim(b.String(), "-")
}
