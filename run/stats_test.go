package run

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/job"
	"github.com/akisim/akisim/report"
	"github.com/akisim/akisim/trace"
	"github.com/akisim/akisim/workloads"
)

// blocks splits stats.txt into its dumps, each a map of stat name to
// value text, checking the begin and end markers pair up.
func blocks(t *testing.T, text string) []map[string]string {
	t.Helper()
	var out []map[string]string
	var cur map[string]string
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "---------- Begin Simulation Statistics ----------":
			if cur != nil {
				t.Fatal("Begin inside a block")
			}
			cur = map[string]string{}
		case line == "---------- End Simulation Statistics   ----------":
			if cur == nil {
				t.Fatal("End outside a block")
			}
			out = append(out, cur)
			cur = nil
		case line == "":
		default:
			f := strings.Fields(line)
			if cur == nil || len(f) < 2 {
				t.Fatalf("stray line %q", line)
			}
			cur[f[0]] = f[1]
		}
	}
	if cur != nil {
		t.Fatal("block without End")
	}
	return out
}

func statsText(t *testing.T, res *Result) string {
	t.Helper()
	var b bytes.Buffer
	if err := report.WriteStats(&b, res.Stats.List()); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// peerCopy is a trace of one hipMemcpyPeer of n bytes from GCD 0 to GCD 1
// followed by a device synchronisation.
func peerCopy(n int64) []trace.Op {
	return []trace.Op{{Op: trace.Malloc, Buf: "a", GCD: intp(0), Bytes: n}, {Op: trace.Malloc, Buf: "b", GCD: intp(1), Bytes: n},
		{Op: trace.MemcpyPeerAsy, Src: "a", Dst: "b", Bytes: n, Stream: 1}, {Op: trace.DeviceSync}}
}

// hostCopyStream runs a 1 MiB STREAM copy on GCDs 0 and 4 with the arrays
// placed by alloc, then the extra runs.
func hostCopyStream(t *testing.T, c *config.Node, alloc string, extra ...job.Run) *Result {
	t.Helper()
	st := workloads.Stream{GCDs: []int{0, 4}, Alloc: alloc, Sizes: []int64{1 << 20}, Kernels: []string{"copy"},
		Iterations: 1, Workgroup: 128, NUMA: c.Host.GCDNUMA}
	runs, err := st.Runs()
	if err != nil {
		t.Fatal(err)
	}
	res, err := Execute(c, append(runs, extra...))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// stats.txt holds one block per run, as one m5.stats.dump() per run: its
// simTicks is the run's own simulated time in picoseconds (the host
// returns from its last synchronisation at the end), and its counters are
// the run's own, not sums over runs.
func TestStatsOneBlockPerRun(t *testing.T) {
	sizes := []int64{4 << 20, 16 << 20}
	res, err := Execute(frontier(t), []job.Run{workloads.TraceRun("small", peerCopy(sizes[0])), workloads.TraceRun("big", peerCopy(sizes[1]))})
	if err != nil {
		t.Fatal(err)
	}
	text := statsText(t, res)
	if b, e := strings.Count(text, "Begin Simulation Statistics"), strings.Count(text, "End Simulation Statistics"); b != 2 || e != 2 {
		t.Fatalf("%d Begin and %d End markers, want 2 each", b, e)
	}
	bl := blocks(t, text)
	if !strings.Contains(text, "# Run small (") || !strings.Contains(text, "# Run big (") {
		t.Error("the blocks do not name their runs")
	}
	if len(res.Stats.layouts) != 1 {
		t.Errorf("%d stat layouts for two runs of one node, want 1 (shared)", len(res.Stats.layouts))
	}
	var returns []float64
	for _, r := range res.Rows {
		if r.Metric == "return" {
			returns = append(returns, r.Value)
		}
	}
	if len(returns) != 2 {
		t.Fatalf("%d synchronisations in the rows, want 2", len(returns))
	}
	for i, b := range bl {
		want := strconv.FormatFloat(math.Round(returns[i]*1e6), 'f', 0, 64)
		if b["simTicks"] != want || b["finalTick"] != want {
			t.Errorf("run %d: simTicks %s, finalTick %s, want the run's %s ps", i, b["simTicks"], b["finalTick"], want)
		}
		if b["simFreq"] != "1000000000000" || b["runIndex"] != strconv.Itoa(i) {
			t.Errorf("run %d: simFreq %s, runIndex %s", i, b["simFreq"], b["runIndex"])
		}
		copied := 0
		for k := 0; k < 5; k++ {
			v, _ := strconv.Atoi(b["node.gcd0.sdma"+strconv.Itoa(k)+".bytesCopied"])
			copied += v
		}
		if int64(copied) != sizes[i] || b["node.xgmi.b0_1.dir0.payloadBytes"] != strconv.FormatInt(sizes[i], 10) {
			t.Errorf("run %d: GCD 0 engines copied %d, bundle 0-1 carried %s, want %d each", i, copied,
				b["node.xgmi.b0_1.dir0.payloadBytes"], sizes[i])
		}
		for _, k := range []string{"simSeconds", "hostSeconds", "hostTickRate"} {
			if _, ok := b[k]; !ok {
				t.Errorf("run %d: no %s", i, k)
			}
		}
	}
	if bl[0]["simTicks"] == bl[1]["simTicks"] {
		t.Error("both runs took the same time: the sizes did not reach the stats")
	}
}

// Only lines starting with "host" differ between two simulations of the
// same runs; the rows are byte-identical.
func TestStatsDeterministicButHost(t *testing.T) {
	c := frontier(t)
	var texts, csvs [2]string
	for i := range texts {
		res := hostCopyStream(t, c, "host", workloads.TraceRun("peer", peerCopy(1<<20)))
		var b bytes.Buffer
		if err := report.WriteCSV(&b, res.Rows); err != nil {
			t.Fatal(err)
		}
		csvs[i], texts[i] = b.String(), statsText(t, res)
	}
	if csvs[0] != csvs[1] {
		t.Error("rows differ between two identical simulations")
	}
	var kept [2][]string
	for i, text := range texts {
		host := 0
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, "host") {
				host++
				continue
			}
			kept[i] = append(kept[i], l)
		}
		if host != 2*2 {
			t.Errorf("%d host lines, want hostSeconds and hostTickRate in each of 2 blocks", host)
		}
	}
	if !reflect.DeepEqual(kept[0], kept[1]) {
		t.Error("stats.txt differs beyond its host lines")
	}
}

