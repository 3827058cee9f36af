package validate

import (
	"github.com/akisim/akisim/config"
)

// STREAM copy on one MI300X at a size on each plateau of its memory: arrays
// that fit an XCD's L2, arrays that fit the MALL, arrays far beyond it.
const (
	mi300xSizes = "MI300X STREAM by size"

	// RRZE-HPC/gpu-benches gpu-l2-stream: its scale kernel (A[i] = B[i] *
	// 1.2, doubles; GB/s counts the load and the store, as STREAM copy
	// does) streams 1 Gi elements through arrays of a given length (index
	// modulo the length) in one kernel timed with events, so launch costs
	// vanish; columns read, scale, triad, write, each max, median, min of
	// 11 runs
	gpuL2Stream = "RRZE-HPC/gpu-benches at 1038c5d, gpu-l2-stream/mi300x.txt (rows of 1024 threads x 2 blocks per CU; scale median), gpu-l2-stream/main.cu"
	// Azure's AI benchmarking guide, ND MI300X v5 results (a copy in
	// samuel-bohman/AI-benchmarking-guide at 3de0c294): BabelStream 5.0 HIP
	// built from gitaumark/BabelStream, whose default is 1308622848
	// doubles per array (src/main.cpp), best of 100 host-timed copies
	azureStream = "Azure AI benchmarking guide, ND MI300X v5 results (samuel-bohman/AI-benchmarking-guide at 3de0c294, Azure_Results/ND_MI300X_v5_results.md, HBM Bandwidth: Copy 4.11 TB/s; Benchmarks/AMD/HBMBandwidth.py runs gitaumark/BabelStream's hip-stream with its default 1308622848 doubles per array)"

	// gitaumark/BabelStream's default array: 1308622848 doubles
	azureArrayBytes = 1308622848 * 8

	// gpu-l2-stream's kernels run iteration_count = 1 Gi + 2 work-items,
	// one element each, over arrays of expSeries(2, 1.04, i) x 8192 + 8161
	// doubles: 16 x 8192 + 8161 is the 2.1 MiB row (2175 KiB in all), 1011
	// x 8192 + 8161 the 126.5 MiB row (129535 KiB)
	l2StreamItems = 1<<30 + 2
	// its blocks of 1024 threads, 2 per CU (the rows' setting), each
	// thread one double load out at a time (main.cu: a load, a multiply
	// and a store per work-item): 16 KiB in flight per CU
	l2StreamInFlight = 2 * 1024 * 8
	l2StreamL2Len    = 16*8192 + 8161
	l2StreamMALLLen  = 1011*8192 + 8161
)

// Where the model misses the size points.
const (
	mallSizeGap = "the same loop: the model's MALL serves the loop's reads at its 128 channels' 17.2 TB/s (white paper peak) while the writes go through to HBM, so reads and writes add up to about twice what HBM gives; on MI300X a kernel reading MALL-resident data gets 5.4 TB/s (gpu-l2-stream read) or 6.4 TB/s (rocm-amdgpu-bench's MALL BW, its output in github.com/ROCm/rocm-amdgpu-bench/issues/22), and the scale loop, reading and writing, about 4.2 TB/s, no more than HBM gives; a cap on MALL reads at that 6.4 TB/s leaves the point unmoved, as the loop reads only 4.3 TB/s from the MALL and its writes, going through to HBM, book none of it; what holds the real loop to 4.2 TB/s acts on reads and writes together (the XCD-to-IOD connections, the links between the IODs), and no published rate for it was found"
)

func mi300xSizesGroup() group {
	return group{experiments: []experiment{
		{mi300xSizes, gpuL2Stream + "; " + azureStream},
	}, run: noRef(mi300xSizePoints)}
}

// mi300xSizePoints: gpu-l2-stream's scale loop on GPU 0 over arrays that
// fit an XCD's L2 (2.1 MiB in all) and over arrays the MALL holds (126.5
// MiB), and STREAM copy of BabelStream's arrays in Azure's run (40 times
// the MALL).
func mi300xSizePoints(c *config.Node) ([]Point, error) {
	l2, err := l2StreamScale(c, l2StreamL2Len)
	if err != nil {
		return nil, err
	}
	mall, err := l2StreamScale(c, l2StreamMALLLen)
	if err != nil {
		return nil, err
	}
	hbm, err := stream(c, []int{0}, "local", azureArrayBytes)
	if err != nil {
		return nil, err
	}
	return []Point{
		{Experiment: mi300xSizes, Name: "GPU 0, scale loop on 2.1 MiB (L2), against gpu-l2-stream's", Simulated: l2, Published: 13410,
			Tolerance: 0.10, Unit: "GB/s", Source: gpuL2Stream},
		{Experiment: mi300xSizes, Name: "GPU 0, scale loop on 126.5 MiB (MALL), at most gpu-l2-stream's", Simulated: mall, Published: 4172,
			Tolerance: 0.05, AtMost: true, Unit: "GB/s", Gap: mallSizeGap, Source: gpuL2Stream},
		{Experiment: mi300xSizes, Name: "GPU 0, 10.5 GB copy (HBM)", Simulated: hbm, Published: 4110,
			Tolerance: 0.05, Unit: "GB/s", Source: azureStream},
	}, nil
}

// l2StreamScale replays gpu-l2-stream's scale kernel over arrays of length
// doubles on GPU 0: STREAM scale (a load and a store per element) going
// over them as many times as its 1 Gi work-items wrap the length, timed
// between events; GB/s counts every pass's bytes, as gpu-l2-stream does.
func l2StreamScale(c *config.Node, length int64) (float64, error) {
	elems := length / 128 * 128 // STREAM's grid: whole workgroups of 128
	passes := (l2StreamItems + elems/2) / elems
	return streamPasses(c, []int{0}, "local", "scale", length*8, passes, l2StreamInFlight)
}
