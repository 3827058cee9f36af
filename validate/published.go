package validate

// RCCLMeasurement is a published rccl-tests result that validate checks
// the model against; a figure of the same collective draws it beside
// the model's curve.
type RCCLMeasurement struct {
	Configs []string // the shipped configs of the node it was measured on
	Bench   string   // the rccl-tests binary
	GCDs    int      // ranks, one per GCD
	Bytes   int64
	Metric  string // as akisim's rows name it: busbw, latency
	Value   float64
	Unit    string
	AtLeast bool   // a floor the model must reach, not a value
	Source  string // who published it, in a few words
}

// frontierLike are the configs of an MI250X node as LUMI and Frontier
// have it.
var frontierLike = []string{"frontier-node", "frontier-cluster", "lumi-node", "lumi-cluster"}

// The published rccl-tests values of validate's points: the one home of
// each number.
var (
	mi300xAllReduce = RCCLMeasurement{Configs: []string{"mi300x-node"}, Bench: "all_reduce_perf", GCDs: 8, Bytes: 64 << 20,
		Metric: "busbw", Value: 274.33, Unit: "GB/s", Source: "AMD's MI300X guide"}
	lumiAllReduce = RCCLMeasurement{Configs: frontierLike, Bench: "all_reduce_perf", GCDs: 16, Bytes: 128 << 20,
		Metric: "busbw", Value: 85, Unit: "GB/s", AtLeast: true, Source: "LUMI ReFrame, at least"}
	pr929 = RCCLMeasurement{Configs: frontierLike, Bench: "all_reduce_perf", GCDs: 16, Bytes: 8,
		Metric: "latency", Value: 25.06, Unit: "us", Source: "ROCm/rccl PR 929"}
	pr930 = RCCLMeasurement{Configs: frontierLike, Bench: "all_gather_perf", GCDs: 16, Bytes: 64,
		Metric: "latency", Value: 33.75, Unit: "us", Source: "ROCm/rccl PR 930"}
)

// PublishedRCCL are the published rccl-tests values validate checks.
func PublishedRCCL() []RCCLMeasurement {
	return []RCCLMeasurement{mi300xAllReduce, lumiAllReduce, pr929, pr930}
}
