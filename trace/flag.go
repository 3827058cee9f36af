package trace

import "slices"

// Flags let a trace hold a stream back until the host has queued all its
// work, as p2pBandwidthLatencyTest does: a kernel with a wait_flag (the
// sample's delay kernel) spins on a flag in mapped host memory, and the
// host releases it with flag_set. Check keeps such traces from hanging.

// flags is what Check knows of a trace's flags so far.
type flags struct {
	waiter  map[string]int   // flag -> line of the first kernel waiting on it
	rank    map[string]int   // flag -> the rank of that kernel
	set     map[string]int   // flag -> line of its flag_set (or of the kernel that sets it)
	byGPU   map[string]bool  // flags a kernel sets (when it ends, not when the host reaches its line)
	pending []string         // flags waited on and not set yet, in order of first wait
	setters map[string][]int // flag -> ranks with a flag_set (or a kernel's set_flag) of it anywhere in the trace
	hosts   map[string]bool  // flags some flag_wait waits on, anywhere in the trace
}

// setRanks finds, before the checks, which ranks set each flag: a rank's
// host threads run side by side, so a flag another rank sets later in the
// file may still release a kernel this rank waits for.
func setRanks(ops []Op) map[string][]int {
	m := map[string][]int{}
	for i := range ops {
		o := &ops[i]
		flag := o.Flag
		if o.Op == Kernel {
			flag = o.SetFlag
		}
		if (o.Op == FlagSet || (o.Op == Kernel && flag != "")) && !slices.Contains(m[flag], o.Rank) {
			m[flag] = append(m[flag], o.Rank)
		}
	}
	return m
}

// wait checks the wait_flag of the kernel on line, of rank.
func (f *flags) wait(name string, line, rank int) *Error {
	if l, ok := f.set[name]; ok {
		if f.byGPU[name] { // a kernel queued earlier sets it when it ends
			return nil
		}
		return errf("wait_flag", "flag %q already set on line %d, so the kernel would not wait (a flag is set once: use a new name)", name, l)
	}
	if _, ok := f.waiter[name]; !ok {
		f.waiter[name], f.rank[name] = line, rank
		f.pending = append(f.pending, name)
	}
	return nil
}

// setFlag checks the flag_set o on line.
func (f *flags) setFlag(o *Op, line int) *Error {
	if o.Flag == "" {
		return errf("flag", "required by %s", o.Op)
	}
	if l, ok := f.set[o.Flag]; ok {
		return errf("flag", "flag %q already set on line %d", o.Flag, l)
	}
	if _, ok := f.waiter[o.Flag]; !ok && !f.hosts[o.Flag] {
		return errf("flag", "no kernel on an earlier line waits on flag %q (wait_flag), nor any flag_wait", o.Flag)
	}
	f.set[o.Flag] = line
	for i, p := range f.pending {
		if p == o.Flag {
			f.pending = append(f.pending[:i], f.pending[i+1:]...)
			break
		}
	}
	return nil
}

// blocks refuses a host call that waits for device work while a kernel
// waits for a flag only the host can set: the run would hang. It is
// stricter than needed (the call may wait for other streams) but simple.
// A memcpy_async of pageable memory blocks like memcpy.
func (f *flags) blocks(o *Op, pageable bool) *Error {
	if len(f.pending) == 0 {
		return nil
	}
	what := string(o.Op)
	switch o.Op {
	case MemcpyAsync:
		if !pageable {
			return nil
		}
		what = "memcpy_async of pageable memory"
	case Memcpy, MemcpyPeer, EventSync, StreamSync, DeviceSync, Prefetch, Memset: // a prefetch and a memset return when done
	default:
		return nil
	}
	return f.hang(what+" blocks the host", o.Rank)
}

// hang reports a host call (what it does) of rank that would wait forever
// for the first of the rank's kernels waiting on a flag not set yet that
// no other rank sets either; nil if there is none.
func (f *flags) hang(what string, rank int) *Error {
	for _, p := range f.pending {
		if f.rank[p] != rank {
			continue
		}
		if !f.setByOther(p, rank) {
			return errf("op", "%s while the kernel on line %d waits for flag %q, which only the host sets (flag_set): the run would hang",
				what, f.waiter[p], p)
		}
	}
	return nil
}

// setByOther says whether a rank other than rank sets flag name somewhere
// in the trace: its thread runs side by side, so it may set it later.
func (f *flags) setByOther(name string, rank int) bool {
	return slices.ContainsFunc(f.setters[name], func(r int) bool { return r != rank })
}

// unset reports, after the last op, a flag that is never set, at the
// first kernel waiting on it.
func (f *flags) unset(name string) *Error {
	if len(f.pending) == 0 {
		return nil
	}
	p := f.pending[0]
	e := errf("wait_flag", "flag %q is never set (no flag_set after this line): the kernel would wait forever", p)
	e.File, e.Line = name, f.waiter[p]
	return e
}

// kernelSet checks the set_flag of kernel o on line: a flag is set once,
// by the host or by one kernel; it needs no waiter before it (a kernel on
// another GCD may wait for it later in the file).
func (f *flags) kernelSet(o *Op, line int) *Error {
	if l, ok := f.set[o.SetFlag]; ok {
		return errf("set_flag", "flag %q already set on line %d", o.SetFlag, l)
	}
	f.set[o.SetFlag], f.byGPU[o.SetFlag] = line, true
	if i := slices.Index(f.pending, o.SetFlag); i >= 0 {
		f.pending = slices.Delete(f.pending, i, i+1)
	}
	return nil
}
