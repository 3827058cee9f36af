package dram

// testBuilder is a NUMA domain's DRAM of frontier-node.toml's dram.*
// values: the tests' own, as node gives them from the config.
func testBuilder() Builder {
	return MakeBuilder().WithChannels(2, 25.6).WithEfficiency(0.85).WithLatency(96)
}
