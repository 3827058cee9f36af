// Package testfiles writes and reads the files tests feed the program.
package testfiles

import (
	"os"
	"path/filepath"
	"testing"
)

// Write writes name -> text files into a fresh temporary folder and
// returns the folder.
func Write(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Read is a file's text; a file that cannot be read fails the test.
func Read(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
