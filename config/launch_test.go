package config

import "testing"

// The idle-queue keys of [gcd] are read and bounded like every latency, and
// an out-of-range value names the -set that gave it.
func TestIdleQueueKeys(t *testing.T) {
	c, err := Parse("node.toml", []byte(mini), nil)
	if err != nil {
		t.Fatal(err)
	}
	if g := c.GCD; g.CPWakeNs != 1500 || g.PacketFetchNs != 500 {
		t.Errorf("cp_wake_ns %g, packet_fetch_ns %g, want 1500 and 500", g.CPWakeNs, g.PacketFetchNs)
	}
	checkSets(t, mini, []setCase{
		{"gcd.cp_wake_ns=-1", "-set gcd.cp_wake_ns=-1: must be in [0, 1e+09], got -1"},
		{"gcd.packet_fetch_ns=2e9", "-set gcd.packet_fetch_ns=2e9: must be in [0, 1e+09], got 2e+09"},
	})
}
