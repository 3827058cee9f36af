package trace

// hipHostRegister locks a program's own pageable pages and maps them for
// the GPUs (ROCclr: USE_HOST_PTR + SVM_ATOMICS, hsa_amd_memory_lock_to_pool
// on the fine-grained system pool; shared docs host-memory.md section 2).
// While registered, a malloc_pageable buffer is pinned host memory: copies
// go straight to SDMA and kernels reach it in place. hipHostUnregister
// waits for the device (ROCclr SyncAllStreams) and makes it pageable again.

// Host-registration operation kinds.
const (
	HostRegister   Kind = "host_register"   // hipHostRegister(buf, size of buf, 0): the whole buffer
	HostUnregister Kind = "host_unregister" // hipHostUnregister(buf)
)

func init() {
	fieldsOf[HostRegister] = []string{"buf"}
	fieldsOf[HostUnregister] = []string{"buf"}
}

// pageable says whether the buffer named is pageable now: allocated by
// malloc_pageable and not registered.
func (c *checker) pageable(name string) bool {
	b := c.bufs[name]
	return b.Pageable && b.registered == 0
}

// register checks a host_register or host_unregister op and books the
// change. Registering adds no bytes: a malloc_pageable buffer already
// counts against its NUMA domain's memory, so the pinned memory of a
// trace never exceeds what the node has.
func (c *checker) register(o *Op) *Error {
	if o.Op == HostUnregister {
		if e := c.flags.hang("host_unregister synchronizes the device", o.Rank); e != nil {
			return e
		}
	}
	b, e := c.buffer("buf", o.Buf, o.Op)
	if e != nil {
		return e
	}
	a := c.bufs[o.Buf]
	switch {
	case o.Op == HostUnregister && a.registered == 0:
		return errf("buf", "buffer %q is not registered: host_unregister takes a buffer registered by host_register", o.Buf)
	case o.Op == HostUnregister:
		a.registered = 0
	case !b.Pageable:
		return errf("buf", "%q is not pageable memory: host_register takes a malloc_pageable buffer", o.Buf)
	case a.registered > 0:
		return errf("buf", "buffer %q already registered on line %d", o.Buf, a.registered)
	default:
		a.registered = c.line
	}
	c.bufs[o.Buf] = a
	return nil
}
