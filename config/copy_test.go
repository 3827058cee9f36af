package config

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// sharedMemory lists the paths where a and b, equal values, hold the same
// slice array, map or pointed-to value.
func sharedMemory(a, b reflect.Value, path string, out *[]string) {
	switch a.Kind() {
	case reflect.Struct:
		for i := range a.NumField() {
			if a.Type().Field(i).IsExported() {
				sharedMemory(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name, out)
			}
		}
	case reflect.Slice:
		if a.Len() > 0 && a.Pointer() == b.Pointer() {
			*out = append(*out, path)
		}
		for i := range a.Len() {
			sharedMemory(a.Index(i), b.Index(i), path+"[]", out)
		}
	case reflect.Array:
		for i := range a.Len() {
			sharedMemory(a.Index(i), b.Index(i), path+"[]", out)
		}
	case reflect.Map:
		if !a.IsNil() && a.Pointer() == b.Pointer() {
			*out = append(*out, path)
		}
	case reflect.Pointer:
		if !a.IsNil() {
			if a.Pointer() == b.Pointer() {
				*out = append(*out, path)
			}
			sharedMemory(a.Elem(), b.Elem(), path, out)
		}
	}
}

// sourceOf reads config file f.
func sourceOf(t *testing.T, f string) *Source {
	t.Helper()
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	src, err := NewSource(f, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// Every config in configs/ copies whole: equal, and sharing nothing a -set
// could write through.
func TestCopyNodeSharesNothing(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "configs", "*.toml"))
	if len(files) == 0 {
		t.Fatal("no configs")
	}
	for _, f := range files {
		n, _, err := sourceOf(t, f).decode()
		if err != nil {
			t.Fatal(err)
		}
		c := copyNode(n)
		if !reflect.DeepEqual(n, c) {
			t.Errorf("%s: the copy differs", f)
		}
		var shared []string
		sharedMemory(reflect.ValueOf(n).Elem(), reflect.ValueOf(c).Elem(), "Node", &shared)
		if len(shared) > 0 {
			t.Errorf("%s: the copy shares %v", f, shared)
		}
	}
}

// One Source gives each call its own Node: a -set in one call is not seen
// by the next, and the Nodes share no slice.
func TestSourceNodesAreIndependent(t *testing.T) {
	f := filepath.Join("..", "configs", "frontier-node.toml")
	src := sourceOf(t, f)
	a, err := src.Node([]string{"xgmi.bundle[0].lanes=1"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := src.Node(nil)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := Load(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.XGMI.Bundles[0].Lanes != 1 || !reflect.DeepEqual(b, fresh) {
		t.Errorf("bundle 0: %d lanes after its -set; the next Node equals a fresh load: %v", a.XGMI.Bundles[0].Lanes, reflect.DeepEqual(b, fresh))
	}
	if &a.XGMI.Bundles[0] == &b.XGMI.Bundles[0] {
		t.Error("two Nodes share their bundles")
	}
}
