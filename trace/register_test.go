package trace

import (
	"strings"
	"testing"
)

const (
	regPg    = `{"op":"malloc_pageable","buf":"h","numa":1,"bytes":4096}` + "\n"
	regDev   = `{"op":"malloc","buf":"d","gcd":0,"bytes":4096}` + "\n"
	register = `{"op":"host_register","buf":"h"}` + "\n"
	unreg    = `{"op":"host_unregister","buf":"h"}` + "\n"
	readH    = `{"op":"kernel","name":"k","gcd":0,"grid":64,"workgroup":64,"access":[{"buf":"h","mode":"read","bytes":4096}]}` + "\n"
	delay    = `{"op":"kernel","name":"delay","gcd":0,"stream":1,"grid":1,"workgroup":1,"wait_flag":"go"}` + "\n"
)

// While registered a pageable buffer is pinned memory: a kernel may read
// it, and a memcpy_async of it does not block the host, so it may be
// queued while a kernel waits for a flag. Unregistered, it may be freed.
// Write keeps the ops.
func TestHostRegister(t *testing.T) {
	in := regPg + regDev + register + readH + delay +
		`{"op":"memcpy_async","src":"h","dst":"d","bytes":4096,"stream":2}` + "\n" +
		`{"op":"flag_set","flag":"go"}` + "\n" + unreg + `{"op":"free","buf":"h"}`
	ops := checked(t, in)
	var w strings.Builder
	if err := Write(&w, ops); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(w.String(), "\n"+register) || !strings.Contains(w.String(), "\n"+unreg) {
		t.Errorf("written as %q", w.String())
	}
}

// A registered buffer's bytes are those its malloc_pageable booked:
// registering a whole NUMA domain's memory is allowed, and pins nothing
// more, so pinned memory (host_malloc and registered) still cannot exceed
// what the domain has.
func TestHostRegisterCapacity(t *testing.T) {
	all := `{"op":"malloc_pageable","buf":"h","numa":1,"bytes":` + itoa(testNode.NUMABytes) + "}\n" + register
	checked(t, all)
	checkFails(t, all+`{"op":"host_malloc","buf":"p","numa":1,"bytes":1}`,
		`t.jsonl:3: bytes: 1 bytes do not fit in NUMA domain 1's memory: 0 of 137438953472 bytes (host.numa_bytes) free`)
}

func TestHostRegisterErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"op":"host_register"}`, `t.jsonl:1: buf: required by host_register`},
		{`{"op":"host_unregister"}`, `t.jsonl:1: buf: required by host_unregister`},
		{`{"op":"host_register","buf":"x"}`, `t.jsonl:1: buf: unknown buffer "x"`},
		{regPg + `{"op":"host_register","buf":"h","bytes":4096}`, `t.jsonl:2: bytes: not used by host_register`},
		{regPg + register + `{"op":"host_unregister","buf":"h","stream":1}`, `t.jsonl:3: stream: not used by host_unregister`},
		{regDev + `{"op":"host_register","buf":"d"}`,
			`t.jsonl:2: buf: "d" is not pageable memory: host_register takes a malloc_pageable buffer`},
		{`{"op":"host_malloc","buf":"p","numa":0,"bytes":4096}` + "\n" + `{"op":"host_register","buf":"p"}`,
			`t.jsonl:2: buf: "p" is not pageable memory: host_register takes a malloc_pageable buffer`},
		{`{"op":"malloc_managed","buf":"m","numa":0,"bytes":4096}` + "\n" + `{"op":"host_register","buf":"m"}`,
			`t.jsonl:2: buf: "m" is not pageable memory: host_register takes a malloc_pageable buffer`},
		{regPg + register + register, `t.jsonl:3: buf: buffer "h" already registered on line 2`},
		{regPg + unreg, `t.jsonl:2: buf: buffer "h" is not registered: host_unregister takes a buffer registered by host_register`},
		{regPg + register + unreg + unreg, `t.jsonl:4: buf: buffer "h" is not registered: host_unregister takes a buffer registered by host_register`},
		{regPg + `{"op":"free","buf":"h"}` + "\n" + register, `t.jsonl:3: buf: buffer "h" was freed on line 2`},
		{regPg + register + unreg + `{"op":"free","buf":"h"}` + "\n" + unreg, `t.jsonl:5: buf: buffer "h" was freed on line 4`},
		{regPg + register + `{"op":"free","buf":"h"}`,
			`t.jsonl:3: buf: buffer "h" is registered (host_register on line 2): host_unregister it before free`},
		{regPg + readH,
			`t.jsonl:2: access[0].buf: "h" is pageable (malloc_pageable) memory, which a kernel cannot reach in place: copy it to the GCD, register it (host_register) or allocate it with host_malloc`},
		{regPg + register + unreg + readH,
			`t.jsonl:4: access[0].buf: "h" is pageable (malloc_pageable) memory, which a kernel cannot reach in place: copy it to the GCD, register it (host_register) or allocate it with host_malloc`},
		{regPg + regDev + register + unreg + delay + `{"op":"memcpy_async","src":"h","dst":"d","bytes":4096,"stream":2}`,
			`t.jsonl:6: op: memcpy_async of pageable memory blocks the host while the kernel on line 5 waits for flag "go", which only the host sets (flag_set): the run would hang`},
		{regPg + register + delay + unreg,
			`t.jsonl:4: op: host_unregister synchronizes the device while the kernel on line 3 waits for flag "go", which only the host sets (flag_set): the run would hang`},
	} {
		checkFails(t, tc.in, tc.want)
	}
}
