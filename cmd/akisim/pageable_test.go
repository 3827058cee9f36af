package main

import (
	"strings"
	"testing"
)

// The pageable families print Comm|Scope's names, both directions, every
// size the filter picks.
func TestPageableFamilies(t *testing.T) {
	code, out, errs := akisim(t, "-workload", "commscope", "-filter", `Pageable(ToGPU)?/2/5/log2\(N\):(8|20|30)/`, "-format", "gbench")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var want []string
	for _, f := range []string{"PageableToGPU", "GPUToPageable"} {
		for _, k := range []string{"8", "20", "30"} {
			want = append(want, "Comm_hipMemcpyAsync_"+f+"/2/5/log2(N):"+k+"/manual_time")
		}
	}
	checkNames(t, out, want)
}

// A trace with a pageable copy runs; a misspelt allocation kind is bad
// input: one line naming file, line and field, exit 2.
func TestPageableTrace(t *testing.T) {
	code, out, errs := akisim(t, "-trace", "traces/h2d-pageable.jsonl", "-format", "csv")
	if code != 0 || !strings.Contains(out, "trace,line6:pageable h2d 64 MiB,numa0,gcd0,67108864,bandwidth,") {
		t.Errorf("exit %d, stderr %q, output\n%s", code, errs, out)
	}
	badTrace(t, `{"op":"malloc_pagable","buf":"h","numa":0,"bytes":4096}`+"\n", `:1: op: unknown op kind "malloc_pagable"`)
}
