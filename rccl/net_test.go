package rccl

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/trace"
)

// netExpander is an expander for a cluster of Frontier nodes.
func netExpander(t *testing.T, sets ...string) *expander {
	t.Helper()
	c, err := config.Load(filepath.Join("..", "configs", "frontier-node.toml"), append([]string{"network.nodes=2"}, sets...))
	if err != nil {
		t.Fatal(err)
	}
	return &expander{p: ParamsFromConfig(c), t: FromConfig(c), comms: map[string]*comm{}, groups: map[int]*group{},
		proxyCopies: map[int]int{}, proxies: map[proxyKey]int{}}
}

// Across two Frontier nodes the rings are RCCL's model 74 chains, node
// after node: each node's part enters at one NIC's GCD and leaves at
// another's; every GCD is on every ring once.
func TestNetRingsModel74(t *testing.T) {
	x := netExpander(t)
	rings, err := x.rings(all(16))
	if err != nil {
		t.Fatal(err)
	}
	if len(rings) != 4 {
		t.Fatalf("%d rings, want model 74's 4", len(rings))
	}
	var chains [][]int
	for _, r := range rings {
		var node0 []int
		for i := range r.GCDs {
			// node 0's chain: the run of node-0 GCDs that follows a node-1 GCD
			if prev := r.GCDs[(i+15)%16]; r.GCDs[i] < 8 && prev >= 8 {
				for j := 0; j < 8; j++ {
					node0 = append(node0, r.GCDs[(i+j)%16])
				}
			}
		}
		var node1 []int
		for _, v := range node0 {
			node1 = append(node1, v+8)
		}
		if !slices.ContainsFunc(model74, func(c []int) bool { return slices.Equal(c, node0) }) {
			t.Errorf("ring %v: node 0's chain %v is not one of model 74's", r.GCDs, node0)
		}
		if i := slices.Index(r.GCDs, node1[0]); i < 0 || !slices.Equal(append(slices.Clone(r.GCDs[i:]), r.GCDs[:i]...)[:8], node1) {
			t.Errorf("ring %v: node 1's chain is not node 0's, shifted: %v", r.GCDs, node1)
		}
		chains = append(chains, node0)
	}
	for _, c := range model74 {
		if !slices.ContainsFunc(chains, func(d []int) bool { return slices.Equal(c, d) }) {
			t.Errorf("model 74 chain %v missing", c)
		}
	}
}

// A node whose links are not model 73's: each ring is cut where its ends
// use two NICs, at its narrowest such link.
func TestNetRingsCut(t *testing.T) {
	x := netExpander(t, "xgmi.bundle[0-2].lanes=2")
	rings, err := x.rings(all(16))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rings {
		for i, v := range r.GCDs {
			next := r.GCDs[(i+1)%16]
			if v/8 != next/8 && x.p.Net.NICOf[v%8] == x.p.Net.NICOf[next%8] {
				t.Errorf("ring %v leaves node %d at GCD %d and enters at %d through one NIC", r.GCDs, v/8, v, next)
			}
		}
	}
	if _, err := x.rings([]int{0, 1, 8}); err == nil {
		t.Error("a communicator with GCDs 0, 1 on node 0 and only 8 on node 1 was accepted")
	}
}

// An AllReduce across nodes: each crossing's sender proxy sends every slot
// its kernel filled, over its GCD's NIC to the receiver's, and the
// receiving kernel waits for the counter the NIC raises; large slots go
// by rendezvous (a 2 KiB put, then the receiver's get).
func TestNetAllReduceProxies(t *testing.T) {
	x := netExpander(t)
	gcds := all(16)
	init := trace.Op{Op: trace.RCCLCommInit, Comm: "w", GCDs: gcds}
	if err := x.call(&init); err != nil {
		t.Fatal(err)
	}
	for _, g := range gcds {
		o := trace.Op{Op: trace.RCCLAllReduce, Comm: "w", GCD: intp(g), Src: "s", Dst: "d", Bytes: 64 << 20, Stream: 1, Rank: g / 8}
		if err := x.call(&o); err != nil {
			t.Fatal(err)
		}
	}
	puts, gets := 0, 0
	for _, o := range x.out {
		if o.NIC == nil {
			continue
		}
		if o.Rank < ProxyRank {
			t.Errorf("RDMA copy on rank %d, not a proxy thread", o.Rank)
		}
		switch {
		case o.WaitFlag != "":
			gets++
			if o.LandGPUFlag == "" || o.SetGPUFlag == "" || *o.NIC != *o.RecvNIC {
				t.Errorf("get %+v: want the receiver's NIC, raising the receiver's tail and the sender's head", o)
			}
		default:
			puts++
			if o.LandFlag == "" || o.Bytes != x.p.Net.EagerSize {
				t.Errorf("rendezvous put of %d B landing %q", o.Bytes, o.LandFlag)
			}
		}
	}
	if puts == 0 || puts != gets {
		t.Errorf("%d puts, %d gets: want one get per put", puts, gets)
	}
	if _, err := x.rings(gcds); err != nil {
		t.Fatal(err)
	}
	send := trace.Op{Op: trace.RCCLSend, Comm: "w", GCD: intp(0), Buf: "s", Bytes: 8, Peer: intp(8), Stream: 1}
	if err := x.call(&send); err == nil {
		t.Error("send between nodes was accepted")
	}
}