// Every stat names an object of config.json: its name without the stat
// (and without a link direction) is the path of an object in the tree.
func TestStatNamesAreConfigPaths(t *testing.T) {
	c := frontier(t)
	res, err := Execute(c, []job.Run{workloads.TraceRun("peer", peerCopy(1<<20))})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := c.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var tree map[string]any
	if err := json.Unmarshal(buf.Bytes(), &tree); err != nil {
		t.Fatal(err)
	}
	paths := map[string]bool{}
	var walk func(o map[string]any)
	walk = func(o map[string]any) {
		paths[o["path"].(string)] = true
		for _, v := range o {
			if ch, ok := v.(map[string]any); ok {
				walk(ch)
			}
		}
	}
	walk(tree)
	dir := regexp.MustCompile(`\.dir[01]$`)
	n := 0
	for _, s := range res.Stats.dump(0) {
		i := strings.LastIndexByte(s.Name, '.')
		if i < 0 {
			continue // gem5's root statistics
		}
		obj := dir.ReplaceAllString(s.Name[:i], "")
		if !paths[obj] {
			t.Errorf("stat %s: no object %s in config.json", s.Name, obj)
		}
		n++
	}
	if n < 100 {
		t.Errorf("only %d component stats", n)
	}
}

// endpoint is how every row names a GCD, a NUMA domain or a list of GCDs.
var endpoint = regexp.MustCompile(`^(gcd|numa)[0-9]+(\+(gcd|numa)[0-9]+)*$`)

