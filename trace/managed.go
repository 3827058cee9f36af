package trace

import "strconv"

// Managed memory (hipMallocManaged) and hipMemPrefetchAsync. A managed
// buffer's pages start in host DRAM on a NUMA domain; with HSA_XNACK=1 a
// kernel touching them migrates them to its GCD, and a prefetch moves the
// whole range (shared docs host-memory.md sections 3 and 4).

// Managed-memory operation kinds.
const (
	MallocManaged Kind = "malloc_managed" // hipMallocManaged: pages start in host DRAM on a NUMA domain
	Prefetch      Kind = "prefetch"       // hipMemPrefetchAsync(buf, bytes, dst, stream): the whole buffer to a GCD or the host
)

// PrefetchHost is the dst of a prefetch to host memory (hipCpuDeviceId).
const PrefetchHost = "host"

func init() {
	fieldsOf[MallocManaged] = []string{"buf", "numa", "bytes"}
	fieldsOf[Prefetch] = []string{"buf", "dst", "stream"}
}

// PrefetchGCD is where a prefetch moves its buffer: a GCD, or -1 for the
// host. ok is false when dst is neither "host" nor a GCD number.
func PrefetchGCD(dst string) (g int, ok bool) {
	if dst == PrefetchHost {
		return -1, true
	}
	g, err := strconv.Atoi(dst)
	if err != nil || g < 0 || strconv.Itoa(g) != dst {
		return 0, false
	}
	return g, true
}

// managed checks the rules of managed memory that apply to any op: the
// copy engines' paths do not take managed buffers (a hipMemcpy of managed
// memory is not modelled), and a prefetch names a managed buffer and a
// destination on the node. It returns nil for every other op.
func (c *checker) managed(o *Op) *Error {
	if o.IsCopy() {
		for _, f := range []struct{ field, buf string }{{"src", o.Src}, {"dst", o.Dst}} {
			if c.bufs[f.buf].Managed {
				return errf(f.field, "%q is managed (malloc_managed) memory: copies of it are not modelled; use a kernel or a prefetch", f.buf)
			}
		}
	}
	if o.Op != Prefetch {
		return nil
	}
	b, e := c.buffer("buf", o.Buf, o.Op)
	if e != nil {
		return e
	}
	if !b.Managed {
		return errf("buf", "%q is not managed memory: prefetch takes a malloc_managed buffer", o.Buf)
	}
	if o.Dst == "" {
		return errf("dst", "required by prefetch: %q or a GCD number", PrefetchHost)
	}
	g, ok := PrefetchGCD(o.Dst)
	if !ok {
		return errf("dst", "want %q or a GCD number, got %q", PrefetchHost, o.Dst)
	}
	if g >= c.gcds {
		return errf("dst", "must be %q or a GCD in 0..%d, got %s", PrefetchHost, c.gcds-1, o.Dst)
	}
	return CheckStream(o)
}
