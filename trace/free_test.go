package trace

import (
	"strconv"
	"strings"
	"testing"
)

// A free gives its buffer's bytes back: a GCD's whole HBM (or a NUMA
// domain's memory) can be allocated again once its buffer is freed, and
// not before.
func TestFreeReturnsCapacity(t *testing.T) {
	for _, a := range []struct{ kind, where string }{{"malloc", `"gcd":3`}, {"host_malloc", `"numa":2`}} {
		full := testNode.HBMBytes
		if a.kind == "host_malloc" {
			full = testNode.NUMABytes
		}
		alloc := func(name string, bytes int64) string {
			return `{"op":"` + a.kind + `","buf":"` + name + `",` + a.where + `,"bytes":` + itoa(bytes) + "}\n"
		}
		freed := alloc("a", full) + `{"op":"free","buf":"a"}` + "\n" + alloc("b", full)
		if err := checkText(freed); err != nil {
			t.Errorf("%s of the whole memory after freeing it: %v", a.kind, err)
		}
		if err := checkText(alloc("a", full) + alloc("b", 1)); err == nil {
			t.Errorf("%s: a second buffer fits in memory already full", a.kind)
		}
	}
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

func TestFreeErrors(t *testing.T) {
	const dev = `{"op":"malloc","buf":"d","gcd":0,"bytes":4096}` + "\n"
	const host = `{"op":"host_malloc","buf":"h","numa":1,"bytes":4096}` + "\n"
	const freeD = `{"op":"free","buf":"d"}` + "\n"
	const freeH = `{"op":"free","buf":"h"}` + "\n"
	for _, tc := range []struct{ in, want string }{
		{`{"op":"free"}`, `t.jsonl:1: buf: required by free`},
		{`{"op":"free","buf":"x"}`, `t.jsonl:1: buf: unknown buffer "x"`},
		{dev + `{"op":"free","buf":"d","gcd":0}`, `t.jsonl:2: gcd: not used by free`},
		{dev + `{"op":"free","buf":"d","bytes":4096}`, `t.jsonl:2: bytes: not used by free`},
		{dev + `{"op":"free","buf":"d","stream":1}`, `t.jsonl:2: stream: not used by free`},
		{dev + freeD + freeD, `t.jsonl:3: buf: buffer "d" was freed on line 2`},
		{dev + freeD + dev, `t.jsonl:3: buf: buffer "d" already defined on line 1`},
		{dev + host + freeD + `{"op":"memcpy","src":"h","dst":"d","bytes":4096}`, `t.jsonl:4: dst: buffer "d" was freed on line 3`},
		{dev + host + freeH + `{"op":"memcpy_async","src":"h","dst":"d","bytes":4096,"stream":1}`, `t.jsonl:4: src: buffer "h" was freed on line 3`},
		{dev + freeD + `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"d","mode":"read","bytes":4096}]}`,
			`t.jsonl:3: access[0].buf: buffer "d" was freed on line 2`},
		{dev + freeD + `{"op":"host_access","numa":0,"access":[{"buf":"d","mode":"write","bytes":4096}]}`,
			`t.jsonl:3: access[0].buf: buffer "d" was freed on line 2`},
		{`{"op":"malloc_managed","buf":"m","numa":0,"bytes":4096}` + "\n" + `{"op":"free","buf":"m"}` + "\n" + `{"op":"prefetch","buf":"m","dst":"0","stream":1}`,
			`t.jsonl:3: buf: buffer "m" was freed on line 2`},
		{dev + `{"op":"kernel","name":"delay","gcd":0,"stream":1,"grid":1,"workgroup":1,"wait_flag":"go"}` + "\n" + freeD,
			`t.jsonl:3: op: free synchronizes the device while the kernel on line 2 waits for flag "go", which only the host sets (flag_set): the run would hang`},
	} {
		if err := checkText(tc.in); err == nil || err.Error() != tc.want {
			t.Errorf("%s\n got: %v\nwant: %s", tc.in, err, tc.want)
		}
	}
}

// Pinned host memory is bounded by what the node has: one NUMA domain's
// memory per host_malloc, and the domains' sum over all of them.
func TestHostMallocCapacity(t *testing.T) {
	over := `{"op":"host_malloc","buf":"h","numa":0,"bytes":` + itoa(testNode.NUMABytes+1) + "}"
	want := `t.jsonl:1: bytes: 137438953473 bytes do not fit in NUMA domain 0's memory: 137438953472 of 137438953472 bytes (host.numa_bytes) free`
	if err := checkText(over); err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	var all strings.Builder
	for d := 0; d < testNode.NUMADomains; d++ {
		for _, name := range []string{"a", "b"} {
			all.WriteString(`{"op":"host_malloc","buf":"` + name + itoa(int64(d)) + `","numa":` + itoa(int64(d)) + `,"bytes":` + itoa(testNode.NUMABytes/2) + "}\n")
		}
	}
	if err := checkText(all.String()); err != nil {
		t.Fatalf("pinning every domain's whole memory: %v", err)
	}
	all.WriteString(`{"op":"host_malloc","buf":"c","numa":3,"bytes":1}`)
	want = `t.jsonl:9: bytes: 1 bytes do not fit in NUMA domain 3's memory: 0 of 137438953472 bytes (host.numa_bytes) free`
	if err := checkText(all.String()); err == nil || err.Error() != want {
		t.Errorf("one byte more than the node has: got %v\nwant %s", err, want)
	}
}
