package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

func TestFind(t *testing.T) {
	// From the package directory, configs/ is found at the module root.
	p, err := Find("frontier-node.toml")
	if err != nil {
		t.Fatal(err)
	}
	if p != filepath.Join("..", "configs", "frontier-node.toml") {
		t.Errorf("Find = %q", p)
	}
	if q, err := Find("frontier-node"); err != nil || q != p {
		t.Errorf("Find without .toml = %q, %v", q, err)
	}
	// An existing path is used as is.
	if q, err := Find(p); err != nil || q != p {
		t.Errorf("Find(%q) = %q, %v", p, q, err)
	}
	_, err = Find("no-such-node")
	if err == nil || err.Error() != "config no-such-node: not found (looked in ./ and configs/)" {
		t.Errorf("Find(no-such-node) error = %v", err)
	}
}

func TestFindInWorkingDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "configs"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"here.toml", filepath.Join("configs", "there.toml")} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(mini), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	for name, want := range map[string]string{
		"here.toml":  "here.toml",
		"here":       "here.toml",
		"there.toml": filepath.Join("configs", "there.toml"),
		"there":      filepath.Join("configs", "there.toml"),
	} {
		if got, err := Find(name); err != nil || got != want {
			t.Errorf("Find(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	// No go.mod above a temp dir (normally): frontier-node is not found.
	if _, err := Find("configs"); err == nil {
		t.Error("Find(configs) found a directory")
	}
}

func TestResolve(t *testing.T) {
	bad := "bogus = 1\n" + mini
	builtin := fstest.MapFS{
		"a.toml":   {Data: []byte(mini)},
		"b.toml":   {Data: []byte(bad)},
		"notes.md": {Data: []byte("not a config")},
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.toml"), []byte("# on disk\n"+mini), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	// A file on disk wins over the built-in config of the same name.
	file, data, err := Resolve("a", builtin)
	if err != nil || file != "a.toml" || !strings.HasPrefix(string(data), "# on disk") {
		t.Errorf("Resolve(a) = %q, %.10q, %v; want the file on disk", file, data, err)
	}
	for _, name := range []string{"b", "b.toml", "configs/b.toml"} {
		file, data, err = Resolve(name, builtin)
		if err != nil || file != "embedded:b.toml" || string(data) != bad {
			t.Errorf("Resolve(%q) = %q, %.10q, %v; want embedded:b.toml", name, file, data, err)
		}
	}
	// Errors in a built-in config name it, with its line.
	_, err = Parse(file, data, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "embedded:b.toml:1: bogus: unknown key") {
		t.Errorf("Parse error = %v", err)
	}
	_, _, err = Resolve("c", builtin)
	if err == nil || err.Error() != "config c: not found (looked in ./, configs/ and the built-in configs: a.toml, b.toml)" {
		t.Errorf("Resolve(c) error = %v", err)
	}
	// A path is never looked up among the built-in configs.
	if _, _, err := Resolve(filepath.Join("x", "b.toml"), builtin); err == nil {
		t.Error("Resolve(x/b.toml) found the built-in b.toml")
	}
}

// A config is read once with a size limit: /dev/zero stops with an error
// instead of being read without end.
func TestReadFileLimit(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err == nil {
		_, err := Load("/dev/zero", nil)
		if err == nil || err.Error() != "/dev/zero: cannot read config: larger than 16 MiB (a node config is a few KiB)" {
			t.Errorf("Load(/dev/zero) error = %v", err)
		}
	}
	if _, err := readAtMost(strings.NewReader("12345"), "x.toml", 5); err != nil {
		t.Errorf("5 bytes with a limit of 5: %v", err)
	}
	if _, err := readAtMost(strings.NewReader("123456"), "x.toml", 5); err == nil {
		t.Error("6 bytes with a limit of 5: no error")
	}
}