func checkEndpoints(t *testing.T, rows []report.Row) {
	t.Helper()
	if len(rows) == 0 {
		t.Fatal("no rows")
	}
	for _, r := range rows {
		for _, e := range []string{r.Src, r.Dst} {
			if e != "" && !endpoint.MatchString(e) {
				t.Errorf("%s %s row: endpoint %q", r.Workload, r.Case, e)
			}
		}
	}
}

// Rows name endpoints one way in every workload, following the data.
func TestRowEndpoints(t *testing.T) {
	c := frontier(t)
	t.Run("p2p", func(t *testing.T) {
		p := workloads.P2P{GCDs: 3, Bytes: 1 << 20, Repeat: 1, LatencyBytes: 16, LatencyIters: 2,
			Cases: []string{"unidirectional", "bidirectional", "latency"}}
		res, err := Execute(c, p.Runs())
		if err != nil {
			t.Fatal(err)
		}
		checkEndpoints(t, res.Rows)
		if len(res.Rows) != 27 || res.Rows[5].Src != "gcd1" || res.Rows[5].Dst != "gcd2" {
			t.Errorf("%d rows, row 5 %s -> %s, want 27 rows and gcd1 -> gcd2", len(res.Rows), res.Rows[5].Src, res.Rows[5].Dst)
		}
		if err := report.WriteP2P(&bytes.Buffer{}, res.Rows, 3); err != nil {
			t.Errorf("the p2p matrices do not read the rows: %v", err)
		}
	})
	t.Run("stream", func(t *testing.T) {
		host := report.NUMA(c.Host.GCDNUMA[0]) + "+" + report.NUMA(c.Host.GCDNUMA[4])
		for alloc, src := range map[string]string{"host": host, "local": "gcd0+gcd4", "2": "gcd2"} {
			res := hostCopyStream(t, c, alloc)
			checkEndpoints(t, res.Rows)
			if r := res.Rows[0]; r.Src != src || r.Dst != "gcd0+gcd4" {
				t.Errorf("-alloc %s: %s -> %s, want %s -> gcd0+gcd4", alloc, r.Src, r.Dst, src)
			}
		}
	})
	t.Run("commscope", func(t *testing.T) {
		cs := workloads.CommScope{GCDs: c.GCD.Count, NUMADomains: c.Host.NUMADomains, MinLog2: 12, MaxLog2: 12, Iterations: 1,
			Filter: regexp.MustCompile(`/3/1/|(GPUWrGPU[a-z_]*|prefetch_managed_GPUToGPU)/1/3/`)}
		runs := cs.Runs()
		res, err := Execute(c, runs)
		if err != nil {
			t.Fatal(err)
		}
		checkEndpoints(t, res.Rows)
		// the data's direction: numa3 -> gcd1 for host-to-GPU families,
		// gcd1 -> numa3 for GPU-to-host ones, gcd3 -> gcd1 for GPU pairs
		// (gcd1 -> gcd3 for the families Comm|Scope runs with src <= dst)
		want := map[string][2]string{
			"Comm_hipMemcpyAsync_PinnedToGPU": {"numa3", "gcd1"}, "Comm_hipMemcpyAsync_GPUToPinned": {"gcd1", "numa3"},
			"Comm_hipMemcpyAsync_PageableToGPU": {"numa3", "gcd1"}, "Comm_hipMemcpyAsync_GPUToPageable": {"gcd1", "numa3"},
			"Comm_hipMemcpyAsync_GPUToGPU": {"gcd3", "gcd1"}, "Comm_implicit_mapped_GPURdHost": {"numa3", "gcd1"},
			"Comm_implicit_mapped_GPUWrHost": {"gcd1", "numa3"}, "Comm_implicit_mapped_GPUWrGPU": {"gcd1", "gcd3"},
			"Comm_implicit_mapped_HostWrGPU": {"numa3", "gcd1"}, "Comm_hipMemcpy_NUMAToGPU": {"numa3", "gcd1"},
			"Comm_prefetch_managed_HostToGPU": {"numa3", "gcd1"}, "Comm_prefetch_managed_GPUToHost": {"gcd1", "numa3"},
			"Comm_prefetch_managed_GPUToGPU": {"gcd1", "gcd3"}, "Comm_hipManaged_HostToGPUWriteDst": {"numa3", "gcd1"},
		}
		for _, g := range []string{"coarse", "fine"} {
			want["Comm_implicit_managed_GPURdHost_"+g] = [2]string{"numa3", "gcd1"}
			want["Comm_implicit_managed_GPUWrHost_"+g] = [2]string{"gcd1", "numa3"}
			want["Comm_implicit_managed_GPUWrGPU_"+g] = [2]string{"gcd1", "gcd3"}
			want["Comm_implicit_managed_HostWrGPU_"+g] = [2]string{"numa3", "gcd1"}
		}
		seen := map[string]bool{}
		for _, r := range res.Rows {
			if w, ok := want[r.Case]; !ok || r.Src != w[0] || r.Dst != w[1] {
				t.Errorf("%s: %s -> %s, want %v", r.Case, r.Src, r.Dst, w)
			}
			seen[r.Case] = true
		}
		if len(seen) != len(want) {
			t.Errorf("families %v, want all of %v", seen, want)
		}
		// Google Benchmark names come back from the endpoints exactly.
		var names []string
		for _, g := range report.GBenchRuns(res.Rows) {
			names = append(names, g.Name)
		}
		if !reflect.DeepEqual(names, res.Runs) {
			t.Errorf("gbench names %q, want the runs %q", names, res.Runs)
		}
	})
	t.Run("trace", func(t *testing.T) {
		ops := []trace.Op{{Op: trace.HostMalloc, Buf: "h", NUMA: intp(2), Bytes: 1 << 20}, {Op: trace.Malloc, Buf: "d", GCD: intp(5), Bytes: 1 << 20},
			{Op: trace.MemcpyAsync, Src: "h", Dst: "d", Bytes: 1 << 20, Stream: 1},
			{Op: trace.Kernel, Name: "touch", GCD: intp(5), Stream: 1, Grid: 1024, Workgroup: 256,
				Access: []trace.Access{{Buf: "d", Mode: "read", Bytes: 1 << 20}}},
			{Op: trace.DeviceSync},
			{Op: trace.HostAccess, NUMA: intp(1), Access: []trace.Access{{Buf: "d", Mode: "write", Bytes: 1 << 16}}},
			{Op: trace.EventRecord, Event: "e"}, {Op: trace.DeviceSync}}
		res, err := Execute(c, []job.Run{workloads.TraceRun("t", ops)})
		if err != nil {
			t.Fatal(err)
		}
		checkEndpoints(t, res.Rows)
		got := map[string][2]string{}
		for _, r := range res.Rows {
			got[strings.SplitN(r.Case, ":", 2)[1]] = [2]string{r.Src, r.Dst}
		}
		want := map[string][2]string{"memcpy_async": {"numa2", "gcd5"}, "touch": {"gcd5", ""},
			"host_access": {"numa1", ""}, "event_record": {"", ""}, "device_sync": {"", ""}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("endpoints by operation %v, want %v", got, want)
		}
	})
}

