package config

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
)

// A -set override is KEY=VALUE. KEY is a dotted TOML key path over the
// `toml` tags of Node. A path component may carry a selector:
//
//	xgmi.bundle[3].lanes=2     element 3 of an array (0-based, file order)
//	xgmi.bundle[0-2].lanes=2   the bundle joining GCDs 0 and 2 (either order);
//	                           setting lanes of a pair with no bundle adds one
//	host.gcd_numa[4]=1         one element of a plain array
//
// Bundle lanes = 0 removes the bundle (after validation, so indices stay
// those of the file). VALUE is a TOML value: 25, 1.5, "fewest", [3,3,1,1],
// {lanes = 2}; a table merges into the existing one, an array replaces the
// old one. String fields also take a bare word: routing.sdma=fewest. Two
// overrides may not write one value, however spelled (a pair and its index,
// [*] and an element, a table and its key): one would be lost silently.

var segmentRE = regexp.MustCompile(`^([A-Za-z0-9_-]+)(?:\[(\d+)(?:-(\d+))?\])?$`)

var bundleType = reflect.TypeOf(Bundle{})

// Override is one KEY=VALUE override and how the user gave it, which its
// errors name: a -set, or another flag that made it (-env NCCL_PROTO=LL is
// env.NCCL_PROTO=LL; akisim's -nodes and -procs make network.nodes).
type Override struct {
	Set  string // KEY=VALUE
	Flag string // the flag as typed; "" for -set Set
}

// Sets are -set overrides as typed.
func Sets(sets []string) []Override {
	out := make([]Override, len(sets))
	for i, s := range sets {
		out[i] = Override{Set: s}
	}
	return out
}

// EnvOverride is the override -env NAME=VALUE makes: env.NAME=VALUE.
func EnvOverride(nameValue string) (Override, bool) {
	name, value, ok := strings.Cut(nameValue, "=")
	return Override{Set: "env." + strings.TrimSpace(name) + "=" + value, Flag: "-env " + nameValue}, ok
}

// Typed is how the user gave the override: its flag and value.
func (o Override) Typed() string {
	if o.Flag != "" {
		return o.Flag
	}
	return "-set " + o.Set
}

// setter applies overrides and remembers which keys each one wrote.
// Two overrides may not write one value: one would be lost, and the
// order of the flags would matter.
type setter struct {
	sets []Override
	prov map[string]int // key path written -> index in sets
}

// apply applies sets[i] to n. It returns a one-line *Error on failure.
// A key with [*] (xgmi.bundle[*].lanes=2) sets every element in turn.
func (st *setter) apply(n *Node, i int) error {
	err := st.applyAll(n, i)
	if e, ok := err.(*Error); ok {
		e.Flag = st.sets[i].Flag
	}
	return err
}

func (st *setter) applyAll(n *Node, i int) error {
	kv := st.sets[i].Set
	if pre, post, ok := strings.Cut(kv, "[*]"); ok && !strings.Contains(pre, "=") {
		count, err := arrayLen(n, pre)
		if err != nil {
			return &Error{Set: kv, Msg: err.Error()}
		}
		for k := range count {
			if err := st.applyOne(n, fmt.Sprintf("%s[%d]%s", pre, k, post), i); err != nil {
				err.(*Error).Set = kv
				return err
			}
		}
		return nil
	}
	return st.applyOne(n, kv, i)
}

// arrayLen is the length of the array at the dotted key path (no
// selectors) in n.
func arrayLen(n *Node, path string) (int, error) {
	cur := reflect.ValueOf(n).Elem()
	for _, seg := range strings.Split(path, ".") {
		f, ok := fieldByKey(cur.Type(), seg)
		if cur.Kind() != reflect.Struct || !ok {
			return 0, fmt.Errorf("bad key %q before [*]: want an array's dotted path, like xgmi.bundle[*].lanes", path)
		}
		cur = cur.Field(f.index)
	}
	if cur.Kind() != reflect.Slice && cur.Kind() != reflect.Array {
		return 0, fmt.Errorf("%s is not an array, it takes no [*]", path)
	}
	return cur.Len(), nil
}

