package gcd

import "github.com/akisim/akisim/components/sdma"

// testBuilder is an MI250X GCD of frontier-node.toml's values (gcd.*,
// sdma.*, sim.*): the tests' own, as node gives them from the config. Its
// HBM latency, hub and kernel costs are each test's.
func testBuilder() Builder {
	eb := sdma.MakeBuilder().WithDatapath(1.5625, 32).WithTransactions(1<<20, 1<<20).WithQueues(8)
	return MakeBuilder().WithHBM(1400, 0).WithSDMA(2, 3, eb).
		WithComputeUnits(110, 16, 65536, 131072).WithCUIssue(108.8).
		WithL2(8<<20, 8192, 32*128*1.7, 300).WithLine(64)
}
