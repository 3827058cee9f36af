package config

import "reflect"

// copyNode is a deep copy of n, a decoded config before its -sets: a -set
// writes into its own copy of every slice, map and pointed-to value, so one
// decoded config serves many.
func copyNode(n *Node) *Node {
	c := &Node{}
	deepCopy(reflect.ValueOf(c).Elem(), reflect.ValueOf(n).Elem())
	return c
}

// deepCopy sets dst, settable and of src's type, to a copy of src that
// shares no memory with it.
func deepCopy(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Struct:
		for i := range src.NumField() {
			if !src.Type().Field(i).IsExported() {
				// only what loading derives after the -sets (Node.parts)
				if !src.Field(i).IsZero() {
					panic("config: copy of a derived field " + src.Type().Field(i).Name)
				}
				continue
			}
			deepCopy(dst.Field(i), src.Field(i))
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := range src.Len() {
			deepCopy(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	case reflect.Array:
		for i := range src.Len() {
			deepCopy(dst.Index(i), src.Index(i))
		}
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(src.Type(), src.Len())
		it := src.MapRange()
		for it.Next() {
			v := reflect.New(src.Type().Elem()).Elem()
			deepCopy(v, it.Value())
			m.SetMapIndex(it.Key(), v)
		}
		dst.Set(m)
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Type().Elem())
		deepCopy(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Interface:
		if src.IsNil() {
			return
		}
		v := reflect.New(src.Elem().Type()).Elem()
		deepCopy(v, src.Elem())
		dst.Set(v)
	default:
		dst.Set(src)
	}
}
