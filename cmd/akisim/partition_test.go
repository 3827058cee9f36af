package main

import "testing"

// A partition mode the device does not have, or a pairing AMD does not
// make, is bad input: exit 2 and one line naming the key.
func TestPartitionBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-config", "mi300x-node.toml", "-set", "gcd.memory_partition=NPS4"}, "gcd.memory_partition=NPS4: NPS4 makes 4 memory partitions: AMD pairs NPS4 with CPX only"},
		{[]string{"-config", "mi300x-node.toml", "-set", "gcd.compute_partition=TPX"}, "gcd.compute_partition=TPX: TPX makes 3 devices, which must divide gcd.xcds (8)"},
		{[]string{"stream", "-config", "mi300a-node.toml", "-set", "gcd.compute_partition=QPX"}, "gcd.compute_partition=QPX: QPX makes 4 devices, which must divide gcd.xcds (6)"},
		{[]string{"-config", "frontier-cluster.toml", "-set", "gcd.xcds=8", "-set", "gcd.compute_partition=CPX"}, "gcd.compute_partition=CPX: CPX is modelled on one node only (network.nodes = 1), got network.nodes = 2"},
	} {
		wantBad(t, tc.args, tc.want)
	}
}
