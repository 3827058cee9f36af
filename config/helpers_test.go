package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/akisim/akisim/internal/testfiles"
)

// mini is a small complete node: 4 GCDs, a ring of bundles.
const mini = `# test node
name = "mini"

[gcd]
count = 4
xcds = 1
compute_units = 110
clock_ghz = 1.7
hbm_bytes = 68719476736
hbm_bandwidth_gbps = 1600
hbm_latency_ns = 500
hub_forward_ns = 330
reorder_ns = 250
hbm_efficiency = 1.0
kernel_launch_ns = 4000
kernel_end_ns = 2000
cp_wake_ns = 1500
packet_fetch_ns = 500
wave_start_ns = 0
workgroup_slots = 16
cu_outstanding_bytes = 131072
cu_bytes_per_clock = 64
concurrent_kernels = 1
l2_bytes = 8388608
l2_slices = 32
l2_bytes_per_clock = 128
l2_latency_ns = 300
line_bytes = 64
tlb_entries = 512
page_walkers = 4
page_walk_ns = 640
fp64_gflops = 23950
compute_partition = "SPX"
memory_partition = "NPS1"

[mall]
bytes = 0
ways = 16
line_bytes = 64
channels = 128
channel_bandwidth_gbps = 134.4
latency_ns = 200
write_allocate = true
write_back = true

[sdma]
host_engines = 2
xgmi_engines = 3
queues_per_engine = 8
clock_ghz = 1.6
bytes_per_cycle = 32
outstanding_bytes = 1048576
packet_process_ns = 3000
fence_ns = 300
signal_ns = 500

[xgmi]
lane_bandwidth_gbps = 50
flight_latency_ns = 500
packet_payload_bytes = 64
packet_overhead_bytes = 21
response_overhead_bytes = 21
request_bytes = 64
credit_bytes = 4194304

[[xgmi.bundle]]
gcds = [0, 1]
lanes = 4

[[xgmi.bundle]]
gcds = [2, 3]
lanes = 4

[[xgmi.bundle]]
gcds = [0, 2]
lanes = 1

[[xgmi.bundle]]
gcds = [1, 3]
lanes = 1

[host_link]
bandwidth_gbps = 36
flight_latency_ns = 500
packet_payload_bytes = 64
packet_overhead_bytes = 17
response_overhead_bytes = 17
request_bytes = 17
credit_bytes = 4194304

[host]
numa_domains = 2
memory = "ddr"
numa_bytes = 137438953472
gcd_numa = [0, 0, 1, 1]
hub_latency_ns = 100
remote_numa_ns = 50
cores = 64
core_outstanding_bytes = 262144
core_load_lines = 24
core_to_core_ns = 100
store_allocate = true
link_shared_directions = false
l3_bytes = 33554432
ccd_link_gbps = 25.6

[dram]
channels_per_domain = 2
channel_bandwidth_gbps = 25.6
efficiency = 0.85
latency_ns = 96

[runtime]
api_call_ns = 2000
sync_call_ns = 1000
doorbell_ns = 1000
event_record_ns = 500
blit_workgroup_bytes = 4096
allocation_bytes = 2097152
host_page_bytes = 4096
event_release = "system"
staging_bytes = 1052672
pin_min_bytes = 1048576
pin_ns = 20000
pin_page_ns = 100
mmap_bytes = 33554432
pin_mapped_page_ns = 950
pin_written_page_ns = 44
managed_fault_ns = 10000
prefetch_ns = 7000

[stack]
rocm = "5.7"
cray_mpich = "8.1.31"
rccl = "2.20.5"

[[stack.rocm_release]]
rocm = "5.3"
pin_chunk_bytes = 33554432
fault_pending_ns = 2000000
managed_page_ns = 600
managed_host_page_ns = 330
managed_fill = "host"
p2p_blit_max_bytes = 0
copy_item_bytes = 4
copy_workgroup = 256
copy_loop = false

[[stack.rocm_release]]
rocm = "5.7"
pin_chunk_bytes = 134217728
fault_pending_ns = 2000000
managed_page_ns = 1300
managed_host_page_ns = 1300
managed_fill = "gpu"
p2p_blit_max_bytes = 0
copy_item_bytes = 4
copy_workgroup = 256
copy_loop = false

[[stack.cray_mpich_release]]
cray_mpich = "8.1.31"
gpu_allreduce_kernel = true

[[stack.rccl_release]]
rccl = "2.20.5"
chain_chunks = true

[mpi]
post_ns = 1000
ipc_open_ns = 50000
visible_gcds = "all"

[rccl]
threads = 256
steps = 8
ll_lines_per_thread = 8
unroll = 4
p2p_unroll = 8
enqueue_ns = 7700
base_lat_ll_us = 12
base_lat_simple_us = 17
hw_lat_ring_ll_us = 0.8
hw_lat_ring_simple_us = 3.6
hw_lat_tree_ll_us = 0.8
hw_lat_tree_simple_us = 2.5
hw_lat_net_ring_ll_us = 9.5
hw_lat_net_ring_simple_us = 15.1
hw_lat_net_tree_ll_us = 11.8
hw_lat_net_tree_simple_us = 20.8
bw_ratio_ring_ll = 0.04
bw_ratio_ring_simple = 1.0
bw_ratio_tree_ll = 0.04
bw_ratio_tree_simple = 0.91
tree_correction_ll = [0.1, 0.2, 0.1, 0.1, 0.9, 0.3, 0.4, 0.1, 0.2, 0.4, 0.2, 0.1, 0.3, 0.3, 0.2, 0.2, 0.2, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]
tree_correction_simple = [0.2, 1.0, 0.1, 0.1, 0.7, 0.2, 0.4, 0.1, 0.1, 0.3, 0.4, 0.3, 0.6, 0.8, 1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.8, 0.8, 0.8, 0.8, 0.9, 0.9, 0.9]
ring_correction_ll = [0.1, 0.1, 0.1, 0.1, 0.1, 0.2, 0.4, 0.2, 0.3, 0.5, 0.3, 0.1, 0.5, 0.5, 0.3, 0.2, 0.2, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]
ring_correction_simple = [1.0, 0.8, 0.2, 1.0, 1.0, 0.3, 1.0, 0.1, 0.1, 0.2, 0.2, 0.1, 0.5, 1.0, 0.8, 0.8, 1.0, 0.9, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
thread_threshold_ll = 8
thread_threshold_simple = 64

[routing]
sdma = "widest"
kernel = "fewest"
control = "fewest"
sdma_ties = "table"
kernel_ties = "spray"
max_hops = 3

[nic]
count = 2
engines = 8
gcds = [ 1, 3 ]
numa = [0, 1]
switch = [0, 1]
forward_ns = 250
outstanding_bytes = 1048576
command_ns = 300
event_ns = 400
inject_bytes = 192

[nic.pcie]
bandwidth_gbps = 50
flight_latency_ns = 200
packet_payload_bytes = 256
packet_overhead_bytes = 24
response_overhead_bytes = 24
request_bytes = 24
credit_bytes = 65536

[network]
nodes = 1
switch_ns = 350
global_ns = 100
nodes_per_set = 16
switches_per_set = 2
nodes_per_group = 128
switch_ports = 64
adaptive_paths = 4
adaptive_routing = "per_packet"

[network.link]
bandwidth_gbps = 25
flight_latency_ns = 100
packet_payload_bytes = 2048
packet_overhead_bytes = 64
response_overhead_bytes = 64
request_bytes = 64
credit_bytes = 1048576

[sim]
sdma_transaction_bytes = 65536
cu_transaction_bytes = 65536
core_transaction_bytes = 65536
nic_transaction_bytes = 65536
l2_block_bytes = 4096
early_booking = 0.5
stream_gather = true

[env]
HSA_ENABLE_SDMA = 1
HSA_ENABLE_PEER_SDMA = 1
HSA_XNACK = 0
HSA_FORCE_SDMA_SIZE = 1048576
MPICH_GPU_IPC_ENABLED = 1
MPICH_GPU_IPC_THRESHOLD = 1024
MPICH_GPU_IPC_CACHE_MAX_SIZE = 50
GTL_HSA_VSMSG_CUTOFF_SIZE = 4096
MPICH_REDUCE_SHORT_MSG_SIZE = 2048
MPICH_ALLREDUCE_SHORT_MSG_SIZE = 8
MPICH_ALLREDUCE_MAX_SMP_SIZE = 262144
MPICH_BCAST_INTRANODE_RADIX = 4
MPICH_REDUCE_SCATTER_COMMUTATIVE_LONG_MSG_SIZE = 524288
MPICH_ALLGATHER_LONG_MSG_SIZE = 524288
MPICH_ALLGATHER_SHORT_MSG_SIZE = 81920
MPICH_ALLTOALL_SHORT_MSG_SIZE = 256
MPICH_ALLTOALL_MEDIUM_MSG_SIZE = 32768
MPICH_GPU_ALLREDUCE_USE_KERNEL = 0
MPICH_GPU_ALLREDUCE_KERNEL_THRESHOLD = 131072
MPICH_GPU_ALLREDUCE_BLK_SIZE = 8388608
MPICH_ENABLE_YAKSA = 1
MPICH_SHARED_MEM_COLL_OPT = 1
MPICH_SHARED_MEM_COLL_NCELLS = 8
MPICH_SHARED_MEM_COLL_CELLSZ = 256
MPICH_POSIX_NUM_COLLS_THRESHOLD = 5
MPICH_REDUCE_INTRANODE_TREE_KVAL = 4
MPICH_BCAST_INTRANODE_TREE_KVAL = 64
NCCL_PROTO = ""
NCCL_ALGO = ""
NCCL_MIN_NCHANNELS = -2
NCCL_MAX_NCHANNELS = -2
NCCL_BUFFSIZE = 4194304
NCCL_DEBUG = ""
FI_CXI_RDZV_THRESHOLD = 16384
FI_CXI_RDZV_GET_MIN = 2049
FI_CXI_RDZV_EAGER_SIZE = 2048
NUM_ITERATIONS = 10
NUM_WARMUPS = 3
OUTPUT_TO_CSV = 0
GFX_BLOCK_SIZE = 256
GFX_UNROLL = 8
`

