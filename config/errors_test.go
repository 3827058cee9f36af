package config

import (
	"fmt"
	"strings"
	"testing"
)

// fileCase is a broken config and the error it must give.
type fileCase struct {
	name   string
	edit   func(t *testing.T, s string) string
	sets   []string
	at     string // text on the line the error must name; "" for no line
	header bool   // at is the n-th "[[xgmi.bundle]]" (n in nth)
	nth    int
	key    string
	msg    string // exact message
}

func TestFileErrors(t *testing.T) {
	bundleLine := func(t *testing.T, s string, n int) int {
		// line of the n-th [[xgmi.bundle]] header
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, "[[xgmi.bundle]]") {
				if n == 0 {
					return i + 1
				}
				n--
			}
		}
		t.Fatal("no such bundle")
		return 0
	}
	cases := []fileCase{
		{
			name: "syntax error",
			edit: func(t *testing.T, s string) string {
				return replace(t, s, "compute_units = 110", "compute_units = 110 110")
			},
			at: "compute_units = 110 110", key: "gcd.compute_units",
			msg: "TOML syntax: expected a top-level item to end with a newline, comment, or EOF, but got '1' instead",
		},
		{
			name: "syntax error: duplicate key",
			edit: func(t *testing.T, s string) string {
				return replace(t, s, "fence_ns = 300", "fence_ns = 300\nfence_ns = 301")
			},
			at: "fence_ns = 301", key: "sdma.fence_ns",
			msg: "TOML syntax: Key 'sdma.fence_ns' has already been defined.",
		},
		{
			name: "wrong type",
			edit: func(t *testing.T, s string) string {
				return replace(t, s, "hbm_latency_ns = 500", `hbm_latency_ns = "500ns"`)
			},
			at: `hbm_latency_ns = "500ns"`, key: "gcd.hbm_latency_ns",
			msg: `must be a number, got string "500ns"`,
		},
		{
			name: "wrong type: float for integer",
			edit: func(t *testing.T, s string) string {
				return replace(t, s, "bytes_per_cycle = 32", "bytes_per_cycle = 32.5")
			},
			at: "bytes_per_cycle = 32.5", key: "sdma.bytes_per_cycle",
			msg: "must be an integer, got float 32.5",
		},
		{
			name: "wrong type: in a bundle",
			edit: func(t *testing.T, s string) string { return replaceNth(t, s, "lanes = 1", "lanes = true", 1) },
			at:   "lanes = true", key: "xgmi.bundle[3].lanes",
			msg: "must be an integer, got boolean true",
		},
		{
			name: "wrong type: table for value",
			edit: func(t *testing.T, s string) string {
				return replace(t, s, `early_booking = 0.5`, `early_booking = {kind = "serial"}`)
			},
			at: "early_booking = {kind", key: "sim.early_booking",
			msg: "must be a number, got table",
		},
		{
			name: "bundle gcds not a pair",
			edit: func(t *testing.T, s string) string { return replace(t, s, "gcds = [0, 2]", "gcds = [0, 2, 3]") },
			at:   "gcds = [0, 2, 3]", key: "xgmi.bundle[2].gcds",
			msg: "must have exactly 2 elements, got 3",
		},
		{
			name: "unknown key",
			edit: func(t *testing.T, s string) string {
				return replace(t, s, "[dram]\n", "[dram]\nchanels_per_domain = 2\n")
			},
			at: "chanels_per_domain", key: "dram.chanels_per_domain",
			msg: "unknown key (dram has: channels_per_domain, channel_bandwidth_gbps, efficiency, latency_ns)",
		},
		{
			name: "unknown table",
			edit: func(t *testing.T, s string) string { return s + "\n[cpu]\ncores = 64\n" },
			at:   "[cpu]", key: "cpu",
			msg: "unknown key (known: name, gcd, mall, sdma, xgmi, host_link, host, dram, runtime, stack, mpi, rccl, routing, nic, network, sim, env)",
		},
		{
			name: "unknown key in a bundle",
			edit: func(t *testing.T, s string) string { return replaceNth(t, s, "lanes = 4", "lanes = 4\nwidth = 16", 1) },
			at:   "width = 16", key: "xgmi.bundle[1].width",
			msg: "unknown key (xgmi.bundle[1] has: gcds, lanes)",
		},
		{
			name: "first error in file order wins",
			edit: func(t *testing.T, s string) string {
				s = replace(t, s, "[sim]\n", "[sim]\nbogus = 1\n")
				return replace(t, s, "clock_ghz = 1.6", "clock_ghz = \"fast\"")
			},
			at: `clock_ghz = "fast"`, key: "sdma.clock_ghz",
			msg: `must be a number, got string "fast"`,
		},
		{
			name: "missing key",
			edit: func(t *testing.T, s string) string { return replace(t, s, "signal_ns = 500\n", "") },
			at:   "[sdma]", key: "sdma.signal_ns",
			msg: "missing (every key must be given)",
		},
		{
			name:   "missing key in a bundle",
			edit:   func(t *testing.T, s string) string { return replaceNth(t, s, "lanes = 1\n", "", 0) },
			header: true, nth: 2, key: "xgmi.bundle[2].lanes",
			msg: "missing (every key must be given)",
		},
		{
			name: "missing table",
			edit: func(t *testing.T, s string) string {
				return replace(t, s, "[sim]\nsdma_transaction_bytes = 65536\ncu_transaction_bytes = 65536\ncore_transaction_bytes = 65536\nnic_transaction_bytes = 65536\nl2_block_bytes = 4096\nearly_booking = 0.5\nstream_gather = true\n", "")
			},
			key: "sim",
			msg: "missing (every key must be given)",
		},
		{
			name: "out of range: lanes",
			edit: func(t *testing.T, s string) string { return replaceNth(t, s, "lanes = 1", "lanes = 17", 1) },
			at:   "lanes = 17", key: "xgmi.bundle[3].lanes",
			msg: "must be 1..16 (0 removes the bundle), got 17",
		},
		{
			name: "out of range: count",
			edit: func(t *testing.T, s string) string { return replace(t, s, "count = 4", "count = 0") },
			at:   "count = 0", key: "gcd.count",
			msg: "must be 1..64, got 0",
		},
		{
			name: "out of range: efficiency",
			edit: func(t *testing.T, s string) string { return replace(t, s, "efficiency = 0.85", "efficiency = 1.2") },
			at:   "efficiency = 1.2", key: "dram.efficiency",
			msg: "must be in [0.01, 1], got 1.2",
		},
		{
			name: "out of range: negative latency",
			edit: func(t *testing.T, s string) string { return replace(t, s, "doorbell_ns = 1000", "doorbell_ns = -1") },
			at:   "doorbell_ns = -1", key: "runtime.doorbell_ns",
			msg: "must be in [0, 1e+09], got -1",
		},
		{
			name: "out of range: inf bandwidth",
			edit: func(t *testing.T, s string) string {
				return replace(t, s, "bandwidth_gbps = 36", "bandwidth_gbps = inf")
			},
			at: "bandwidth_gbps = inf", key: "host_link.bandwidth_gbps",
			msg: "must be in [0.001, 1e+06], got inf",
		},
		{
			name: "out of range: transaction bytes",
			edit: func(t *testing.T, s string) string {
				return replace(t, s, "\nsdma_transaction_bytes = 65536", "\nsdma_transaction_bytes = 32")
			},
			at: "sdma_transaction_bytes = 32", key: "sim.sdma_transaction_bytes",
			msg: "must be 4096..16777216, got 32",
		},
		{
			name: "bad route policy",
			edit: func(t *testing.T, s string) string { return replace(t, s, `sdma = "widest"`, `sdma = "wide"`) },
			at:   `sdma = "wide"`, key: "routing.sdma",
			msg: `must be "widest" or "fewest", got "wide"`,
		},
		{
			name: "bad engine",
			edit: func(t *testing.T, s string) string {
				return replace(t, s, `kernel_ties = "spray"`, `kernel_ties = "parallel"`)
			},
			at: `kernel_ties = "parallel"`, key: "routing.kernel_ties",
			msg: `must be "table", "pin" or "spray", got "parallel"`,
		},
		{
			name: "bad sdma ties",
			edit: func(t *testing.T, s string) string {
				return replace(t, s, `sdma_ties = "table"`, `sdma_ties = "spray"`)
			},
			at: `sdma_ties = "spray"`, key: "routing.sdma_ties",
			msg: `must be "table" or "per_copy", got "spray"`,
		},
		{
			name: "bad adaptive routing",
			edit: func(t *testing.T, s string) string {
				return replace(t, s, `adaptive_routing = "per_packet"`, `adaptive_routing = "per_flow"`)
			},
			at: `adaptive_routing = "per_flow"`, key: "network.adaptive_routing",
			msg: `must be "per_transfer", "per_packet" or "load_aware", got "per_flow"`,
		},
		{
			name: "empty name",
			edit: func(t *testing.T, s string) string { return replace(t, s, `name = "mini"`, `name = ""`) },
			at:   `name = ""`, key: "name",
			msg: "must not be empty",
		},
		{
			name: "bundle GCD out of range",
			edit: func(t *testing.T, s string) string { return replace(t, s, "gcds = [1, 3]", "gcds = [1, 4]") },
			at:   "gcds = [1, 4]", key: "xgmi.bundle[3].gcds",
			msg: "GCD 4 does not exist (gcd.count = 4, ids 0..3)",
		},
		{
			name: "self bundle",
			edit: func(t *testing.T, s string) string { return replace(t, s, "gcds = [0, 2]", "gcds = [2, 2]") },
			at:   "gcds = [2, 2]", key: "xgmi.bundle[2].gcds",
			msg: "joins GCD 2 to itself",
		},
		{
			name: "duplicate bundle",
			edit: func(t *testing.T, s string) string { return replace(t, s, "gcds = [1, 3]", "gcds = [1, 0]") },
			at:   "gcds = [1, 0]", key: "xgmi.bundle[3].gcds",
			msg: "duplicate bundle between GCD 0 and GCD 1 (also xgmi.bundle[0])",
		},
		{
			name: "unreachable GCD",
			edit: func(t *testing.T, s string) string {
				s = replaceNth(t, s, "lanes = 1", "lanes = 0", 0)    // 0-2 removed
				return replaceNth(t, s, "lanes = 1", "lanes = 0", 0) // 1-3 removed
			},
			header: true, nth: 0, key: "xgmi.bundle",
			msg: "GCD 0 cannot reach GCD 2",
		},
		{
			name: "NUMA id out of range",
			edit: func(t *testing.T, s string) string {
				return replace(t, s, "gcd_numa = [0, 0, 1, 1]", "gcd_numa = [0, 0, 1, 2]")
			},
			at: "gcd_numa = [0, 0, 1, 2]", key: "host.gcd_numa[3]",
			msg: "NUMA domain of GCD 3 must be 0..1 (host.numa_domains = 2), got 2",
		},
		{
			name: "gcd_numa wrong length",
			edit: func(t *testing.T, s string) string {
				return replace(t, s, "gcd_numa = [0, 0, 1, 1]", "gcd_numa = [0, 0, 1]")
			},
			at: "gcd_numa = [0, 0, 1]", key: "host.gcd_numa",
			msg: "must have one entry per GCD (gcd.count = 4), got 3",
		},
		{
			name: "max_hops too small",
			edit: func(t *testing.T, s string) string { return replace(t, s, "max_hops = 3", "max_hops = 1") },
			at:   "max_hops = 1", key: "routing.max_hops",
			msg: "GCD 0 needs 2 hops to reach GCD 3, more than max_hops = 1",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := c.edit(t, mini)
			path := writeTemp(t, text)
			_, err := Load(path, c.sets)
			e := asError(t, err)
			line := 0
			switch {
			case c.header:
				line = bundleLine(t, text, c.nth)
			case c.at != "":
				line = lineOf(t, text, c.at)
			}
			if e.File != path || e.Line != line || e.Key != c.key || e.Msg != c.msg || e.Set != "" {
				t.Errorf("got  %+v\nwant File %s Line %d Key %s Msg %s", *e, path, line, c.key, c.msg)
			}
			want := fmt.Sprintf("%s:%d: %s: %s", path, line, c.key, c.msg)
			if line == 0 {
				want = fmt.Sprintf("%s: %s: %s", path, c.key, c.msg)
			}
			if e.Error() != want {
				t.Errorf("Error()\n got %s\nwant %s", e.Error(), want)
			}
		})
	}
}

