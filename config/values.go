package config

import (
	"fmt"
	"reflect"
)

// KeyValue is one value of a resolved node: its key path, as a -set would
// name it (xgmi.bundle[3].lanes), and its value as TOML writes it.
type KeyValue struct {
	Key, Value string
}

// Values lists every value of the node in file order, one per key path,
// so two nodes compare key by key (akisim diff, validate's coverage). An
// array of tables gives one entry per element and key; a plain array is
// one value.
func (n *Node) Values() ([]KeyValue, error) {
	if n.parts != nil {
		n = n.parts.physical // as WriteTOML writes it
	}
	var out []KeyValue
	err := appendValues(&out, "", reflect.ValueOf(n).Elem())
	return out, err
}

// appendValues adds the leaves of struct v, whose key path is path.
func appendValues(out *[]KeyValue, path string, v reflect.Value) error {
	for _, f := range fieldsOf(v.Type()) {
		fv := v.Field(f.index)
		key := joinKey(path, f.name)
		switch {
		case fv.Kind() == reflect.Struct:
			if err := appendValues(out, key, fv); err != nil {
				return err
			}
		case fv.Kind() == reflect.Slice && fv.Type().Elem().Kind() == reflect.Struct:
			for i := range fv.Len() {
				if err := appendValues(out, indexKey(key, i), fv.Index(i)); err != nil {
					return err
				}
			}
		default:
			s, err := tomlValue(fv)
			if err != nil {
				return fmt.Errorf("config: %s: %w", key, err)
			}
			*out = append(*out, KeyValue{key, s})
		}
	}
	return nil
}
