package config

import (
	"os"
	"path/filepath"
	"testing"
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
