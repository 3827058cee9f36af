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
// old one. String fields also take a bare word: routing.sdma=fewest.

var segmentRE = regexp.MustCompile(`^([A-Za-z0-9_-]+)(?:\[(\d+)(?:-(\d+))?\])?$`)

var bundleType = reflect.TypeOf(Bundle{})

// setter applies -set overrides and remembers which key each one wrote.
type setter struct {
	sets []string
	prov map[string]int // key path written -> index in sets
}

// apply applies sets[i] to n. It returns a one-line *Error on failure.
// A key with [*] (xgmi.bundle[*].lanes=2) sets every element in turn.
func (st *setter) apply(n *Node, i int) error {
	kv := st.sets[i]
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
	cur.Set(tmp)

	if written == "" {
		written = path
	}
	for k := range st.prov {
		if k == written || isBelow(k, written) {
			delete(st.prov, k)
		}
	}
	st.prov[written] = i
	return nil
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

// blame returns the index of the latest -set that wrote key, a table or
// array holding it, something inside it, or one of the related keys; -1 if
// none did.
func (st *setter) blame(key string, related []string) int {
	best := -1
	for k, i := range st.prov {
		if i <= best {
			continue
		}
		for _, r := range append([]string{key}, related...) {
			if k == r || isBelow(k, r) || isBelow(r, k) {
				best = i
				break
			}
		}
	}
	return best
}
