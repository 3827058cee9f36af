package trace

// Memory grain. Fine-grained memory is coherent across agents: a GCD that
// is not its home maps it MTYPE UC and never caches it; coarse-grained
// memory is mapped MTYPE NC there and may sit in that GCD's L2 until a
// system-scope acquire (shared docs host-memory.md sections 2-4; KFD
// svm_range_get_pte_flags for gfx90a). Device memory is coarse unless
// allocated with "fine"; pinned host memory is fine unless "noncoherent";
// registered memory is fine; managed memory is fine until mem_advise sets
// coarse grain.

// MemAdvise is hipMemAdvise on a managed buffer (the whole buffer). The
// device argument does not matter for the grain advices: they set or clear
// the range's KFD COHERENT flag.
const MemAdvise Kind = "mem_advise"

// The advices mem_advise takes.
const (
	AdviseSetCoarseGrain   = "set_coarse_grain"   // hipMemAdviseSetCoarseGrain
	AdviseUnsetCoarseGrain = "unset_coarse_grain" // hipMemAdviseUnsetCoarseGrain
)

func init() {
	fieldsOf[MemAdvise] = []string{"buf", "advice"}
}

// advise checks a mem_advise op: a managed buffer and a known advice.
func (c *checker) advise(o *Op) *Error {
	b, e := c.buffer("buf", o.Buf, o.Op)
	if e != nil {
		return e
	}
	if !b.Managed {
		return errf("buf", "%q is not managed memory: mem_advise takes a malloc_managed buffer", o.Buf)
	}
	switch o.Advice {
	case AdviseSetCoarseGrain, AdviseUnsetCoarseGrain:
		return nil
	case "":
		return errf("advice", "required by mem_advise: %q or %q", AdviseSetCoarseGrain, AdviseUnsetCoarseGrain)
	}
	return errf("advice", "want %q or %q, got %q", AdviseSetCoarseGrain, AdviseUnsetCoarseGrain, o.Advice)
}
