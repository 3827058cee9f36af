package xgmi

// testBuilder is a link of frontier-node.toml's xgmi.* values: the tests'
// own, as node gives them from the config.
func testBuilder() Builder {
	return MakeBuilder().WithLaneBandwidth(50).WithPacket(64, 0, 64).WithCredits(4<<20, 0.5)
}
