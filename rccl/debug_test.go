package rccl

import (
	"strings"
	"testing"
)

func TestDebugLines(t *testing.T) {
	rings := mustRings(t, load(t, "frontier-node.toml"), all(8))
	channels, _ := Channels(GPU{}, rings, Options{})
	lines := DebugLines(channels)
	want := []string{
		"Channel 00/16 :    0   1   3   2   4   5   7   6",
		"Channel 01/16 :    0   6   7   5   4   2   3   1",
		"Channel 02/16 :    0   1   5   4   6   7   3   2",
		"Channel 03/16 :    0   2   3   7   6   4   5   1",
		"Channel 04/16 :    0   1   3   2   4   5   7   6",
	}
	if len(lines) != 16 {
		t.Fatalf("%d lines, want 16", len(lines))
	}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("line %d:\n got %q\nwant %q", i, lines[i], w)
		}
	}
	if last := lines[15]; last != "Channel 15/16 :    0   2   3   7   6   4   5   1" {
		t.Errorf("last line %q", last)
	}
	four, _ := Channels(GPU{}, rings, Options{MaxChannels: intp(4)})
	if got := DebugLines(four)[0]; got != "Channel 00/04 :    0   1   3   2   4   5   7   6" {
		t.Errorf("4 channels: %q", got)
	}
}

// RCCL's fixed-width layout: a rank wider than its field is cut by the next
// one, only 20 ranks show, and a wider prefix is cut to 15 bytes.
func TestDebugLinesLayout(t *testing.T) {
	ranks := make([]int, 22)
	for i := range ranks {
		ranks[i] = i
	}
	many := make([]Ring, 100)
	for i := range many {
		many[i] = Ring{Ranks: []int{0, 1}}
	}
	for _, tc := range []struct {
		channels []Ring
		line     int
		want     string
	}{
		{[]Ring{{Ranks: []int{0, 1000, 1}}}, 0, "Channel 00/01 :    0 100   1"},
		{[]Ring{{Ranks: []int{0, 1, 1000}}}, 0, "Channel 00/01 :    0   1 1000"},
		{[]Ring{{Ranks: ranks}}, 0, "Channel 00/01 :" + strings.Repeat(" ", 1) +
			"   0   1   2   3   4   5   6   7   8   9  10  11  12  13  14  15  16  17  18  19"},
		{many, 99, "Channel 99/100      0   1"}, // the colon is past byte 15
	} {
		if got := DebugLines(tc.channels)[tc.line]; got != tc.want {
			t.Errorf("\n got %q\nwant %q", got, tc.want)
		}
	}
}

func TestInfoPrefix(t *testing.T) {
	if got := InfoPrefix("frontier00001.frontier.olcf.ornl.gov", 4242, 4250, 0); got != "frontier00001:4242:4250 [0] NCCL INFO " {
		t.Errorf("%q", got)
	}
}
