package config

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// WriteTOML writes n (typically as resolved after -set) as TOML that Load
// reads back to an equal Node.
func (n *Node) WriteTOML(w io.Writer) error {
	if n.parts != nil {
		n = n.parts.physical // a partition mode's devices are made from it on loading
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# akisim node description %s, resolved (after -set overrides).\n", tomlString(n.Name))
	fmt.Fprintf(bw, "# Written by akisim; load it with -config FILE.\n")
	if err := writeTable(bw, "", reflect.ValueOf(n).Elem()); err != nil {
		return err
	}
	return bw.Flush()
}

// isTable reports whether a field of type t is written as a [table] or an
// [[array of tables]] rather than as key = value.
func isTable(t reflect.Type) bool {
	return t.Kind() == reflect.Struct || t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct
}

// writeTable writes the fields of struct v, whose key path is path: plain
// values first (TOML wants them before any sub-table), then sub-tables.
func writeTable(w *bufio.Writer, path string, v reflect.Value) error {
	fs := fieldsOf(v.Type())
	for _, f := range fs {
		fv := v.Field(f.index)
		if isTable(fv.Type()) && !(fv.Kind() == reflect.Slice && fv.Len() == 0) {
			continue
		}
		s, err := tomlValue(fv)
		if err != nil {
			return fmt.Errorf("config: %s: %w", joinKey(path, f.name), err)
		}
		fmt.Fprintf(w, "%s = %s\n", keyPart(f.name), s)
	}
	for _, f := range fs {
		fv := v.Field(f.index)
		key := joinKey(path, f.name)
		switch {
		case fv.Kind() == reflect.Struct:
			fmt.Fprintf(w, "\n[%s]\n", key)
			if err := writeTable(w, key, fv); err != nil {
				return err
			}
		case isTable(fv.Type()):
			for i := 0; i < fv.Len(); i++ {
				fmt.Fprintf(w, "\n[[%s]]\n", key)
				if err := writeTable(w, key, fv.Index(i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// tomlValue formats a non-table value.
func tomlValue(v reflect.Value) (string, error) {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10), nil
	case reflect.Float32, reflect.Float64:
		return tomlFloat(v.Float()), nil
	case reflect.String:
		return tomlString(v.String()), nil
	case reflect.Bool:
		return strconv.FormatBool(v.Bool()), nil
	case reflect.Slice, reflect.Array:
		parts := make([]string, v.Len())
		for i := range parts {
			s, err := tomlValue(v.Index(i))
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case reflect.Struct:
		fs := fieldsOf(v.Type())
		parts := make([]string, len(fs))
		for i, f := range fs {
			s, err := tomlValue(v.Field(f.index))
			if err != nil {
				return "", err
			}
			parts[i] = keyPart(f.name) + " = " + s
		}
		return "{" + strings.Join(parts, ", ") + "}", nil
	}
	return "", fmt.Errorf("cannot write Go type %s as TOML", v.Type())
}

// tomlFloat formats x so that it reads back as the same float64, and as a
// float, not an integer.
func tomlFloat(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(x, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	s = strings.ToValidUTF8(s, string(utf8.RuneError))
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
