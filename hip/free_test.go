package hip_test

import (
	"testing"

	"github.com/akisim/akisim/trace"
)

// hipFree synchronizes the device: it returns only after every stream's
// work is done, the kernel of another GCD included, and the host's next
// call comes after it.
func TestFreeWaitsForTheDevice(t *testing.T) {
	ops := []trace.Op{device("a", 0, 64*mib), device("b", 1, 64*mib),
		kernel(0, 1, 64*mib, []string{"a"}, nil),
		kernel(1, 2, 64*mib, []string{"b"}, nil),
		{Op: trace.Free, Buf: "a"},
		device("c", 0, 64*mib)}
	res, _ := run(t, nil, ops)
	free := res[4]
	for _, k := range res[2:4] {
		if free.End < k.End {
			t.Errorf("free returned at %g s, before the kernel on %s ended (%g s)", free.End, k.Engine, k.End)
		}
	}
	if res[5].Issue < free.End {
		t.Errorf("the host called malloc at %g s, before free returned (%g s)", res[5].Issue, free.End)
	}
}