// shipped are the configs in configs/.
var shipped = []string{"frontier-node", "lumi-node", "frontier-dual-xgmi", "frontier-cluster", "lumi-cluster", "gem5-mi200", "mi300x-node", "gem5-mi300x", "mi300a-node"}

// writeTemp writes text to a file in a fresh temp dir and returns its path.
func writeTemp(t *testing.T, text string) string {
	t.Helper()
	return filepath.Join(writeFiles(t, map[string]string{"node.toml": text}), "node.toml")
}

// writeFiles writes name -> text into a fresh temp dir and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	return testfiles.Write(t, files)
}

// matches reports whether the error message got is want, or starts with
// want's text before a trailing "...".
func matches(got, want string) bool {
	if p, ok := strings.CutSuffix(want, "..."); ok {
		return strings.HasPrefix(got, p)
	}
	return got == want
}

// setCase is one -set and the whole error it must give.
type setCase struct{ set, want string }

// checkSets parses the config text once per case, with that -set alone,
// and wants exactly its error.
func checkSets(t *testing.T, text string, cases []setCase) {
	t.Helper()
	for _, c := range cases {
		_, err := Parse("node.toml", []byte(text), []string{c.set})
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v\nwant %s", c.set, err, c.want)
		}
	}
}

// replace replaces the only occurrence of old in text, failing if there is
// not exactly one.
func replace(t *testing.T, text, old, new string) string {
	t.Helper()
	if c := strings.Count(text, old); c != 1 {
		t.Fatalf("replace: %q occurs %d times", old, c)
	}
	return strings.Replace(text, old, new, 1)
}

