package capped

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A regular file over its cap is refused at Open; one at the cap reads
// whole; a device that never ends fails its read at the cap.
func TestCap(t *testing.T) {
	dir := t.TempDir()
	at, over := filepath.Join(dir, "at"), filepath.Join(dir, "over")
	os.WriteFile(at, []byte(strings.Repeat("x", 1024)), 0o644)
	os.WriteFile(over, []byte(strings.Repeat("x", 1025)), 0o644)
	if b, err := ReadFile(at, "a test file", 1024); err != nil || len(b) != 1024 {
		t.Errorf("at the cap: %d bytes, %v", len(b), err)
	}
	var tl *TooLarge
	if _, err := Open(over, "a test file", 1024); !errors.As(err, &tl) || err.Error() != over+": larger than 1 KiB, the most akisim reads of a test file" {
		t.Errorf("over the cap: %v", err)
	}
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	f, err := Open("/dev/zero", "a test file", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n, err := io.Copy(io.Discard, f)
	if !errors.As(err, &tl) || n > 1<<20 {
		t.Errorf("/dev/zero: read %d bytes, %v; want the cap's error", n, err)
	}
	if _, err := Open(filepath.Join(dir, "none"), "a test file", 1); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}
