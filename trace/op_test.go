package trace

import (
	"reflect"
	"testing"
)

// Op is the file format: every field but the line number is one a trace
// can write, so nothing a library's lowering needs hides in it (that is
// package ir's Command).
func TestOpHoldsOnlyTheFormat(t *testing.T) {
	ty := reflect.TypeOf(Op{})
	for i := range ty.NumField() {
		f := ty.Field(i)
		tag := f.Tag.Get("json")
		if f.Name == "Line" {
			continue // where the op was read, not part of it
		}
		if tag == "" || tag == "-" || tag[0] == ',' {
			t.Errorf("trace.Op.%s has no JSON name (tag %q): a trace cannot write it", f.Name, tag)
		}
	}
}
