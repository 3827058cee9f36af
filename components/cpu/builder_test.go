package cpu

import "github.com/akisim/akisim/components/dram"

// testCores are frontier-node.toml's host cores (host.*), and testDRAM a
// NUMA domain's DRAM (dram.*): the tests' own values, as node gives them
// from the config.
func testCores() CoresBuilder {
	return MakeCoresBuilder().WithCores(64, 65536, 4<<16).WithLoadLines(24)
}

func testDRAM() dram.Builder {
	return dram.MakeBuilder().WithChannels(2, 25.6).WithEfficiency(0.85).WithLatency(96)
}
