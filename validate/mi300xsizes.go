package validate

import (
	"github.com/akisim/akisim/config"
)

// STREAM copy on one MI300X at a size on each plateau of its memory: arrays
// that fit the XCDs' L2s, arrays that fit the MALL, arrays far beyond it.
const (
	mi300xSizes = "MI300X STREAM by size"

	// AMD CDNA 3 white paper (2023): peaks, not measurements
	cdna3Paper = "AMD CDNA 3 architecture white paper (2023)"
	// Azure's AI benchmarking guide, ND MI300X v5 results (a copy in
	// samuel-bohman/AI-benchmarking-guide at 3de0c294): BabelStream 5.0 HIP
	// built from gitaumark/BabelStream, whose default is 1308622848
	// doubles per array (src/main.cpp), best of 100 host-timed copies
	azureStream = "Azure AI benchmarking guide, ND MI300X v5 results (samuel-bohman/AI-benchmarking-guide at 3de0c294, Azure_Results/ND_MI300X_v5_results.md, HBM Bandwidth: Copy 4.11 TB/s; Benchmarks/AMD/HBMBandwidth.py runs gitaumark/BabelStream's hip-stream with its default 1308622848 doubles per array)"

	// 8 XCDs x 16 L2 channels x 128 B per clock x 2.1 GHz
	l2PeakGBps = 8 * 16 * 128 * 2.1
	// 128 MALL channels x 64 B per clock x 2.1 GHz
	mallPeakGBps = 128 * 64 * 2.1
	// gitaumark/BabelStream's default array: 1308622848 doubles
	azureArrayBytes = 1308622848 * 8
)

// l2SizeGap is why the model's copy on L2-sized arrays is far from the L2.
const l2SizeGap = "no published STREAM copy of L2-sized arrays on MI300X was found, only the white paper's L2 peak; the model's event-timed copy of 4 MiB arrays spends about 12 of its 12.5 us in fixed costs (the command processor's wake-up cp_wake_ns 6.4 us, kernel_launch_ns, kernel_end_ns, event_record_ns, all fitted on MI250X) and the rest writing the kernel's dirty L2 lines back through the MALL at the event's system-scope release; the reads hit the L2"

func mi300xSizesGroup() group {
	return group{experiments: []experiment{
		{mi300xSizes, cdna3Paper + " (peaks) and " + azureStream},
	}, run: noRef(mi300xSizePoints)}
}

// mi300xSizePoints: STREAM copy on GPU 0 of 4 MiB arrays (a and c fit the
// 8 L2s of 4 MiB), of 128 MiB arrays (they fill the 256 MiB MALL) and of
// BabelStream's arrays in Azure's run (40 times the MALL).
func mi300xSizePoints(c *config.Node) ([]Point, error) {
	l2, err := stream(c, []int{0}, "local", 4<<20)
	if err != nil {
		return nil, err
	}
	mall, err := stream(c, []int{0}, "local", 128<<20)
	if err != nil {
		return nil, err
	}
	hbm, err := stream(c, []int{0}, "local", azureArrayBytes)
	if err != nil {
		return nil, err
	}
	return []Point{
		{Experiment: mi300xSizes, Name: "GPU 0, 4 MiB copy (L2), against the L2 peak", Simulated: l2, Published: l2PeakGBps,
			Tolerance: 0.10, Unit: "GB/s", Gap: l2SizeGap, Source: cdna3Paper + ": 16 L2 channels of 128 B per clock per XCD, 8 XCDs at 2.1 GHz"},
		{Experiment: mi300xSizes, Name: "GPU 0, 128 MiB copy (MALL), at most the MALL peak", Simulated: mall, Published: mallPeakGBps,
			Tolerance: 0, AtMost: true, Unit: "GB/s", Source: cdna3Paper + ": Infinity Cache peak 17.2 TB/s (128 channels of 64 B per clock at 2.1 GHz)"},
		{Experiment: mi300xSizes, Name: "GPU 0, 10.5 GB copy (HBM)", Simulated: hbm, Published: 4110,
			Tolerance: 0.05, Unit: "GB/s", Source: azureStream},
	}, nil
}
