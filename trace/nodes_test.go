package trace

import (
	"strings"
	"testing"
)

// A kernel or a host access that reaches another node's memory is
// refused, and the error says where the work runs (its GCD or NUMA
// domain, formatted only when the check fails) and on which node.
func TestReachOtherNode(t *testing.T) {
	two := Limits{GCDs: 16, NUMADomains: 8, GCDsPerNode: 8, NUMAPerNode: 4, HBMBytes: 1 << 34, NUMABytes: 1 << 36}
	far := `{"op":"malloc","buf":"far","gcd":9,"bytes":4096}` + "\n"
	for _, tc := range []struct{ op, want string }{
		{`{"op":"kernel","name":"k","gcd":1,"grid":64,"workgroup":64,"access":[{"buf":"far","mode":"read","bytes":64}]}`,
			`t.jsonl:2: access[0].buf: "far" is on GCD 9 of node 1, but the kernel runs on GCD 1 of node 0: nodes share no memory, send it with MPI or RCCL`},
		{`{"op":"host_access","numa":2,"access":[{"buf":"far","mode":"read","bytes":64}]}`,
			`t.jsonl:2: access[0].buf: "far" is on GCD 9 of node 1, but the host threads run on NUMA domain 2 of node 0: nodes share no memory, send it with MPI or RCCL`},
	} {
		ops, err := Parse(strings.NewReader(far+tc.op), "t.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(ops, two, "t.jsonl"); err == nil || err.Error() != tc.want {
			t.Errorf("%s\n got: %v\nwant: %s", tc.op, err, tc.want)
		}
	}
}