// A message between nodes shows on the network's stats: osu_bw from GCD 0
// of node 0 to GCD 0 of node 1 (NIC 0 of each, on switch 0 of their
// chassis: one switch, no switch-to-switch link) carries at least its
// bytes out of NIC 0's PCIe link and over both NICs' cables; links that
// carried nothing are left out, and one node has no network lines.
func TestStatsNetworkLinks(t *testing.T) {
	const n = 4 << 20
	c := frontier(t, "network.nodes=2")
	runs, err := workloads.OSU{Bench: "osu_bw", GCDs: []int{0, 8}, Sizes: []int64{n}, Window: 4, Iterations: 1}.Runs()
	if err != nil {
		t.Fatal(err)
	}
	res, err := Execute(c, runs)
	if err != nil {
		t.Fatal(err)
	}
	b := blocks(t, statsText(t, res))[0]
	for _, name := range []string{"node.nic.nic0.pcie.dir0", "node.nic.nic0.cable.dir0", "node.nic.nic4.cable.dir1", "node.nic.nic4.pcie.dir1"} {
		v, err := strconv.ParseFloat(b[name+".payloadBytes"], 64)
		if err != nil || v < 2*4*n { // a warm-up and a timed window of 4
			t.Errorf("%s.payloadBytes = %q, want at least %d", name, b[name+".payloadBytes"], 2*4*n)
		}
	}
	for name := range b {
		if strings.HasPrefix(name, "node.network.switch") || strings.HasPrefix(name, "node.nic.nic1.") {
			t.Errorf("%s: an idle link is listed", name)
		}
	}
	one, err := Execute(frontier(t), []job.Run{workloads.TraceRun("peer", peerCopy(1<<20))})
	if err != nil {
		t.Fatal(err)
	}
	for name := range blocks(t, statsText(t, one))[0] {
		if strings.HasPrefix(name, "node.nic.") || strings.HasPrefix(name, "node.network.") {
			t.Errorf("one node lists %s", name)
		}
	}
}

