package config

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
)

// A config may derive from another: `base = "frontier-node.toml"` at its top
// (a root key, before any [table]) takes every value of that config, and the
// file gives only what differs. The rule is one merge, key by key:
//
//   - a table merges: keys the derived file leaves out keep the base's value;
//   - [[xgmi.bundle]] entries merge by GCD pair: an entry whose gcds join
//     the pair of a base bundle (either order) overrides that bundle's keys,
//     an entry for a new pair is added after the base's bundles (so -set
//     indices are the base's order, then the new ones); lanes = 0 removes one;
//   - a layer that gives a smaller gcd.count removes its bases' bundles of
//     the GCDs it no longer has (dropBeyond);
//   - every other value, arrays included (host.gcd_numa), replaces the base's.
//
// The base is a path relative to the deriving file's folder (or absolute);
// a bare name not found there is a config built into the binary, and a
// built-in config's base is built in too. A base may derive in turn, at most
// maxBaseDepth files in all, without cycles. The strict checks apply to the
// merged config, and every error names the file and line that wrote the
// offending value, base or derived; a check that compares keys blames the
// latest layer that wrote one of them (origin.blame).

// maxBaseDepth bounds a chain of bases (a symlink loop makes endless paths).
const maxBaseDepth = 8

// layer is one file of a chain of bases.
type layer struct {
	file  string // its name in errors
	text  string
	lines *lineIndex
}

// Source is a config's text and the bases it derives from, each read once:
// Node merges and checks them for any -set overrides.
type Source struct {
	layers []layer // base-most first; the last is the config itself

	once    sync.Once // the layers decoded (Node's steps 1-3), kept for every Node
	decoded *Node
	at      *origin
	err     error
}

// NewSource parses the config text data (file names it in errors and
// locates its base) and reads the chain of bases it derives from. builtin
// holds the configs built into the binary and may be nil.
func NewSource(file string, data []byte, builtin fs.FS) (*Source, error) {
	s := &Source{}
	seen := map[string]bool{}
	for {
		l := layer{file: file, text: string(data), lines: indexLines(string(data))}
		raw, err := l.decode()
		if err != nil {
			return nil, err
		}
		s.layers = append([]layer{l}, s.layers...)
		seen[identity(file)] = true
		v, ok := raw["base"]
		if !ok {
			return s, nil
		}
		fail := func(format string, args ...any) error {
			return &Error{File: file, Line: l.lines.lookup("base"), Key: "base", Msg: fmt.Sprintf(format, args...)}
		}
		name, ok := v.(string)
		if !ok {
			return nil, fail("must be a string naming a config file, got %s", describe(v))
		}
		if !strings.HasSuffix(name, ".toml") || name == ".toml" {
			return nil, fail("must name a .toml file, got %s", describe(v))
		}
		if len(s.layers) == maxBaseDepth {
			return nil, fail("more than %d configs deep (%s)", maxBaseDepth, s.chain(" -> "))
		}
		next, text, why, err := findBase(file, name, builtin)
		if err != nil {
			return nil, err
		}
		if next == "" {
			return nil, fail("%s", why)
		}
		if seen[identity(next)] {
			return nil, fail("cycle (%s -> %s)", s.chain(" -> "), next)
		}
		file, data = next, text
	}
}

// Layers are the config's files, base-most first: each one's name and text
// (validate reads the calibrated tags of their comments).
func (s *Source) Layers() (names, texts []string) {
	for _, l := range s.layers {
		names, texts = append(names, l.file), append(texts, l.text)
	}
	return names, texts
}

// decode parses the layer's TOML into generic data.
func (l *layer) decode() (map[string]any, error) {
	var raw map[string]any
	if _, err := toml.Decode(l.text, &raw); err != nil {
		return nil, syntaxError(l.file, l.lines, err)
	}
	return raw, nil
}

// chain names the files from the config itself down to its last base.
func (s *Source) chain(sep string) string { return strings.Join(s.Files(), sep) }

// Files names the config and its bases, the config first: what a run
// reads, so that no output overwrites it.
func (s *Source) Files() []string {
	names := make([]string, len(s.layers))
	for i, l := range s.layers {
		names[len(names)-1-i] = l.file
	}
	return names
}

// identity tells two names of one config apart from two configs.
func identity(file string) string {
	if strings.HasPrefix(file, "embedded:") {
		return file
	}
	if abs, err := filepath.Abs(file); err == nil {
		return abs
	}
	return filepath.Clean(file)
}

