package trace

// hipMemset fills memory with a byte value. ROCclr fills device memory with
// a kernel on the current device's null stream and host memory on the CPU;
// a managed buffer as the ROCm release does (stack.rocm_release.managed_fill).
// The call returns when the fill is done.

// Memset is hipMemset(buf, value, bytes) with GCD gcd current.
const Memset Kind = "memset"

func init() {
	fieldsOf[Memset] = []string{"buf", "bytes", "gcd"}
}

// memset checks a memset op: its buffer, its size and the current GCD.
func (c *checker) memset(o *Op) *Error {
	b, e := c.buffer("buf", o.Buf, o.Op)
	if e != nil {
		return e
	}
	if o.Bytes <= 0 {
		return errf("bytes", "must be > 0, got %d", o.Bytes)
	}
	if e := Fits("", "bytes", "memset", 0, o.Bytes, b); e != nil {
		return e
	}
	return InRange("gcd", o.GCD, c.gcds, "GCD", o.Op)
}
