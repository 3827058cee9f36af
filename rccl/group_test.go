package rccl

import (
	"strings"
	"testing"
)

// Inside ncclGroupStart/End a GCD's sends and receives on one stream are
// one kernel, launched at the group's end, with a channel per part of
// each; outside a group each call is its own kernel.
func TestGroupedSendRecvOneKernel(t *testing.T) {
	calls := callTrace(2, "rccl_send 1048576", "rccl_recv 1048576")
	lines := strings.SplitAfter(calls, "\n")
	at := 3 // after the two mallocs and the communicator
	grouped := strings.Join(lines[:at], "") + `{"op":"rccl_group_start"}` + "\n" + strings.Join(lines[at:], "") + `{"op":"rccl_group_end"}` + "\n"
	_, out := expand(t, grouped)
	ks := kernels(out)
	if len(ks) != 2 {
		t.Fatalf("grouped: %d kernels, want one per GCD", len(ks))
	}
	for _, k := range ks {
		if len(k.Channels) != 2*p2pChannelsPerPeer || k.Bytes != 2<<20 {
			t.Errorf("GCD %d: %d channels, %d bytes; want %d channels (a send's and a receive's parts) and 2 MiB",
				*k.GCD, len(k.Channels), k.Bytes, 2*p2pChannelsPerPeer)
		}
	}
	if last := out[len(out)-1]; last.Op != ks[1].Op || *last.GCD != *ks[1].GCD {
		t.Errorf("the group's kernels do not come last: %+v", last)
	}
	_, out = expand(t, calls)
	if got := len(kernels(out)); got != 4 {
		t.Errorf("ungrouped: %d kernels, want one per call (4)", got)
	}
}
