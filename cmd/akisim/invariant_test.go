package main

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/akisim/akisim/components/fabric"
	"github.com/akisim/akisim/invariant"
	"github.com/akisim/akisim/node"
)

// A run with -check whose node is broken after it ran (a packet left in
// an xGMI bundle, a NIC that copied bytes no command asked for, an RCCL
// counter raised once more than its kernels did) is an internal error,
// exit 3, one line per violation naming the invariant and the component;
// without the breakage the same run passes.
func TestCheckCatchesBrokenLinkNICAndFlag(t *testing.T) {
	args := []string{"rccl", "-nodes", "2", "-gcds", "0,1,8,9", "-sizes", "65536", "-iters", "1", "-warmup", "0", "-quiet", "-check"}
	if code, _, errs := akisim(t, args...); code != 0 {
		t.Fatalf("intact run: exit %d: %s", code, errs)
	}
	var flag string
	invariant.Corrupt = func(n *node.Node) {
		p := fabric.NewRequest(fabric.WriteReq, 4096, fabric.Memory{Index: 1}, nil, nil, nil)
		p.Meta().RecvTime = n.Engine.CurrentTime()
		n.Bundles[0].Port(0).Recv(p) // taken in, never delivered: the engine has stopped
		n.NICs[0].Engines[0].BytesCopied += 4096
		for name := range n.Runtime.GPUFlags() {
			if strings.HasPrefix(name, "rccl.") && (flag == "" || name < flag) {
				flag = name
			}
		}
		n.Runtime.GPUFlags()[flag].Store(n.Engine.CurrentTime())
	}
	defer func() { invariant.Corrupt = nil }()
	code, out, errs := akisim(t, args...)
	if code != 3 || out != "" {
		t.Fatalf("exit %d, stdout %q, want 3 and nothing", code, out)
	}
	for _, want := range []string{
		`akisim: internal error: invariant "link delivers what it takes in" broken at Node[0].XGMI[0][1]: dir 0: `,
		`akisim: internal error: invariant "NIC DMA engines copy the bytes of their commands" broken at Node[0].NIC[0]: `,
		`akisim: internal error: invariant "every GPU flag store lands" broken at GPU flag ` + flag + `: `,
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	for _, l := range strings.Split(strings.TrimSpace(errs), "\n") {
		if !strings.HasPrefix(l, "akisim: internal error: invariant ") {
			t.Errorf("stderr line %q is not a violation", l)
		}
	}
}

// -check is a flag of the runs: a sweep hands it to every point, and
// validate takes it (it always checks).
func TestCheckReachesEveryRun(t *testing.T) {
	s, err := newSweep([]string{"-set", "xgmi.lane_bandwidth_gbps=25,50", "-check", "-workload", "p2p", "-outdir", "D"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Points()) != 2 {
		t.Fatalf("%d points, want 2", len(s.Points()))
	}
	for _, p := range s.Points() {
		if !slices.Contains(p.Args, "-check") {
			t.Errorf("point %v lacks -check", p.Args)
		}
	}
	if _, err := parse([]string{"validate", "-check"}, io.Discard); err != nil {
		t.Errorf("validate -check: %v", err)
	}
}
