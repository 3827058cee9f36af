package rccl

import (
	"bytes"
	"fmt"
	"github.com/akisim/akisim/config"
	"strings"
)

// Layout of RCCL's ring lines (dumpLine in src/graph/rings.cc): a line of
// spaces, the first prefixKeep bytes of the prefix, then " %3d" per rank
// every 4 bytes from the prefix's full length, at most maxRanksShown ranks.
const (
	prefixKeep    = 15
	maxRanksShown = 20
)

// DebugLines are the lines NCCL_DEBUG=INFO prints for the channels' rings
// (rank 0 prints them when it connects the rings, ncclBuildRings), one per
// channel, without the INFO prefix (InfoPrefix):
//
//	Channel 00/16 :    0   1   3   2   4   5   7   6
//
// "Channel %02d/%02d : " names the channel and the channel count; each ring
// is walked from rank 0 and its ranks printed " %3d" each. The prefix is cut
// to 15 bytes and the ranks start at its full length, so one space is lost
// between the colon and the first rank field; ranks past the 20th are not
// printed.
func DebugLines(channels []Ring) []string {
	lines := make([]string, len(channels))
	for c, r := range channels {
		prefix := fmt.Sprintf("Channel %02d/%02d : ", c, len(channels))
		line := bytes.Repeat([]byte(" "), prefixKeep+5*maxRanksShown) // RCCL's line buffer
		copy(line, prefix[:min(prefixKeep, len(prefix))])
		end := len(line)
		for i, rank := range r.Ranks {
			if i == maxRanksShown {
				break
			}
			field := fmt.Sprintf(" %3d", rank)
			at := len(prefix) + 4*i
			if at+len(field) > len(line) {
				line = append(line, bytes.Repeat([]byte(" "), at+len(field)-len(line))...)
			}
			copy(line[at:], field)
			end = at + len(field) // a wide rank runs into the next field, which overwrites it
		}
		lines[c] = string(line[:end])
	}
	return lines
}

// InfoPrefix is what RCCL's logger puts before each NCCL_DEBUG=INFO line:
// the host name (up to its first dot), process id, thread id and the HIP
// device of the printing rank.
func InfoPrefix(host string, pid, tid, device int) string {
	host, _, _ = strings.Cut(host, ".")
	return fmt.Sprintf("%s:%d:%d [%d] NCCL INFO ", host, pid, tid, device)
}

// InitLines are the NCCL_DEBUG=INFO lines rank 0 of a communicator over
// gcds prints while it is created, without the INFO prefix: its rings
// (one line per channel), the rings connected, and its channel counts.
// Warnings about ignored settings come first.
// Between nodes (net: the run's nodes and NICs) they are the rings the
// communicator's nodes share (net.go).
func InitLines(t Topology, net config.CXI, gcds []int, opts Options) ([]string, error) {
	x := &expander{p: Params{Net: net}, t: t}
	rings, err := x.rings(gcds)
	if err != nil {
		return nil, err
	}
	chans, notes := Channels(t.GPU, rings, opts)
	lines := append([]string{}, notes...)
	lines = append(lines, DebugLines(chans)...)
	lines = append(lines, fmt.Sprintf("Connected all rings comm 0x%x nRanks %02d busId %x", 0x55aa0000, len(gcds), BusID(gcds[0])),
		fmt.Sprintf("%d coll channels, %d collnet channels, %d nvls channels, %d p2p channels, %d p2p channels per peer",
			len(chans), 0, 0, p2pChannels, p2pChannelsPerPeer))
	return lines, nil
}

// P2P channels of a single-node communicator on gfx90a (paths.cc):
// 16 in all, 2 per peer.
const p2pChannels, p2pChannelsPerPeer = 16, 2

// BusID is the PCI bus id RCCL prints for a GCD, in the layout of a
// Frontier node (c1000, c6000, c9000, ce000, d1000, d6000, d9000, de000
// for GCDs 0..7); other GCD counts continue the pattern.
func BusID(gcd int) int {
	return 0xc1000 + gcd/2*0x8000 + gcd%2*0x5000
}
