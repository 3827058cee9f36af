package ir

import (
	"testing"

	"github.com/akisim/akisim/trace"
)

// A trace's ops become commands that carry each call whole, lowered
// nothing, and still name the trace's lines.
func TestFromTrace(t *testing.T) {
	g := 3
	ops := []trace.Op{
		{Op: trace.Malloc, Buf: "a", GCD: &g, Bytes: 64, Line: 7},
		{Op: trace.Kernel, Name: "k", GCD: &g, Grid: 64, Workgroup: 64, InFlight: 4096},
	}
	cmds := FromTrace(ops)
	if len(cmds) != 2 || cmds[0].Buf != "a" || cmds[1].InFlight != 4096 || cmds[1].Op != trace.Kernel {
		t.Fatalf("commands %+v", cmds)
	}
	if cmds[1].Channels != nil || cmds[1].NIC != nil || cmds[1].StopEvent {
		t.Errorf("a trace's kernel came back lowered: %+v", cmds[1])
	}
	if l := LineOf(cmds, 0); l != 7 {
		t.Errorf("line of the first command %d, want the trace's 7", l)
	}
	if l := LineOf(cmds, 1); l != 2 {
		t.Errorf("line of a generated command %d, want its position 2", l)
	}
	ops[0].Buf = "changed"
	if cmds[0].Buf != "a" {
		t.Error("a command shares its op's storage")
	}
}
