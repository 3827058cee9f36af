package config

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/config.md's key table from Params")

const (
	tableBegin = "<!-- keys: generated from config/params.go by `go test ./config -run TestConfigDocKeyTable -update` -->"
	tableEnd   = "<!-- keys end -->"
)

// docs/config.md's key table is Params with frontier-node.toml's values
// and source tags, as keyTable writes it.
func TestConfigDocKeyTable(t *testing.T) {
	const doc = "../docs/config.md"
	text := readFile(t, doc)
	begin, end := strings.Index(text, tableBegin), strings.Index(text, tableEnd)
	if begin < 0 || end < begin {
		t.Fatalf("%s: no %q ... %q section", doc, tableBegin, tableEnd)
	}
	want := text[:begin] + tableBegin + "\n\n" + keyTable(t) + "\n" + text[end:]
	if want == text {
		return
	}
	if *update {
		if err := os.WriteFile(doc, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the key table is not Params': run go test ./config -run TestConfigDocKeyTable -update", doc)
}

// keyTable renders every key in the decoder's order: its frontier-node
// value (the default), unit, range, source tag and meaning.
func keyTable(t *testing.T) string {
	path := shippedPath(t, "frontier-node")
	text := readFile(t, path)
	n, err := Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(text, "\n")
	ix := indexLines(text)
	var b strings.Builder
	b.WriteString("| key | frontier-node | unit | range | source | meaning |\n|---|---|---|---|---|---|\n")
	for _, k := range decoderKeys(reflect.TypeFor[Node](), "") {
		p := ParamOf(k.key)
		source := ""
		if l := ix.lookup(ParamPath(k.key)); l > 0 {
			source = sourceTag(lines[l-1])
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", k.key, value(n, k.key), p.Unit, rangeText(p, scalar(k.typ) == reflect.Float64), source, p.Doc)
	}
	return b.String()
}

var tagRE = regexp.MustCompile(`^(\((T|M|C)\)|calibrated|assumed|sim:)`)

// sourceTag is the source tag of a TOML line's comment ((T), (M), (C),
// calibrated, assumed, sim), or "".
func sourceTag(line string) string {
	_, comment, ok := strings.Cut(line, "#")
	if !ok {
		return ""
	}
	m := tagRE.FindString(strings.TrimSpace(comment))
	return strings.TrimSuffix(m, ":")
}

// value is key's value in n, lists of tables listing their elements'.
func value(n *Node, key string) string {
	var vals []string
	var walk func(v reflect.Value, parts []string)
	walk = func(v reflect.Value, parts []string) {
		if len(parts) == 0 {
			vals = append(vals, show(v))
			return
		}
		if v.Kind() == reflect.Slice {
			for i := range v.Len() {
				walk(v.Index(i), parts)
			}
			return
		}
		f, _ := fieldByKey(v.Type(), parts[0])
		walk(v.Field(f.index), parts[1:])
	}
	walk(reflect.ValueOf(*n), strings.Split(key, "."))
	if len(vals) > 4 {
		return "by entry"
	}
	return strings.Join(vals, "; ")
}

func show(v reflect.Value) string {
	switch v.Kind() {
	case reflect.String:
		return strconv.Quote(v.String())
	case reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case reflect.Slice, reflect.Array:
		var s []string
		for i := range v.Len() {
			s = append(s, show(v.Index(i)))
		}
		if len(s) > 8 {
			s = append(s[:4], "…")
		}
		return "[" + strings.Join(s, ", ") + "]"
	}
	return fmt.Sprint(v.Interface())
}

// rangeText is a declaration's checks in words.
func rangeText(p *Param, float bool) string {
	var parts []string
	switch {
	case p.Ranged && float:
		parts = append(parts, fmtFloat(p.Lo)+".."+fmtFloat(p.Hi))
	case p.Ranged:
		parts = append(parts, bound(p, p.Lo)+".."+bound(p, p.Hi))
	}
	if p.Pow2 {
		parts = append(parts, "power of two")
	}
	if p.OneOf != nil {
		var q []string
		for _, a := range p.OneOf {
			q = append(q, "`"+strconv.Quote(a)+"`")
		}
		parts = append(parts, strings.Join(q, ", "))
	}
	s := strings.Join(parts, ", ")
	if p.Rule != "" {
		if s != "" {
			s += "; "
		}
		s += p.Rule
	}
	return s
}

// bound writes an integer bound, bytes of whole KiB, MiB, ... in them.
func bound(p *Param, x float64) string {
	i, u := int64(x), 0
	for p.Unit == "bytes" && i != 0 && i%1024 == 0 && u < 5 {
		i /= 1024
		u++
	}
	return strconv.FormatInt(i, 10) + []string{"", " KiB", " MiB", " GiB", " TiB", " PiB"}[u]
}
