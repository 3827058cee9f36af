package config

import "testing"

// Bad NIC and network settings name the key, the file's line or the -set,
// and what is wrong.
func TestNetworkErrors(t *testing.T) {
	checkSets(t, mini, []setCase{
		{"nic.gcds=[1,4]", "-set nic.gcds=[1,4]: nic.gcds[1]: NIC 1 hangs on GCD 4, which does not exist (gcd.count = 4)"},
		{"nic.numa=[0]", "-set nic.numa=[0]: must have one entry per NIC (nic.count = 2), got 1"},
		{"nic.switch=[0,2]", "-set nic.switch=[0,2]: nic.switch[1]: NIC 1 is cabled to switch 2 of its set, which has switches 0..1"},
		{"network.nodes=0", "-set network.nodes=0: must be 1..16384, got 0"},
		{"network.nodes_per_group=100", "-set network.nodes_per_group=100: must be a multiple of nodes_per_set = 16, got 100"},
		{"network.link.bandwidth_gbps=0", "-set network.link.bandwidth_gbps=0: must be in [0.001, 1e+06], got 0"},
	})
}

// A node no NIC serves cannot reach the others once there are several
// nodes; alone it needs none.
func TestNetworkUnreachableNode(t *testing.T) {
	one := []string{"nic.count=1", "nic.gcds=[1]", "nic.numa=[0]", "nic.switch=[0]"}
	if _, err := Parse("node.toml", []byte(mini), one); err != nil {
		t.Fatalf("one node, one NIC: %v", err)
	}
	_, err := Parse("node.toml", []byte(mini), append(one, "network.nodes=2"))
	want := "-set nic.numa=[0]: no NIC serves NUMA domain 1, so GCD 2 cannot reach the other nodes"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	// With the NICs the file's, the -set of the nodes is the one named.
	_, err = Parse("node.toml", []byte(replace(t, mini, "numa = [0, 1]", "numa = [0, 0]")), []string{"network.nodes=2"})
	want = "-set network.nodes=2: nic.numa: no NIC serves NUMA domain 1, so GCD 2 cannot reach the other nodes"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// Every switch needs a port per cable; with several nodes a switch short of
// ports is an error (a zero-port switch reaches nothing).
func TestNetworkSwitchPorts(t *testing.T) {
	_, err := Parse("node.toml", []byte(mini), []string{"network.nodes=2", "network.switch_ports=0"})
	want := "-set network.switch_ports=0: a switch needs 31 ports (16 NICs, 15 other switches of its group, 0 global links), got 0"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// Issue 21: a NIC cabled to a switch its set lacks is an error on several
// nodes too, where the ports check counts cables by switch (it panicked).
func TestNetworkSwitchOutOfSetOnNodes(t *testing.T) {
	_, err := Parse("node.toml", []byte(mini), []string{"network.nodes=2", "network.switches_per_set=1"})
	want := "-set network.switches_per_set=1: nic.switch[1]: NIC 1 is cabled to switch 1 of its set, which has switches 0..0"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
