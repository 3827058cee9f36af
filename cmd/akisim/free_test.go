package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A trace that uses a buffer after freeing it is bad input: one line
// naming file, line and field, exit 2; the same trace without the late use
// runs.
func TestUseAfterFree(t *testing.T) {
	const good = `{"op":"malloc","buf":"d","gcd":0,"bytes":4096}
{"op":"host_malloc","buf":"h","numa":0,"bytes":4096}
{"op":"memcpy","src":"h","dst":"d","bytes":4096}
{"op":"free","buf":"d"}
`
	dir := t.TempDir()
	ok, bad := filepath.Join(dir, "ok.jsonl"), filepath.Join(dir, "bad.jsonl")
	os.WriteFile(ok, []byte(good), 0o644)
	os.WriteFile(bad, []byte(good+`{"op":"memcpy","src":"d","dst":"h","bytes":4096}`+"\n"), 0o644)
	if code, _, errs := akisim(t, "-trace", ok, "-format", "csv"); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, _, errs := akisim(t, "-trace", bad)
	if want := bad + `:5: src: buffer "d" was freed on line 4`; code != 2 || !strings.Contains(errs, want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("exit %d, stderr %q; want 2 and %q", code, errs, want)
	}
}
