package trace

// Host-side synchronisation between ranks and host time. A rank's host
// thread may wait for a flag in host memory that another rank sets
// (flag_wait, a poll of shared memory, as MPI libraries hand messages
// between processes), and may spend time computing between calls
// (host_compute: the host's own work, or a library's cost in no HIP call).

// Host-side kinds.
const (
	FlagWait    Kind = "flag_wait"    // the host thread polls a flag until another rank sets it
	HostCompute Kind = "host_compute" // the host thread works for compute_ns
)

func init() {
	fieldsOf[FlagWait] = []string{"flag"}
	fieldsOf[HostCompute] = []string{"compute_ns"}
}

// hostWaiters lists the flags some flag_wait waits on, anywhere in ops.
func hostWaiters(ops []Op) map[string]bool {
	m := map[string]bool{}
	for i := range ops {
		if ops[i].Op == FlagWait {
			m[ops[i].Flag] = true
		}
	}
	return m
}

// flagWait checks a flag_wait: a flag set already, or set by another
// rank (whose thread runs side by side); a flag only its own rank sets
// later would never come.
func (f *flags) flagWait(o *Op) *Error {
	if o.Flag == "" {
		return errf("flag", "required by %s", o.Op)
	}
	if _, ok := f.set[o.Flag]; ok {
		return nil
	}
	if f.setByOther(o.Flag, o.Rank) {
		return nil
	}
	return errf("flag", "flag %q is not set before this line nor by another rank (flag_set): the host would wait forever", o.Flag)
}
