package trace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A trace is read with a size limit: a file of exactly the limit parses, one
// byte more is an error naming the file.
func TestReadFileLimit(t *testing.T) {
	line := `{"op":"malloc","buf":"a","gcd":0,"bytes":64}` + "\n"
	path := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(path, []byte(line+line), 0o644); err != nil {
		t.Fatal(err)
	}
	ops, err := readFile(path, path, int64(2*len(line)))
	if err != nil || len(ops) != 2 {
		t.Fatalf("at the limit: %d ops, %v", len(ops), err)
	}
	_, err = readFile(path, path, int64(2*len(line)-1))
	if err == nil || err.Error() != path+": larger than 0 MiB (the limit for a trace)" {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing.jsonl")); err == nil || !strings.Contains(err.Error(), "missing.jsonl") {
		t.Errorf("missing file: %v", err)
	}
}

// /dev/zero is refused (its one endless line is too long), not read forever.
func TestReadFileDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	if _, err := ReadFile("/dev/zero"); err == nil || !strings.Contains(err.Error(), "/dev/zero:1: line longer than") {
		t.Errorf("ReadFile(/dev/zero) = %v", err)
	}
}
