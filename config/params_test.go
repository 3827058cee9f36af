package config

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// tomlKey is one key the TOML decoder knows: a value that is not a table.
type tomlKey struct {
	key string
	typ reflect.Type // the field's type: a list's own type for a list
}

// decoderKeys walks t's TOML keys as the decoder does (fieldsOf), into
// tables and arrays of tables; keys under an array of tables leave the
// index out, as declarations do.
func decoderKeys(t reflect.Type, prefix string) []tomlKey {
	var out []tomlKey
	for _, f := range fieldsOf(t) {
		ft := t.Field(f.index).Type
		key := prefix + f.name
		switch {
		case ft.Kind() == reflect.Struct:
			out = append(out, decoderKeys(ft, key+".")...)
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct:
			out = append(out, decoderKeys(ft.Elem(), key+".")...)
		default:
			out = append(out, tomlKey{key, ft})
		}
	}
	return out
}

// scalar is the kind of a key's values: a list's elements.
func scalar(t reflect.Type) reflect.Kind {
	if k := t.Kind(); k == reflect.Slice || k == reflect.Array {
		return t.Elem().Kind()
	}
	return t.Kind()
}

// Every key the decoder knows has exactly one declaration, every
// declaration is such a key, and each fits its key's type.
func TestEveryKeyDeclaredOnce(t *testing.T) {
	seen := map[string]int{}
	for _, p := range Params {
		seen[p.Key]++
	}
	keys := decoderKeys(reflect.TypeFor[Node](), "")
	known := map[string]bool{}
	for _, k := range keys {
		known[k.key] = true
		p := ParamOf(k.key)
		if seen[k.key] != 1 || p == nil {
			t.Errorf("%s: %d declarations, want 1", k.key, seen[k.key])
			continue
		}
		if p.Doc == "" {
			t.Errorf("%s: no doc", k.key)
		}
		switch kind := scalar(k.typ); kind {
		case reflect.Int, reflect.Int64:
			if p.Lo != math.Trunc(p.Lo) || p.Hi != math.Trunc(p.Hi) {
				t.Errorf("%s: integer key with bounds %v..%v", k.key, p.Lo, p.Hi)
			}
			if !p.Ranged && p.Rule == "" {
				t.Errorf("%s: a number with no range and no rule", k.key)
			}
		case reflect.Float64:
			if p.Pow2 || (!p.Ranged && p.Rule == "") {
				t.Errorf("%s: float key declared pow2 %v, ranged %v", k.key, p.Pow2, p.Ranged)
			}
		case reflect.String:
			if p.Ranged || p.Pow2 || (len(p.OneOf) == 0 && p.Rule == "") {
				t.Errorf("%s: string key needs allowed values or a rule, and no range", k.key)
			}
		case reflect.Bool:
			if p.Ranged || p.Pow2 || p.OneOf != nil {
				t.Errorf("%s: bool key with a range or values", k.key)
			}
		default:
			t.Errorf("%s: values of kind %v", k.key, kind)
		}
		if p.OneOf != nil && scalar(k.typ) != reflect.String {
			t.Errorf("%s: allowed values on a %v key", k.key, k.typ)
		}
	}
	for _, p := range Params {
		if !known[p.Key] {
			t.Errorf("%s: declared, but no such key", p.Key)
		}
	}
	if len(keys) < 150 {
		t.Errorf("walked only %d keys", len(keys))
	}
}

// Validation checks every declared range, and with the declared bounds.
func TestValidationChecksEveryDeclaredRange(t *testing.T) {
	n, err := Load(shippedPath(t, "frontier-node"), nil)
	if err != nil {
		t.Fatal(err)
	}
	checked := map[string]bool{}
	for _, b := range n.Bounds() {
		p := ParamOf(b.Key)
		if p == nil || !p.Ranged || b.Lo != p.Lo || b.Hi != p.Hi {
			t.Errorf("%s checked against %v..%v, declared %+v", b.Key, b.Lo, b.Hi, p)
			continue
		}
		checked[p.Key] = true
	}
	for _, p := range Params {
		if p.Ranged && !checked[p.Key] {
			t.Errorf("%s: declared range %v..%v never checked", p.Key, p.Lo, p.Hi)
		}
	}
}

// Just past either end of a declared range, a key is refused with the
// declared range in the message, and a declared power of two refuses a
// value that is none. (Other checks may fail too: the key's own is looked
// for among all of them.)
func TestDeclaredRangesRefuse(t *testing.T) {
	text := readFile(t, shippedPath(t, "frontier-node"))
	types := map[string]reflect.Type{}
	for _, k := range decoderKeys(reflect.TypeFor[Node](), "") {
		types[k.key] = k.typ
	}
	expect := func(key, value, want string) {
		t.Helper()
		n, err := Parse("frontier-node.toml", []byte(text), nil)
		if err != nil {
			t.Fatal(err)
		}
		st := &setter{sets: Sets([]string{key + "=" + value}), prov: map[string]int{}}
		if err := st.apply(n, 0); err != nil {
			t.Fatalf("-set %s=%s: %v", key, value, err)
		}
		var got []string
		for _, e := range n.validate() {
			if e.key == key && e.msg == want {
				return
			}
			got = append(got, e.key+": "+e.msg)
		}
		t.Errorf("-set %s=%s: want %q among %q", key, value, want, got)
	}
	tried := 0
	for _, p := range Params {
		if !p.Ranged {
			continue
		}
		key := ParamPath(p.Key)
		typ := types[p.Key]
		if k := typ.Kind(); k == reflect.Slice || k == reflect.Array {
			key += "[0]"
		}
		if scalar(typ) == reflect.Float64 {
			for _, x := range []float64{p.Lo - math.Max(1, math.Abs(p.Lo))/2, p.Hi * 2} {
				v := strconv.FormatFloat(x, 'g', -1, 64)
				expect(key, v, fmt.Sprintf("must be in [%s, %s], got %s", fmtFloat(p.Lo), fmtFloat(p.Hi), fmtFloat(x)))
			}
		} else {
			for _, x := range []int64{int64(p.Lo) - 1, int64(p.Hi) + 1} {
				expect(key, strconv.FormatInt(x, 10), fmt.Sprintf("must be %d..%d, got %d", int64(p.Lo), int64(p.Hi), x))
			}
			if p.Pow2 {
				x := int64(p.Lo) * 3
				expect(key, strconv.FormatInt(x, 10), fmt.Sprintf("must be a power of two, got %d", x))
			}
		}
		tried++
	}
	if tried < 100 {
		t.Errorf("tried only %d keys", tried)
	}
}

// ParamPath is a key as -set writes it: a key under a list of tables
// names its first element.
func ParamPath(key string) string {
	for _, list := range []string{"xgmi.bundle", "stack.rocm_release", "stack.cray_mpich_release", "stack.rccl_release"} {
		if rest, ok := strings.CutPrefix(key, list+"."); ok {
			return list + "[0]." + rest
		}
	}
	return key
}
