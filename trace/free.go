package trace

// Free (hipFree, hipHostFree) ends a buffer's life: Check rejects any later
// use of it and gives its bytes back to its GCD's HBM or its NUMA domain.

// Free is the op kind of hipFree / hipHostFree.
const Free Kind = "free"

func init() {
	fieldsOf[Free] = []string{"buf"}
}

// placed is the buffer an allocation op makes, with its GCD (device
// memory) or NUMA domain (host memory) filled in, -1 for the other.
func (o *Op) placed() Buffer {
	b := o.buffer()
	b.GCD, b.NUMA = -1, -1
	if o.Op == Malloc && o.GCD != nil {
		b.GCD = *o.GCD
	}
	if b.Host && o.NUMA != nil {
		b.NUMA = *o.NUMA
	}
	return b
}

// free checks a free op: it names a buffer allocated on an earlier line,
// not freed yet and not registered (register.go). hipFree synchronizes
// the device, so it is refused while a kernel waits for a flag the host
// has not set (the run would hang). The buffer's bytes become free again.
func (c *checker) free(o *Op) *Error {
	if e := c.flags.hang("free synchronizes the device", o.Rank); e != nil {
		return e
	}
	b, e := c.buffer("buf", o.Buf, o.Op)
	if e != nil {
		return e
	}
	if l := c.bufs[o.Buf].registered; l > 0 { // freeing locked pages is undefined in HIP
		return errf("buf", "buffer %q is registered (host_register on line %d): host_unregister it before free", o.Buf, l)
	}
	if b.Host {
		c.dram.used[b.NUMA] -= b.Bytes
	} else {
		c.hbm.used[b.GCD] -= b.Bytes
	}
	a := c.bufs[o.Buf]
	a.freed = c.line
	c.bufs[o.Buf] = a
	return nil
}
