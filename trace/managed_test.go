package trace

import (
	"strings"
	"testing"
)

// malloc_managed makes host memory on a NUMA domain, counted against its
// capacity, marked managed; prefetch takes "host" or a GCD.
func TestMallocManaged(t *testing.T) {
	in := `{"op":"malloc_managed","buf":"m","numa":1,"bytes":4096}
{"op":"prefetch","buf":"m","dst":"3","stream":2}
{"op":"prefetch","buf":"m","dst":"host"}
{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"m","mode":"read","bytes":4096}]}
{"op":"host_access","numa":2,"access":[{"buf":"m","mode":"write","bytes":4096}]}`
	ops := checked(t, in)
	b := Buffers(ops)["m"]
	if !b.Host || !b.Managed || b.Pageable || b.NUMA != 1 || b.Bytes != 4096 {
		t.Errorf("buffer %+v, want managed memory starting on NUMA 1", b)
	}
	var w strings.Builder
	if err := Write(&w, ops); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(w.String(), `{"op":"prefetch","buf":"m","dst":"3","stream":2}`) {
		t.Errorf("written as %q", w.String())
	}
	for dst, want := range map[string]int{"host": -1, "0": 0, "7": 7} {
		if g, ok := PrefetchGCD(dst); !ok || g != want {
			t.Errorf("PrefetchGCD(%q) = %d, %v; want %d", dst, g, ok, want)
		}
	}
	for _, dst := range []string{"", "Host", "-1", "03", "1.0", "gcd1"} {
		if _, ok := PrefetchGCD(dst); ok {
			t.Errorf("PrefetchGCD(%q) accepted", dst)
		}
	}
}

func TestManagedErrors(t *testing.T) {
	const mm = `{"op":"malloc_managed","buf":"m","numa":1,"bytes":4096}` + "\n"
	const dev = `{"op":"malloc","buf":"d","gcd":0,"bytes":4096}` + "\n"
	for _, tc := range []struct{ in, want string }{
		{`{"op":"malloc_managed","buf":"m","bytes":4096}`, `t.jsonl:1: numa: required by malloc_managed`},
		{`{"op":"malloc_managed","buf":"m","numa":9,"bytes":4096}`, `t.jsonl:1: numa: must be in 0..3, got 9`},
		{`{"op":"malloc_managed","buf":"m","gcd":0,"numa":1,"bytes":4096}`, `t.jsonl:1: gcd: not used by malloc_managed`},
		{`{"op":"malloc_managed","buf":"m","numa":1,"bytes":-1}`, `t.jsonl:1: bytes: must be > 0, got -1`},
		{`{"op":"malloc_managed","buf":"m","numa":1,"bytes":137438953473}`,
			`t.jsonl:1: bytes: 137438953473 bytes do not fit in NUMA domain 1's memory: 137438953472 of 137438953472 bytes (host.numa_bytes) free`},
		{mm + mm, `t.jsonl:2: buf: buffer "m" already defined on line 1`},
		{`{"op":"prefetch","buf":"m","dst":"host"}`, `t.jsonl:1: buf: unknown buffer "m"`},
		{dev + `{"op":"prefetch","buf":"d","dst":"host"}`, `t.jsonl:2: buf: "d" is not managed memory: prefetch takes a malloc_managed buffer`},
		{mm + `{"op":"prefetch","buf":"m"}`, `t.jsonl:2: dst: required by prefetch: "host" or a GCD number`},
		{mm + `{"op":"prefetch","buf":"m","dst":"cpu"}`, `t.jsonl:2: dst: want "host" or a GCD number, got "cpu"`},
		{mm + `{"op":"prefetch","buf":"m","dst":"8"}`, `t.jsonl:2: dst: must be "host" or a GCD in 0..7, got 8`},
		{mm + `{"op":"prefetch","buf":"m","dst":"-2"}`, `t.jsonl:2: dst: want "host" or a GCD number, got "-2"`},
		{mm + `{"op":"prefetch","buf":"m","dst":"0","stream":-1}`, `t.jsonl:2: stream: must be in 0..1073741823, got -1`},
		{mm + `{"op":"prefetch","buf":"m","dst":"0","bytes":4096}`, `t.jsonl:2: bytes: not used by prefetch`},
		{mm + dev + `{"op":"memcpy","src":"m","dst":"d","bytes":4096}`,
			`t.jsonl:3: src: "m" is managed (malloc_managed) memory: copies of it are not modelled; use a kernel or a prefetch`},
		{mm + `{"op":"kernel","name":"delay","gcd":0,"stream":1,"grid":1,"workgroup":1,"wait_flag":"go"}` + "\n" +
			`{"op":"prefetch","buf":"m","dst":"0","stream":2}`,
			`t.jsonl:3: op: prefetch blocks the host while the kernel on line 2 waits for flag "go", which only the host sets (flag_set): the run would hang`},
	} {
		checkFails(t, tc.in, tc.want)
	}
}
