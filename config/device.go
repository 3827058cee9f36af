package config

// DeviceName is what rows call one of the node's devices, in AMD's words:
// "gcd" for a device of one die (a Graphics Compute Die, as each half of
// an MI250X), "gpu" for a device of several XCDs or a partition of one
// (MI300X, MI300A). Rows number them from 0: gcd3, gpu3.
func (n *Node) DeviceName() string {
	if n.GCD.XCDs > 1 || n.Partitioning().Devices > 1 {
		return "gpu"
	}
	return "gcd"
}
