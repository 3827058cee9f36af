package hip_test

import (
	"reflect"
	"testing"

	"github.com/akisim/akisim/trace"
)

// store is a host_access of threads host threads on NUMA domain numa
// storing bytes to buffer buf.
func store(buf string, numa, threads int, bytes int64) trace.Op {
	return trace.Op{Op: trace.HostAccess, NUMA: intp(numa), Threads: threads,
		Access: []trace.Access{{Buf: buf, Mode: "write", Bytes: bytes}}}
}

// Host threads storing to mapped GPU memory block the host until the stores
// are done; the host's cores move the bytes, no GCD runs anything.
func TestHostAccessBlocksTheHostThread(t *testing.T) {
	ops := []trace.Op{device("d", 2, 64*mib),
		store("d", 1, 4, 64*mib),
		device("x", 0, 64)}
	res, n := run(t, nil, ops)
	ha := res[1]
	if !(ha.Issue <= ha.Start && ha.Start < ha.End) {
		t.Errorf("host access issued %g, ran %g..%g", ha.Issue, ha.Start, ha.End)
	}
	if res[2].Issue < ha.End {
		t.Errorf("host went on at %g s, before its stores ended at %g s", res[2].Issue, ha.End)
	}
	if n.Cores.Accesses() != 1 || n.Cores.BytesWritten() != 64*mib || n.Cores.BytesRead() != 0 {
		t.Errorf("host cores ran %d accesses, wrote %d B, read %d B; want 1, %d, 0",
			n.Cores.Accesses(), n.Cores.BytesWritten(), n.Cores.BytesRead(), 64*mib)
	}
	if got, want := kernelsBy(n), make([]uint64, len(n.GCDs)); !reflect.DeepEqual(got, want) {
		t.Errorf("kernels per GCD %v, want none", got)
	}
	if b := sdmaBytes(n); b != 0 {
		t.Errorf("SDMA engines copied %d B", b)
	}
}

// A host access is the host thread's own work, in no stream: it does not
// wait for asynchronous copies still running, and they do not wait for it.
func TestHostAccessDoesNotWaitForStreams(t *testing.T) {
	ops := []trace.Op{host("h", 0, 1024*mib), device("d0", 0, 1024*mib), device("d5", 5, mib),
		copyAsync("h", "d0", 1024*mib, 1),
		store("d5", 2, 1, mib),
		{Op: trace.DeviceSync}}
	res, _ := run(t, nil, ops)
	cp, ha := res[3], res[4]
	if ha.End >= cp.End {
		t.Errorf("1 MiB of host stores ended at %g s, after the 1 GiB copy enqueued before them (%g s): they waited for the stream",
			ha.End, cp.End)
	}
	if cp.Start >= ha.End {
		t.Errorf("the copy started at %g s, after the host stores ended (%g s)", cp.Start, ha.End)
	}
	if res[5].End < cp.End {
		t.Error("device_sync returned before the copy ended")
	}
}