// replaceNth replaces the n-th (from 0) occurrence of old in text.
func replaceNth(t *testing.T, text, old, new string, n int) string {
	t.Helper()
	at := 0
	for i := 0; ; i++ {
		j := strings.Index(text[at:], old)
		if j < 0 {
			t.Fatalf("replaceNth: %q has no occurrence %d", old, n)
		}
		if i == n {
			return text[:at+j] + new + text[at+j+len(old):]
		}
		at += j + len(old)
	}
}

// lineOf is the 1-based line of the only line of text containing s.
func lineOf(t *testing.T, text, s string) int {
	t.Helper()
	found := 0
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			if found != 0 {
				t.Fatalf("lineOf: %q on lines %d and %d", s, found, i+1)
			}
			found = i + 1
		}
	}
	if found == 0 {
		t.Fatalf("lineOf: %q not found", s)
	}
	return found
}

// asError checks err is a one-line *Error and returns it.
func asError(t *testing.T, err error) *Error {
	t.Helper()
	if err == nil {
		t.Fatal("want an error, got nil")
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is %T, not *config.Error", err, err)
	}
	if strings.ContainsAny(err.Error(), "\r\n") {
		t.Fatalf("error is not one line: %q", err.Error())
	}
	return e
}

func readFile(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func shippedPath(t testing.TB, name string) string {
	t.Helper()
	p, err := Find(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