// findBase reads the base name of the config including. It returns the
// base's file name and text, or no name and why none was found; err is a
// read error.
func findBase(including, name string, builtin fs.FS) (file string, data []byte, why string, err error) {
	if strings.HasPrefix(including, "embedded:") {
		file, data, err = openBuiltin(builtin, name)
		return file, data, fmt.Sprintf("%s not found among the built-in configs (%s)", name, strings.Join(Builtin(builtin), ", ")), err
	}
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(including), name)
	}
	if st, err := os.Stat(p); err == nil {
		if !st.Mode().IsRegular() {
			return "", nil, p + " is not a regular file", nil
		}
		data, err := ReadFile(p)
		return p, data, "", err
	}
	why = fmt.Sprintf("%s not found (no file %s, no built-in config of that name)", name, p)
	if strings.ContainsAny(name, `/\`) {
		return "", nil, why, nil
	}
	file, data, err = openBuiltin(builtin, name)
	return file, data, why, err
}

// place is where a key was written: a layer and a line in it (0: unknown).
type place struct {
	layer, line int
}

// origin maps the key paths of a merged config to where they were written.
type origin struct {
	files []string
	at    map[string]place
}

// find is the place of key or of its nearest enclosing key that has one.
func (o *origin) find(key string) (place, bool) {
	for k := key; k != ""; k = parentKey(k) {
		if p, ok := o.at[k]; ok {
			return p, true
		}
	}
	return place{}, false
}

// lookup orders keys by file (base-most first), then line.
func (o *origin) lookup(key string) int {
	p, _ := o.find(key)
	return p.layer<<32 | p.line
}

// errorAt is an error at key, in the file and line that wrote it (the
// config itself when no file did).
func (o *origin) errorAt(key, msg string) *Error {
	p, ok := o.find(key)
	if !ok {
		p.layer = len(o.files) - 1
	}
	return &Error{File: o.files[p.layer], Line: p.line, Key: key, Msg: msg}
}

// blame is the error at key, checked against related: in the file and
// line that wrote key, unless a later layer (a derived config) wrote one of
// them, inside or around it; then in that layer, at the first of key and
// related it wrote (the user's change that broke the check, not the
// base's value it broke).
func (o *origin) blame(key string, related []string, msg string) *Error {
	keys := append([]string{key}, related...)
	top := -1
	for k, p := range o.at {
		if p.layer > top && touches(k, keys) {
			top = p.layer
		}
	}
	if p, ok := o.find(key); !ok || p.layer >= top {
		return o.errorAt(key, msg)
	}
	at := func(line int) *Error { return &Error{File: o.files[top], Line: line, Key: key, Msg: msg} }
	for _, r := range keys {
		if p, ok := o.at[r]; ok && p.layer == top {
			return at(p.line)
		}
	}
	for _, r := range keys {
		line := 0
		for k, p := range o.at {
			if p.layer == top && touches(k, []string{r}) && (line == 0 || p.line < line) {
				line = p.line
			}
		}
		if line > 0 {
			return at(line)
		}
	}
	return o.errorAt(key, msg) // not reached: top is some key's layer
}

// merge merges the layers into one config's generic data.
func (s *Source) merge() (map[string]any, *origin, error) {
	o := &origin{at: map[string]place{}}
	out := map[string]any{}
	for i, l := range s.layers {
		raw, err := l.decode()
		if err != nil {
			return nil, nil, err
		}
		delete(raw, "base")
		o.files = append(o.files, l.file)
		m := &merger{o: o, layer: i, lines: l.lines}
		if err := m.table(out, raw, "", ""); err != nil {
			return nil, nil, err
		}
		if i == 0 { // every key the first file defines, as its line index has them
			for k, line := range l.lines.key {
				o.at[k] = place{0, line}
			}
		} else {
			m.dropBeyond(out, raw)
		}
	}
	return out, o, nil
}

// dropBeyond removes, when the layer gives a smaller gcd.count, the
// bundles its bases wrote that join a GCD past it: a derived node of
// fewer GCDs states its own bundles, not a list of removed ones. A bundle
// the layer itself writes to a missing GCD stays, for the check to report.
// Removed is lanes = 0, as a file would write it, so -set indices keep
// the bases' order; the layer's gcd.count is where the removal comes from.
func (m *merger) dropBeyond(out, raw map[string]any) {
	gcd, _ := raw["gcd"].(map[string]any)
	count, ok := gcd["count"].(int64)
	if !ok {
		return
	}
	own := map[[2]int]bool{}
	if x, _ := raw["xgmi"].(map[string]any); x != nil {
		mine, _ := asArray(x["bundle"])
		for _, b := range mine {
			if p, ok := bundlePair(b); ok {
				own[p] = true
			}
		}
	}
	xgmi, _ := out["xgmi"].(map[string]any)
	bundles, _ := asArray(xgmi["bundle"])
	for i, b := range bundles {
		p, ok := bundlePair(b)
		if !ok || int64(p[1]) < count || own[p] {
			continue
		}
		b.(map[string]any)["lanes"] = int64(0)
		m.o.at[indexKey("xgmi.bundle", i)+".lanes"] = place{m.layer, m.lines.lookup("gcd.count")}
	}
}

// merger merges one layer into the data of the layers below it.
type merger struct {
	o     *origin
	layer int
	lines *lineIndex
}

// table merges src into dst; dpath and spath are their key paths in the
// merged config and in the layer's file.
func (m *merger) table(dst, src map[string]any, dpath, spath string) error {
	keys := make([]string, 0, len(src))
	for k := range src {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		dk, sk := joinKey(dpath, k), joinKey(spath, k)
		old, had := dst[k]
		oldTable, isTable := old.(map[string]any)
		newTable, newIsTable := src[k].(map[string]any)
		switch {
		case had && isTable && newIsTable:
			if err := m.table(oldTable, newTable, dk, sk); err != nil {
				return err
			}
		case had && dk == "xgmi.bundle":
			merged, err := m.bundles(old, src[k], dk, sk)
			if err != nil {
				return err
			}
			dst[k] = merged
		default:
			dst[k] = src[k]
			m.forget(dk)
			m.record(src[k], dk, sk)
		}
	}
	return nil
}

// bundles merges the layer's [[xgmi.bundle]] entries into the base's by
// GCD pair; an entry for a new pair (or without a pair) is appended.
func (m *merger) bundles(old, src any, dpath, spath string) ([]any, error) {
	out, _ := asArray(old)
	out = append([]any(nil), out...)
	elems, ok := asArray(src)
	if !ok { // not an array: replaced, for the type check to report
		m.forget(dpath)
		m.record(src, dpath, spath)
		return []any{src}, nil
	}
	given := map[[2]int]int{} // pair -> entry of this layer
	for j, e := range elems {
		sk := indexKey(spath, j)
		t, _ := e.(map[string]any)
		key, ok := bundlePair(t)
		at := -1
		if ok {
			if prev, dup := given[key]; dup {
				return nil, &Error{File: m.o.files[m.layer], Line: m.lines.lookup(sk), Key: sk + ".gcds",
					Msg: fmt.Sprintf("the same GCD pair as %s", indexKey(spath, prev))}
			}
			given[key] = j
			for i, b := range out {
				if k, ok := bundlePair(b); ok && k == key {
					at = i
				}
			}
		}
		if at < 0 {
			out = append(out, e)
			m.record(e, indexKey(dpath, len(out)-1), sk)
			continue
		}
		if err := m.table(out[at].(map[string]any), t, indexKey(dpath, at), sk); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// bundlePair is the GCD pair a bundle table joins, if it names one.
func bundlePair(b any) ([2]int, bool) {
	t, _ := b.(map[string]any)
	g, ok := asArray(t["gcds"])
	if !ok || len(g) != 2 {
		return [2]int{}, false
	}
	a, okA := g[0].(int64)
	c, okC := g[1].(int64)
	if !okA || !okC || a != int64(int(a)) || c != int64(int(c)) {
		return [2]int{}, false
	}
	return pair(int(a), int(c)), true
}

// record notes where v and everything in it was written.
func (m *merger) record(v any, dpath, spath string) {
	if line, ok := m.lines.key[spath]; ok {
		m.o.at[dpath] = place{m.layer, line}
	}
	if t, ok := v.(map[string]any); ok {
		for k, x := range t {
			m.record(x, joinKey(dpath, k), joinKey(spath, k))
		}
	}
	if a, ok := asArray(v); ok {
		for i, x := range a {
			m.record(x, indexKey(dpath, i), indexKey(spath, i))
		}
	}
}

// forget drops the places of a replaced value.
func (m *merger) forget(dpath string) {
	for k := range m.o.at {
		if k == dpath || isBelow(k, dpath) {
			delete(m.o.at, k)
		}
	}
}
