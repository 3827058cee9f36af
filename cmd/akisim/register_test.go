package main

import (
	"strings"
	"testing"
)

// A trace that registers malloc'd memory runs its copy at the pinned rate;
// registering a buffer twice is bad input: one line naming file, line and
// field, exit 2.
func TestRegisteredTrace(t *testing.T) {
	code, out, errs := akisim(t, "-trace", "traces/h2d-registered.jsonl", "-format", "csv")
	if code != 0 || !strings.Contains(out, "trace,line7:registered h2d 64 MiB,numa0,gcd0,67108864,bandwidth,28.") {
		t.Errorf("exit %d, stderr %q, output\n%s", code, errs, out)
	}
	pg := `{"op":"malloc_pageable","buf":"h","numa":0,"bytes":4096}` + "\n"
	reg := `{"op":"host_register","buf":"h"}` + "\n"
	badTrace(t, pg+reg+reg, `:3: buf: buffer "h" already registered on line 2`)
	badTrace(t, pg+`{"op":"host_unregister","buf":"h"}`+"\n", `:2: buf: buffer "h" is not registered: host_unregister takes a buffer registered by host_register`)
}
