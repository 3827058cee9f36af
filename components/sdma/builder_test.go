package sdma_test

import "github.com/akisim/akisim/components/sdma"

// testBuilder is an engine of frontier-node.toml's values (sdma.*): the
// tests' own, as node gives them from the config.
func testBuilder() sdma.Builder {
	return sdma.MakeBuilder().WithDatapath(1.5625, 32).WithTransactions(1<<20, 1<<20).WithQueues(8)
}
