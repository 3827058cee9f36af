package main

import (
	"strings"
	"testing"
)

// An unknown release of the stack is bad input: one line naming it, exit 2.
func TestBinaryUnknownRelease(t *testing.T) {
	oneLine(t, exe(t, t.TempDir(), nil, nil, "-set", "stack.rocm=4.0", "-cases", "latency"), 2,
		`-set stack.rocm=4.0: unknown release "4.0" (stack.rocm_release has 5.3, 5.7, 6.2)`)
	oneLine(t, exe(t, t.TempDir(), nil, nil, "-set", "stack.cray_mpich=8.1.99", "-cases", "latency"), 2,
		`-set stack.cray_mpich=8.1.99: unknown release "8.1.99" (stack.cray_mpich_release has 8.1.28, 8.1.31)`)
	oneLine(t, exe(t, t.TempDir(), nil, nil, "-set", "stack.rccl=1.0", "-cases", "latency"), 2,
		`-set stack.rccl=1.0: unknown release "1.0" (stack.rccl_release has 2.17.1, 2.20.5)`)
}

// `akisim configs` says which stack each config models and what each
// release sets.
func TestBinaryConfigsListReleases(t *testing.T) {
	r := exe(t, t.TempDir(), nil, nil, "configs")
	for _, want := range []string{"config                   name                rocm  cray_mpich  rccl", "frontier-node       6.2   8.1.31      2.20.5",
		"rocm  pin_chunk_bytes  fault_pending_ns", "6.2   134217728        0", "Cray MPICH releases (-set stack.cray_mpich=R); each sets:\ncray_mpich  gpu_allreduce_kernel\n8.1.28      false",
		"RCCL releases (-set stack.rccl=R); each sets:\nrccl    chain_chunks\n2.17.1  false"} {
		if r.code != 0 || !strings.Contains(r.stdout, want) {
			t.Errorf("configs: exit %d, want %q in:\n%s", r.code, want, r.stdout)
		}
	}
}