// applyOne applies the override kv (written as sets[i]) to n.
func (st *setter) applyOne(n *Node, kv string, i int) error {
	fail := func(key, format string, args ...any) error {
		d := &decoder{}
		d.fail(key, format, args...)
		return &Error{Set: kv, Key: key, Msg: d.errs[0].msg}
	}
	rawKey, raw, ok := strings.Cut(kv, "=")
	rawKey = strings.TrimSpace(rawKey)
	if !ok || rawKey == "" {
		return fail("", "want KEY=VALUE, e.g. xgmi.lane_bandwidth_gbps=25")
	}

	cur := reflect.ValueOf(n).Elem()
	path := ""
	written := "" // provenance key; the element path when a bundle is added
	segs := strings.Split(rawKey, ".")
	for si, seg := range segs {
		m := segmentRE.FindStringSubmatch(seg)
		if m == nil {
			return fail("", "bad key %q: want dotted names like xgmi.bundle[0-2].lanes", rawKey)
		}
		if cur.Kind() != reflect.Struct {
			return fail(path, "is not a table, so it has no key %q", m[1])
		}
		f, ok := fieldByKey(cur.Type(), m[1])
		key := joinKey(path, m[1])
		if !ok {
			if path == "" {
				return fail("", "unknown key %q (known: %s)", key, keyList(cur.Type()))
			}
			return fail("", "unknown key %q (%s has: %s)", key, path, keyList(cur.Type()))
		}
		cur = cur.Field(f.index)
		path = key
		if m[2] == "" {
			continue
		}
		if cur.Kind() != reflect.Slice && cur.Kind() != reflect.Array {
			return fail("", "%s is not an array, it takes no %s", path, strings.TrimPrefix(seg, m[1]))
		}
		a, err := strconv.Atoi(m[2])
		if err != nil {
			return fail("", "bad index in %q", seg)
		}
		if m[3] == "" { // by index
			if a >= cur.Len() {
				return fail("", "%s has %d elements, no [%d]", path, cur.Len(), a)
			}
			cur = cur.Index(a)
			path = indexKey(path, a)
			continue
		}
		// By GCD pair.
		if cur.Type().Elem() != bundleType || cur.Kind() != reflect.Slice {
			return fail("", "%s is not a bundle list, it takes no GCD pair [%s-%s]", path, m[2], m[3])
		}
		b, err := strconv.Atoi(m[3])
		if err != nil {
			return fail("", "bad GCD pair in %q", seg)
		}
		want := pair(a, b)
		idx := -1
		for j := 0; j < cur.Len(); j++ {
			g := cur.Index(j).Interface().(Bundle).GCDs
			if pair(g[0], g[1]) == want {
				idx = j
				break
			}
		}
		if idx < 0 {
			rest := segs[si+1:]
			if len(rest) > 1 || len(rest) == 1 && rest[0] != "lanes" {
				return fail("", "no bundle joins GCD %d and GCD %d (only lanes can add one)", a, b)
			}
			idx = cur.Len()
			cur.Set(reflect.Append(cur, reflect.ValueOf(Bundle{GCDs: [2]int{a, b}})))
			written = indexKey(path, idx)
		}
		cur = cur.Index(idx)
		path = indexKey(path, idx)
	}

	data, err := parseSetValue(raw, cur.Kind() == reflect.String)
	if err != nil {
		return fail(path, "%s", err.Error())
	}
	d := &decoder{}
	tmp := reflect.New(cur.Type()).Elem()
	tmp.Set(cur)
	d.assign(tmp, data, path)
	if len(d.errs) > 0 {
		e := d.errs[0]
		return &Error{Set: kv, Key: e.key, Msg: e.msg}
	}
	var keys []string // what the override wrote: an added bundle, else the leaves of its value
	if written != "" {
		keys = []string{written}
	} else {
		keys = writtenKeys(data, path)
	}
	if err := st.repeated(keys, i, kv); err != nil {
		return err
	}
	cur.Set(tmp)
	for _, k := range keys {
		st.prov[k] = i
	}
	return nil
}

// repeated refuses keys (written by sets[i]) when an earlier override
// wrote one of them, a table holding one or a value inside one. It names
// the earliest such override and the deeper key of the two.
func (st *setter) repeated(keys []string, i int, kv string) error {
	first, key := -1, ""
	for k, j := range st.prov {
		for _, w := range keys {
			if j == i || k != w && !isBelow(k, w) && !isBelow(w, k) {
				continue
			}
			both := k
			if len(w) > len(k) {
				both = w
			}
			if first < 0 || j < first || j == first && both < key {
				first, key = j, both
			}
		}
	}
	if first < 0 {
		return nil
	}
	return &Error{Set: kv, Also: st.sets[first].Typed(), Key: key, Msg: "both set " + key + "; give one"}
}

// writtenKeys are the key paths a value set at path writes: a table merges, so
// its keys (and theirs); any other value, an array too, replaces path.
func writtenKeys(v any, path string) []string {
	t, ok := v.(map[string]any)
	if !ok {
		return []string{path}
	}
	var out []string
	for k, x := range t {
		out = append(out, writtenKeys(x, joinKey(path, k))...)
	}
	return out
}

// parseSetValue parses VALUE as a TOML value. A bare word is taken as a
// string when the target is a string.
func parseSetValue(raw string, wantString bool) (any, error) {
	var m map[string]any
	_, err := toml.Decode("v = "+raw, &m)
	v, ok := m["v"]
	single := err == nil && ok && len(m) == 1
	if single {
		if _, isStr := v.(string); isStr || !wantString {
			return v, nil
		}
	}
	if wantString {
		w := strings.TrimSpace(raw)
		if w == "" || !strings.ContainsAny(w[:1], `"'[{`) {
			if !utf8.ValidString(w) || strings.IndexFunc(w, unicode.IsControl) >= 0 {
				return nil, &Error{Msg: "VALUE must be UTF-8 text without control characters"}
			}
			return w, nil
		}
	}
	if single {
		return v, nil // not a string; the caller reports the type
	}
	if err == nil {
		return nil, &Error{Msg: "VALUE must be a single TOML value"}
	}
	msg := err.Error()
	if pe, ok := err.(toml.ParseError); ok {
		msg = pe.Message
	}
	return nil, &Error{Msg: "cannot parse VALUE as TOML: " + msg}
}

// isBelow reports whether key k lies inside key path p ("a.b[1].c" is below
// "a.b" and "a.b[1]").
func isBelow(k, p string) bool {
	return len(k) > len(p) && strings.HasPrefix(k, p) && (k[len(p)] == '.' || k[len(p)] == '[')
}

// blame returns the index of the override that wrote key (a table or
// array holding it, or something inside it), else of the last that wrote
// one of the related keys; -1 if none did. Overrides never write one value
// twice, so the one that wrote key does not depend on the flags' order.
func (st *setter) blame(key string, related []string) int {
	for _, keys := range [][]string{{key}, related} {
		best := -1
		for k, i := range st.prov {
			if i > best && touches(k, keys) {
				best = i
			}
		}
		if best >= 0 {
			return best
		}
	}
	return -1
}

// touches reports whether a value written at key path k is one of keys,
// inside one or holds one.
func touches(k string, keys []string) bool {
	for _, r := range keys {
		if k == r || isBelow(k, r) || isBelow(r, k) {
			return true
		}
	}
	return false
}
