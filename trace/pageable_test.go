package trace

import (
	"strings"
	"testing"
)

// malloc_pageable makes host memory on a NUMA domain, counted against the
// domain's capacity like host_malloc, and marked pageable.
func TestMallocPageable(t *testing.T) {
	in := `{"op":"malloc_pageable","buf":"h","numa":2,"bytes":4096}
{"op":"malloc","buf":"d","gcd":0,"bytes":4096}
{"op":"memcpy_async","src":"h","dst":"d","bytes":4096,"stream":1}
{"op":"memcpy","src":"d","dst":"h","bytes":4096}`
	ops := checked(t, in)
	b := Buffers(ops)["h"]
	if !b.Host || !b.Pageable || b.NUMA != 2 || b.GCD != -1 || b.Bytes != 4096 {
		t.Errorf("buffer %+v, want pageable host memory on NUMA 2", b)
	}
	if Buffers(ops)["d"].Pageable {
		t.Error("device buffer marked pageable")
	}
	var w strings.Builder
	if err := Write(&w, ops); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(w.String(), `{"op":"malloc_pageable","buf":"h","numa":2,"bytes":4096}`) {
		t.Errorf("written as %q", w.String())
	}
}

func TestMallocPageableErrors(t *testing.T) {
	const dev = `{"op":"malloc","buf":"d","gcd":0,"bytes":4096}` + "\n"
	const pg = `{"op":"malloc_pageable","buf":"h","numa":1,"bytes":4096}` + "\n"
	for _, tc := range []struct{ in, want string }{
		{`{"op":"malloc_pageble","buf":"h","numa":1,"bytes":4096}`, `t.jsonl:1: op: unknown op kind "malloc_pageble"`},
		{`{"op":"malloc_pageable","buf":"h","bytes":4096}`, `t.jsonl:1: numa: required by malloc_pageable`},
		{`{"op":"malloc_pageable","buf":"h","numa":4,"bytes":4096}`, `t.jsonl:1: numa: must be in 0..3, got 4`},
		{`{"op":"malloc_pageable","buf":"h","numa":1,"gcd":0,"bytes":4096}`, `t.jsonl:1: gcd: not used by malloc_pageable`},
		{`{"op":"malloc_pageable","numa":1,"bytes":4096}`, `t.jsonl:1: buf: required by malloc_pageable`},
		{`{"op":"malloc_pageable","buf":"h","numa":1,"bytes":0}`, `t.jsonl:1: bytes: must be > 0, got 0`},
		{`{"op":"host_malloc","buf":"p","numa":1,"bytes":137438953472}` + "\n" + pg,
			`t.jsonl:2: bytes: 4096 bytes do not fit in NUMA domain 1's memory: 0 of 137438953472 bytes (host.numa_bytes) free`},
		{pg + pg, `t.jsonl:2: buf: buffer "h" already defined on line 1`},
		{pg + `{"op":"host_malloc","buf":"p","numa":1,"bytes":4096}` + "\n" + `{"op":"memcpy","src":"h","dst":"p","bytes":4096}`,
			`t.jsonl:3: dst: host-to-host copies are not modelled ("h" and "p" are host buffers)`},
		{pg + dev + `{"op":"memcpy_peer","src":"h","dst":"d","bytes":4096}`,
			`t.jsonl:3: src: memcpy_peer needs device buffers, but "h" is a host buffer`},
		{pg + dev + `{"op":"kernel","name":"delay","gcd":0,"stream":1,"grid":1,"workgroup":1,"wait_flag":"go"}` + "\n" +
			`{"op":"memcpy_async","src":"h","dst":"d","bytes":4096,"stream":2}`,
			`t.jsonl:4: op: memcpy_async of pageable memory blocks the host while the kernel on line 3 waits for flag "go", which only the host sets (flag_set): the run would hang`},
		{pg + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"h","mode":"read","bytes":4096}]}`,
			`t.jsonl:2: access[0].buf: "h" is pageable (malloc_pageable) memory, which a kernel cannot reach in place: copy it to the GCD, register it (host_register) or allocate it with host_malloc`},
	} {
		checkFails(t, tc.in, tc.want)
	}
}
