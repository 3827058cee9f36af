package hip_test

import (
	"reflect"
	"testing"

	"github.com/akisim/akisim/components/sdma"
	"github.com/akisim/akisim/trace"
)

func engineOf(list []*sdma.Engine, name string) bool {
	for _, e := range list {
		if e.Name() == name {
			return true
		}
	}
	return false
}

// With SDMA on, a host copy runs on a host engine of the GCD holding the
// device buffer, a peer copy on an xGMI engine of the source GCD, and the
// engine moves the copy's bytes; no CU runs anything.
func TestSDMACopiesRunOnTheRightEngine(t *testing.T) {
	ops := []trace.Op{host("h", 3, 32*mib), device("d5", 5, 32*mib), device("d2", 2, 32*mib), device("d7", 7, 32*mib),
		copyAsync("h", "d5", 32*mib, 1),
		copyAsync("d2", "h", 32*mib, 2),
		{Op: trace.MemcpyPeerAsy, Src: "d2", Dst: "d7", Bytes: 32 * mib, Stream: 3},
		{Op: trace.DeviceSync}}
	res, n := run(t, nil, ops)
	for _, c := range []struct {
		i    int
		list []*sdma.Engine
		want string
	}{
		{4, n.GCDs[5].HostEngines, "a host engine of GCD 5"},
		{5, n.GCDs[2].HostEngines, "a host engine of GCD 2"},
		{6, n.GCDs[2].XGMIEngines, "an xGMI engine of GCD 2"},
	} {
		if !engineOf(c.list, res[c.i].Engine) {
			t.Errorf("op %d ran on %q, want %s", c.i, res[c.i].Engine, c.want)
		}
	}
	if b := sdmaBytes(n); b != 3*32*mib {
		t.Errorf("SDMA engines copied %d B, want %d", b, 3*32*mib)
	}
	if got, want := kernelsBy(n), make([]uint64, len(n.GCDs)); !reflect.DeepEqual(got, want) {
		t.Errorf("kernels per GCD %v, want none", got)
	}
}
