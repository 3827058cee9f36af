package rccl

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
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
	x, gcds := netAllReduce(t, 64<<20)
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

// A small AllReduce across two nodes runs RCCL's tree, as its tuning
// picks (tree LL: 12 + 2 x (7 x 0.8 + 11.8) us against the ring's 12 + 26
// x 0.8 + 4 x 9.5): each node's chain hangs off its head, and only the
// heads cross the network, once up and once down.
func TestNetTreeAllReduce(t *testing.T) {
	x, _ := netAllReduce(t, 8)
	var crossings [][2]string
	for _, o := range x.out {
		switch {
		case o.Call.Op == trace.Kernel && o.Channels != nil:
			if !strings.Contains(o.Call.Name, "_TREE_LL_") {
				t.Errorf("GCD %d runs %s, want tree LL", *o.Call.GCD, o.Call.Name)
			}
		case o.NIC != nil:
			crossings = append(crossings, [2]string{o.Call.Src, o.Call.Dst})
		}
	}
	// the heads are where channel 0's ring enters each node: the same
	// GCD of both (model 74's chains are the same on every node)
	head := x.comms["w"].channels[0].Ranks
	h := head[slices.IndexFunc(head, func(r int) bool { return r >= 8 })] - 8
	up := [2]string{fmt.Sprintf("rccl.w.fifo%d", h+8), fmt.Sprintf("rccl.w.fifo%d", h)}
	if len(crossings) != 2 || !slices.Contains(crossings, up) || !slices.Contains(crossings, [2]string{up[1], up[0]}) {
		t.Errorf("network copies %v, want one each way between GCD %d and %d (the heads' step up and down)", crossings, h, h+8)
	}
}

// netAllReduce expands one AllReduce of bytes on a communicator "w" of the
// 16 GCDs of two Frontier nodes, one process per node.
func netAllReduce(t *testing.T, bytes int64) (*expander, []int) {
	t.Helper()
	x := netExpander(t)
	gcds := all(16)
	init := trace.Op{Op: trace.RCCLCommInit, Comm: "w", GCDs: gcds}
	if err := x.call(&init); err != nil {
		t.Fatal(err)
	}
	for _, g := range gcds {
		o := trace.Op{Op: trace.RCCLAllReduce, Comm: "w", GCD: intp(g), Src: "s", Dst: "d", Bytes: bytes, Stream: 1, Rank: g / 8}
		if err := x.call(&o); err != nil {
			t.Fatal(err)
		}
	}
	return x, gcds
}
