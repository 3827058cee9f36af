package output

import (
	"path/filepath"
	"strings"
	"testing"
)

// Devices and pipes destroy no file when written: /dev/null may take two
// outputs, a trace may come from /dev/stdin while a profile goes to
// /dev/stdout; a file not yet there is compared by its resolved path.
func TestCheckPathsSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	ok := [][2][]Path{
		{nil, {{Flag: "-timeline", Path: "/dev/null"}, {Flag: "-rocprof", Path: "/dev/null"}}},
		{{{Flag: "-trace", Path: "/dev/stdin"}}, {{Flag: "-rocprof", Path: "/dev/stdout"}}},
		{{{Flag: "-trace", Path: filepath.Join(dir, "a")}}, {{Flag: "-timeline", Path: filepath.Join(dir, "b")}}},
	}
	for _, c := range ok {
		if err := Check(c[0], c[1]); err != nil {
			t.Errorf("%v -> %v: %v", c[0], c[1], err)
		}
	}
	missing := filepath.Join(dir, "new", "x.json")
	err := Check(nil, []Path{{Flag: "-timeline", Path: missing}, {Flag: "-rocprof", Path: filepath.Join(dir, "new", ".", "x.json")}})
	if err == nil || !strings.Contains(err.Error(), "name the same file") {
		t.Errorf("two outputs at one new path: %v", err)
	}
}
