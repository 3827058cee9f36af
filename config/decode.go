package config

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// field is one TOML-tagged field of a struct.
type field struct {
	name  string // TOML key
	index int    // struct field index
}

var fieldCache sync.Map // reflect.Type -> []field

// fieldsOf lists the TOML keys of struct type t in declaration order.
func fieldsOf(t reflect.Type) []field {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]field)
	}
	var fs []field
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("toml"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		fs = append(fs, field{name: name, index: i})
	}
	fieldCache.Store(t, fs)
	return fs
}

// fieldByKey finds the field of struct type t with TOML key name.
func fieldByKey(t reflect.Type, name string) (field, bool) {
	for _, f := range fieldsOf(t) {
		if f.name == name {
			return f, true
		}
	}
	return field{}, false
}

// keyList is the TOML keys of struct type t, for "unknown key" messages.
func keyList(t reflect.Type) string {
	var names []string
	for _, f := range fieldsOf(t) {
		names = append(names, f.name)
	}
	return strings.Join(names, ", ")
}

// keyErr is an error at a key path, before the file or -set is known.
type keyErr struct {
	key string
	msg string
}

// decoder assigns generic TOML data (as produced by toml.Decode into a
// map[string]any) to typed Go values, strictly: no unknown keys, no type
// conversions except integer to float.
type decoder struct {
	lines     interface{ lookup(string) int } // orders keys by file and line; may be nil
	missingIn string                          // the files a missing key could be in, for a derived config
	errs      []keyErr
}

func (d *decoder) fail(key, format string, args ...any) {
	d.errs = append(d.errs, keyErr{key: key, msg: fmt.Sprintf(format, args...)})
}

// assign sets v (settable) from data. Tables merge into structs: keys absent
// from data keep v's value. Arrays replace slices.
func (d *decoder) assign(v reflect.Value, data any, path string) {
	switch v.Kind() {
	case reflect.Struct:
		m, ok := data.(map[string]any)
		if !ok {
			d.fail(path, "must be a table, got %s", describe(data))
			return
		}
		t := v.Type()
		for _, k := range d.sortedKeys(m, path) {
			key := joinKey(path, k)
			f, ok := fieldByKey(t, k)
			if !ok {
				if path == "" {
					d.fail(key, "unknown key (known: %s)", keyList(t))
				} else {
					d.fail(key, "unknown key (%s has: %s)", path, keyList(t))
				}
				continue
			}
			d.assign(v.Field(f.index), m[k], key)
		}
	case reflect.Slice:
		elems, ok := asArray(data)
		if !ok {
			d.fail(path, "must be an array, got %s", describe(data))
			return
		}
		s := reflect.MakeSlice(v.Type(), len(elems), len(elems))
		for i, e := range elems {
			d.assign(s.Index(i), e, indexKey(path, i))
		}
		v.Set(s)
	case reflect.Array:
		elems, ok := asArray(data)
		if !ok {
			d.fail(path, "must be an array of %d, got %s", v.Len(), describe(data))
			return
		}
		if len(elems) != v.Len() {
			d.fail(path, "must have exactly %d elements, got %d", v.Len(), len(elems))
			return
		}
		for i, e := range elems {
			d.assign(v.Index(i), e, indexKey(path, i))
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		switch x := data.(type) {
		case int64:
			if v.OverflowInt(x) {
				d.fail(path, "integer %d out of range", x)
				return
			}
			v.SetInt(x)
		default:
			d.fail(path, "must be an integer, got %s", describe(data))
		}
	case reflect.Float32, reflect.Float64:
		switch x := data.(type) {
		case int64:
			if x > 1<<53 || x < -(1<<53) {
				d.fail(path, "integer %d cannot be represented exactly as a float", x)
				return
			}
			v.SetFloat(float64(x))
		case float64:
			v.SetFloat(x)
		default:
			d.fail(path, "must be a number, got %s", describe(data))
		}
	case reflect.String:
		if x, ok := data.(string); ok {
			v.SetString(x)
		} else {
			d.fail(path, "must be a string, got %s", describe(data))
		}
	case reflect.Bool:
		if x, ok := data.(bool); ok {
			v.SetBool(x)
		} else {
			d.fail(path, "must be a boolean, got %s", describe(data))
		}
	default:
		d.fail(path, "field of Go type %s cannot be set", v.Type())
	}
}

// missing reports the keys of v's type that data (as decoded from a file)
// lacks: a config file must spell out every value.
func (d *decoder) missing(t reflect.Type, data any, path string) {
	switch t.Kind() {
	case reflect.Struct:
		m, ok := data.(map[string]any)
		if !ok {
			return // already a type error
		}
		for _, f := range fieldsOf(t) {
			key := joinKey(path, f.name)
			sub, ok := m[f.name]
			if !ok {
				if d.missingIn != "" {
					d.fail(key, "missing (every key must be given, in %s)", d.missingIn)
				} else {
					d.fail(key, "missing (every key must be given)")
				}
				continue
			}
			d.missing(t.Field(f.index).Type, sub, key)
		}
	case reflect.Slice, reflect.Array:
		if elems, ok := asArray(data); ok {
			for i, e := range elems {
				d.missing(t.Elem(), e, indexKey(path, i))
			}
		}
	}
}

// sortedKeys orders the keys of a table by the line that defines them, then
// by name.
func (d *decoder) sortedKeys(m map[string]any, path string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		li, lj := d.rank(joinKey(path, keys[i])), d.rank(joinKey(path, keys[j]))
		if li != lj {
			return li < lj
		}
		return keys[i] < keys[j]
	})
	return keys
}

// rank is where key was written, for ordering; 0 when unknown.
func (d *decoder) rank(key string) int {
	if d.lines == nil {
		return 0
	}
	return d.lines.lookup(key)
}

// asArray accepts both forms the TOML decoder produces for arrays.
func asArray(data any) ([]any, bool) {
	switch x := data.(type) {
	case []any:
		return x, true
	case []map[string]any:
		out := make([]any, len(x))
		for i, m := range x {
			out[i] = m
		}
		return out, true
	}
	return nil, false
}

// describe names a TOML value's type (and the value, if short) for messages.
func describe(data any) string {
	switch x := data.(type) {
	case nil:
		return "nothing"
	case string:
		s := strconv.Quote(x)
		if len(s) > 40 {
			s = s[:37] + `..."`
		}
		return "string " + s
	case int64:
		return "integer " + strconv.FormatInt(x, 10)
	case float64:
		switch {
		case math.IsNaN(x):
			return "float nan"
		case math.IsInf(x, 1):
			return "float inf"
		case math.IsInf(x, -1):
			return "float -inf"
		}
		return "float " + strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return "boolean " + strconv.FormatBool(x)
	case time.Time:
		return "datetime"
	case map[string]any:
		return "table"
	case []any, []map[string]any:
		return "array"
	}
	return fmt.Sprintf("%T", data)
}