// The nodes of a cluster no run touched are not built, yet their GCDs,
// host links and DRAM are listed as a built node's that never ran: the
// same stats, in id order, all zero.
func TestStatsOfNodesNotBuilt(t *testing.T) {
	c := loadConfig(t, "frontier-cluster.toml", "network.nodes=3")
	runs, err := workloads.OSU{Bench: "osu_latency", GCDs: []int{0, 8}, Sizes: []int64{8}, Window: 64, Iterations: 1}.Runs()
	if err != nil {
		t.Fatal(err)
	}
	res, err := Execute(c, runs)
	if err != nil {
		t.Fatal(err)
	}
	var d report.Dump
	for d = range res.Stats.List() {
		break
	}
	at := map[string]int{}
	for i, s := range d {
		at[s.Name] = i
	}
	suffixes := func(g int) (names []string) { // GCD g's stats, without its prefix, in order
		p := "node.gcd" + strconv.Itoa(g) + "."
		for _, s := range d {
			if rest, ok := strings.CutPrefix(s.Name, p); ok {
				names = append(names, rest)
			}
		}
		return
	}
	if want := suffixes(8); len(want) == 0 || !reflect.DeepEqual(suffixes(16), want) || !reflect.DeepEqual(suffixes(23), want) {
		t.Fatalf("GCD 16's stats %v, GCD 23's %v, want GCD 8's %v", suffixes(16), suffixes(23), want)
	}
	for _, name := range []string{"node.gcd16.hub.forwarded", "node.gcd23.sdma0.bytesCopied", "node.hostlink.gcd16.dir1.payloadBytes",
		"node.hostlink.gcd23.dir1.busy", "node.numa11.dram.busy", "node.host.cores.accesses", "node.hostlink.gcd0.dir0.packets"} {
		if _, ok := at[name]; !ok {
			t.Fatalf("no %s", name)
		}
	}
	part := regexp.MustCompile(`^node\.(gcd|hostlink\.gcd|numa)(\d+)\.`)
	for _, s := range d { // node 2 holds GCDs 16-23 and NUMA domains 8-11
		if m := part.FindStringSubmatch(s.Name); m != nil {
			id, _ := strconv.Atoi(m[2])
			if first := map[string]int{"gcd": 16, "hostlink.gcd": 16, "numa": 8}[m[1]]; id >= first && s.Value != 0 {
				t.Errorf("%s = %v on a node never built, want 0", s.Name, s.Value)
			}
		}
	}
	if at["node.gcd15.hub.forwarded"] > at["node.gcd16.hub.forwarded"] || at["node.gcd23.sdma0.bytesCopied"] > at["node.hostlink.gcd0.dir0.packets"] ||
		at["node.hostlink.gcd23.dir1.busy"] > at["node.host.cores.accesses"] || at["node.numa11.dram.busy"] != len(d)-1 {
		t.Error("the stats of the nodes not built are out of place")
	}
	if want := "from the host to GCD 16"; !strings.Contains(d[at["node.hostlink.gcd16.dir1.packets"]].Desc, want) {
		t.Errorf("host link 16's description %q, want it to say %q", d[at["node.hostlink.gcd16.dir1.packets"]].Desc, want)
	}
}
