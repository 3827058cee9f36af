package rccl

import (
	"bytes"
	"fmt"
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