func TestSetErrors(t *testing.T) {
	cases := []struct {
		sets []string
		want string // whole Error()
	}{
		{[]string{"gcd.fp64_gflops=0"}, `-set gcd.fp64_gflops=0: must be in [0.001, 1e+06], got 0`},
		{[]string{"dram.efficiency=1e-300"}, `-set dram.efficiency=1e-300: must be in [0.01, 1], got 1e-300`},
		{[]string{"gcd.hbm_efficiency=1e-300"}, `-set gcd.hbm_efficiency=1e-300: must be in [0.01, 1], got 1e-300`},
		// Bad keys.
		{[]string{"gcd.cont=3"}, `-set gcd.cont=3: unknown key "gcd.cont" (gcd has: count, xcds, compute_units, clock_ghz, hbm_bytes, hbm_bandwidth_gbps, hbm_latency_ns, hub_forward_ns, reorder_ns, hbm_efficiency, kernel_launch_ns, kernel_end_ns, wave_start_ns, cp_wake_ns, packet_fetch_ns, workgroup_slots, cu_outstanding_bytes, cu_bytes_per_clock, concurrent_kernels, l2_bytes, l2_slices, l2_bytes_per_clock, l2_latency_ns, line_bytes, tlb_entries, page_walkers, page_walk_ns, fp64_gflops, compute_partition, memory_partition)`},
		{[]string{"gpu.count=3"}, `-set gpu.count=3: unknown key "gpu" (known: name, gcd, mall, sdma, xgmi, host_link, host, dram, runtime, stack, mpi, rccl, routing, nic, network, sim, env)`},
		{[]string{"gcd.count.x=3"}, `-set gcd.count.x=3: gcd.count: is not a table, so it has no key "x"`},
		{[]string{"gcd..count=3"}, `-set gcd..count=3: bad key "gcd..count": want dotted names like xgmi.bundle[0-2].lanes`},
		{[]string{"gcd.count"}, `-set gcd.count: want KEY=VALUE, e.g. xgmi.lane_bandwidth_gbps=25`},
		{[]string{"=3"}, `-set =3: want KEY=VALUE, e.g. xgmi.lane_bandwidth_gbps=25`},
		{[]string{"xgmi.bundle[4].lanes=1"}, `-set xgmi.bundle[4].lanes=1: xgmi.bundle has 4 elements, no [4]`},
		{[]string{"xgmi.bundle[99999999999999999999].lanes=1"}, `-set xgmi.bundle[99999999999999999999].lanes=1: bad index in "bundle[99999999999999999999]"`},
		{[]string{"gcd[1].count=1"}, `-set gcd[1].count=1: gcd is not an array, it takes no [1]`},
		{[]string{"xgmi.nope[*].lanes=1"}, `-set xgmi.nope[*].lanes=1: bad key "xgmi.nope" before [*]: want an array's dotted path, like xgmi.bundle[*].lanes`},
		{[]string{"gcd.count[*]=1"}, `-set gcd.count[*]=1: gcd.count is not an array, it takes no [*]`},
		{[]string{"xgmi.bundle[*].lanes=x"}, `-set xgmi.bundle[*].lanes=x: xgmi.bundle[0].lanes: cannot parse VALUE as TOML: expected value but found "x" instead`},
		{[]string{"host.gcd_numa[0-1]=1"}, `-set host.gcd_numa[0-1]=1: host.gcd_numa is not a bundle list, it takes no GCD pair [0-1]`},
		{[]string{"xgmi.bundle[0-3].gcds=[0,2]"}, `-set xgmi.bundle[0-3].gcds=[0,2]: no bundle joins GCD 0 and GCD 3 (only lanes can add one)`},
		// Bad values.
		{[]string{"gcd.count=many"}, `-set gcd.count=many: cannot parse VALUE as TOML: expected value but found "many" instead`},
		{[]string{`gcd.count="8"`}, `-set gcd.count="8": must be an integer, got string "8"`},
		{[]string{"gcd.count=8.5"}, `-set gcd.count=8.5: must be an integer, got float 8.5`},
		{[]string{"gcd.count=8\nname=\"x\""}, "-set gcd.count=8 name=\"x\": VALUE must be a single TOML value"},
		{[]string{"name=a\x01b"}, "-set name=a\x01b: VALUE must be UTF-8 text without control characters"},
		{[]string{"routing.sdma=[1]"}, `-set routing.sdma=[1]: must be a string, got array`},
		{[]string{`routing.sdma="widest`}, `-set routing.sdma="widest: cannot parse VALUE as TOML: unexpected EOF; expected '"'`},
		{[]string{"host.gcd_numa=[3,3,\"x\"]"}, `-set host.gcd_numa=[3,3,"x"]: host.gcd_numa[2]: must be an integer, got string "x"`},
		{[]string{"routing={hops=3}"}, `-set routing={hops=3}: routing.hops: unknown key (routing has: sdma, kernel, control, sdma_ties, kernel_ties, max_hops)`},
		{[]string{"xgmi.bundle[0-2].lanes=x"}, `-set xgmi.bundle[0-2].lanes=x: xgmi.bundle[2].lanes: cannot parse VALUE as TOML: expected value but found "x" instead`},
		// Values that fail validation blame the -set.
		{[]string{"gcd.count=0"}, `-set gcd.count=0: must be 1..64, got 0`},
		{[]string{"routing.kernel=shortest"}, `-set routing.kernel=shortest: must be "widest" or "fewest", got "shortest"`},
		{[]string{"env.MPICH_ENABLE_YAKSA=2"}, `-set env.MPICH_ENABLE_YAKSA=2: must be 0..1, got 2`},
		// A zero block would never advance the GPU allreduce.
		{[]string{"env.MPICH_GPU_ALLREDUCE_BLK_SIZE=0"}, `-set env.MPICH_GPU_ALLREDUCE_BLK_SIZE=0: must be 1..1099511627776, got 0`},
		// A shared-memory cell holds its two header lines and a byte at least.
		{[]string{"env.MPICH_SHARED_MEM_COLL_CELLSZ=128"}, `-set env.MPICH_SHARED_MEM_COLL_CELLSZ=128: must be 129..1073741824, got 128`},
		{[]string{"env.MPICH_SHARED_MEM_COLL_NCELLS=0"}, `-set env.MPICH_SHARED_MEM_COLL_NCELLS=0: must be 1..1048576, got 0`},
		{[]string{"env.MPICH_BCAST_INTRANODE_RADIX=1"}, `-set env.MPICH_BCAST_INTRANODE_RADIX=1: must be 2..1048576, got 1`},
		{[]string{"env.MPICH_SHARED_MEM_COLL_OPT=2"}, `-set env.MPICH_SHARED_MEM_COLL_OPT=2: must be 0..1, got 2`},
		{[]string{"env.MPICH_GPU_ALLREDUCE_KERNEL_THRESHOLD=-1"}, `-set env.MPICH_GPU_ALLREDUCE_KERNEL_THRESHOLD=-1: must be 0..1099511627776, got -1`},
		{[]string{"xgmi.bundle[1].lanes=32"}, `-set xgmi.bundle[1].lanes=32: must be 1..16 (0 removes the bundle), got 32`},
		{[]string{"xgmi.bundle[2-3].lanes=32"}, `-set xgmi.bundle[2-3].lanes=32: xgmi.bundle[1].lanes: must be 1..16 (0 removes the bundle), got 32`},
		{[]string{"xgmi.bundle[0-9].lanes=1"}, `-set xgmi.bundle[0-9].lanes=1: xgmi.bundle[4].gcds: GCD 9 does not exist (gcd.count = 4, ids 0..3)`},
		{[]string{"xgmi.bundle[2-2].lanes=1"}, `-set xgmi.bundle[2-2].lanes=1: xgmi.bundle[4].gcds: joins GCD 2 to itself`},
		{[]string{"xgmi.bundle[3].gcds=[1,0]"}, `-set xgmi.bundle[3].gcds=[1,0]: duplicate bundle between GCD 0 and GCD 1 (also xgmi.bundle[0])`},
		{[]string{"xgmi.bundle[0-2].lanes=0", "xgmi.bundle[1-3].lanes=0"}, `-set xgmi.bundle[1-3].lanes=0: xgmi.bundle: GCD 0 cannot reach GCD 2`},
		{[]string{"host.gcd_numa[1]=5"}, `-set host.gcd_numa[1]=5: NUMA domain of GCD 1 must be 0..1 (host.numa_domains = 2), got 5`},
		{[]string{"host.gcd_numa=[0,0,1,1,1]"}, `-set host.gcd_numa=[0,0,1,1,1]: must have one entry per GCD (gcd.count = 4), got 5`},
		{[]string{"host.memory=dram"}, `-set host.memory=dram: must be "ddr" or "hbm", got "dram"`},
		// An APU node: a NUMA domain per GCD, domain g on GCD g, the HBM's capacity.
		{[]string{"host.memory=hbm"}, `-set host.memory=hbm: host.numa_domains: must equal gcd.count (4) with host.memory = "hbm": each APU's HBM is one NUMA domain, got 2`},
		{[]string{"host.memory=hbm", "host.numa_domains=4"}, `-set host.memory=hbm: host.gcd_numa[1]: must be 1 with host.memory = "hbm": GCD 1's NUMA domain is its own HBM, got 0`},
		{[]string{"host.memory=hbm", "host.numa_domains=4", "host.gcd_numa=[0,1,2,3]"}, `-set host.memory=hbm: host.numa_bytes: must equal gcd.hbm_bytes (68719476736) with host.memory = "hbm": a NUMA domain is its APU's HBM, got 137438953472`},
		// A -set of a related key is blamed for the check it broke.
		{[]string{"gcd.count=5"}, `-set gcd.count=5: host.gcd_numa: must have one entry per GCD (gcd.count = 5), got 4`},
		{[]string{"host.numa_domains=1"}, `-set host.numa_domains=1: host.gcd_numa[2]: NUMA domain of GCD 2 must be 0..0 (host.numa_domains = 1), got 1`},
		// Two overrides of one value: refused, whatever their spelling (an
		// element and its array, a pair and its index, a table and its key).
		{[]string{"gcd.clock_ghz=1", "gcd.clock_ghz=2"}, `-set gcd.clock_ghz=1 and -set gcd.clock_ghz=2: both set gcd.clock_ghz; give one`},
		{[]string{"host.gcd_numa[1]=1", "host.gcd_numa=[0,0,1,3]"}, `-set host.gcd_numa[1]=1 and -set host.gcd_numa=[0,0,1,3]: both set host.gcd_numa[1]; give one`},
		{[]string{"xgmi.bundle[0-1].lanes=2", "xgmi.bundle[0].lanes=1"}, `-set xgmi.bundle[0-1].lanes=2 and -set xgmi.bundle[0].lanes=1: both set xgmi.bundle[0].lanes; give one`},
		{[]string{"xgmi.bundle[*].lanes=2", "xgmi.bundle[2].lanes=0"}, `-set xgmi.bundle[*].lanes=2 and -set xgmi.bundle[2].lanes=0: both set xgmi.bundle[2].lanes; give one`},
		{[]string{"dram.latency_ns=90", "dram={efficiency=0.5, latency_ns=80}"}, `-set dram.latency_ns=90 and -set dram={efficiency=0.5, latency_ns=80}: both set dram.latency_ns; give one`},
		// The first of several earlier ones is named.
		{[]string{"gcd.count=4", "dram.latency_ns=90", "gcd={count=4}"}, `-set gcd.count=4 and -set gcd={count=4}: both set gcd.count; give one`},
	}
	path := writeTemp(t, mini)
	for _, c := range cases {
		t.Run(c.sets[len(c.sets)-1], func(t *testing.T) {
			_, err := Load(path, c.sets)
			e := asError(t, err)
			if e.Set == "" || e.File != "" {
				t.Errorf("error not attributed to a -set: %+v", *e)
			}
			if got := e.Error(); got != c.want {
				t.Errorf("\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

// A -set that does not touch the broken value leaves the blame on the file.
func TestSetDoesNotTakeBlame(t *testing.T) {
	text := replace(t, mini, "efficiency = 0.85", "efficiency = 0")
	path := writeTemp(t, text)
	_, err := Load(path, []string{"xgmi.bundle[0-1].lanes=2", "dram.latency_ns=90"})
	e := asError(t, err)
	want := fmt.Sprintf("%s:%d: dram.efficiency: must be in [0.01, 1], got 0", path, lineOf(t, text, "efficiency = 0"))
	if e.Error() != want {
		t.Errorf("\n got %s\nwant %s", e.Error(), want)
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load("no/such/file.toml", nil)
	e := asError(t, err)
	if e.Error() != "no/such/file.toml: cannot read config: no such file or directory" {
		t.Errorf("got %s", e.Error())
	}
}

// An override another flag made is named as the user typed it: the key
// too when the flag does not name it (-procs makes network.nodes).
func TestOverrideNamedAsTyped(t *testing.T) {
	src, err := NewSource("node.toml", []byte(mini), nil)
	if err != nil {
		t.Fatal(err)
	}
	env, _ := EnvOverride("NCCL_PROTO=LL128")
	xnack, _ := EnvOverride("HSA_XNACK=1")
	for _, c := range []struct {
		ovs  []Override
		want string
	}{
		{[]Override{{Set: "network.nodes=125000", Flag: "-procs 1000000"}}, "-procs 1000000: network.nodes: must be 1..16384, got 125000"},
		{[]Override{{Set: "network.nodes=0", Flag: "-nodes 0"}}, "-nodes 0: must be 1..16384, got 0"},
		{[]Override{env}, "-env NCCL_PROTO=LL128: LL128 is not enabled on gfx90a (MI250X): RCCL runs LL and Simple only"},
		{[]Override{{Set: "env={HSA_XNACK=0}"}, xnack}, "-set env={HSA_XNACK=0} and -env HSA_XNACK=1: both set env.HSA_XNACK; give one"},
		{[]Override{{Set: "network.nodes=2", Flag: "-nodes 2"}, {Set: "network.nodes=9", Flag: "-procs 72"}}, "-nodes 2 and -procs 72: both set network.nodes; give one"},
	} {
		_, err := src.NodeWith(c.ovs)
		if got := asError(t, err).Error(); got != c.want {
			t.Errorf("%v:\n got %s\nwant %s", c.ovs, got, c.want)
		}
	}
}

// LL128 is refused naming the node's own GPU (issue 43: mi300x-node spoke
// of gfx90a).
func TestLL128NamesTheGPU(t *testing.T) {
	for name, want := range map[string]string{
		"frontier-node": "LL128 is not enabled on gfx90a (MI250X): RCCL runs LL and Simple only",
		"mi300x-node":   "LL128 is not modelled on gfx942 (MI300X): the model runs RCCL's LL and Simple only",
		"mi300a-node":   "LL128 is not modelled on gfx942 (MI300A): the model runs RCCL's LL and Simple only",
	} {
		_, err := Load(shippedPath(t, name), []string{"env.NCCL_PROTO=LL128"})
		if got := asError(t, err).Error(); got != "-set env.NCCL_PROTO=LL128: "+want {
			t.Errorf("%s: got %s", name, got)
		}
	}
}
