package profile

import (
	"bytes"
	"database/sql"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/akisim/akisim/commcheck"
	"github.com/akisim/akisim/internal/testfiles"
	"github.com/akisim/akisim/trace"
)

// frontier is the node the samples were recorded on: 8 GCDs, 4 NUMA domains.
var frontier = Limits{GCDs: 8, NUMA: 4}

var frontierLimits = trace.Limits{GCDs: 8, NUMADomains: 4, GCDsPerNode: 8, NUMAPerNode: 4, HBMBytes: 64 << 30, NUMABytes: 128 << 30, Libraries: commcheck.Libraries}

func imported(t *testing.T, read func(string) (*Profile, error), path string) (*Profile, []trace.Op) {
	t.Helper()
	p, err := read(path)
	if err != nil {
		t.Fatal(err)
	}
	ops, err := p.Trace(frontier)
	if err != nil {
		t.Fatal(err)
	}
	if err := trace.Check(ops, frontierLimits, path); err != nil {
		t.Fatalf("the imported trace fails its check: %v", err)
	}
	return p, ops
}

func count(ops []trace.Op, kinds ...trace.Kind) int {
	n := 0
	for _, o := range ops {
		for _, k := range kinds {
			if o.Op == k {
				n++
			}
		}
	}
	return n
}

// TestImportJSON: the JSON sample's 2 kernels and 3 copies come over with
// their GCDs, durations, sizes and streams.
func TestImportJSON(t *testing.T) {
	p, ops := imported(t, ReadRocprofJSON, "testdata/rocprofv3-json")
	// the JSON's RCCL records carry no arguments: RCCL's 2 kernels stay
	if n := count(ops, trace.Kernel); n != 4 || p.Report.Kernels != 4 || count(ops, trace.RCCLAllReduce) != 0 {
		t.Errorf("%d kernels (report %d), want the 4 recorded", n, p.Report.Kernels)
	}
	if p.Report.Approximated["RCCL calls without count and datatype arguments kept as their kernels (ncclAllReduce)"] != 2 {
		t.Errorf("report: %v", p.Report.Lines())
	}
	if n := count(ops, trace.Memcpy, trace.MemcpyAsync, trace.MemcpyPeer, trace.MemcpyPeerAsy); n != 3 || p.Report.Copies != 3 {
		t.Errorf("%d copies (report %d), want the 3 recorded", n, p.Report.Copies)
	}
	var ks, cs []trace.Op
	for _, o := range ops {
		switch {
		case o.Op == trace.Kernel:
			ks = append(ks, o)
		case o.IsCopy():
			cs = append(cs, o)
		}
	}
	if *ks[0].GCD != 0 || *ks[1].GCD != 1 || ks[0].DurationNs != 150000 || ks[1].DurationNs != 80000 || ks[0].Grid != 1048576 || ks[0].Workgroup != 256 {
		t.Errorf("kernels: %+v", ks)
	}
	if !strings.HasPrefix(ks[0].Name, "vector_add(") {
		t.Errorf("kernel name %q, want the formatted name", ks[0].Name)
	}
	h2d, peer, d2h := cs[0], cs[1], cs[2]
	if h2d.Op != trace.MemcpyAsync || h2d.Bytes != 64<<20 || peer.Op != trace.MemcpyPeerAsy || peer.Bytes != 32<<20 || d2h.Op != trace.Memcpy || d2h.Bytes != 16<<20 {
		t.Errorf("copies: %+v", cs)
	}
	if h2d.Stream != ks[0].Stream || peer.Stream != ks[1].Stream || h2d.Stream == peer.Stream {
		t.Errorf("streams: copy %d kernel %d, peer copy %d kernel %d: want each pair on its HIP stream", h2d.Stream, ks[0].Stream, peer.Stream, ks[1].Stream)
	}
	// The host's time between calls is kept: the calls span 5.9 ms.
	host := 0.0
	for _, o := range ops {
		if o.Op == trace.HostCompute {
			host += o.ComputeNs
		}
	}
	if host < 10e3 || host > 6e6 {
		t.Errorf("host time %.0f ns", host)
	}
	if p.Report.Approximated["hipMalloc kept as host time"] != 3 {
		t.Errorf("report: %v", p.Report.Lines())
	}
	// 7.0's API records name the stream and event: the second stream waits
	// for the event recorded on the first, and the stream synchronise waits
	// for its stream only.
	var rec, wait, ssync *trace.Op
	for i := range ops {
		switch o := &ops[i]; o.Op {
		case trace.EventRecord:
			rec = o
		case trace.StreamWait:
			wait = o
		case trace.StreamSync:
			ssync = o
		}
	}
	if rec == nil || wait == nil || ssync == nil || rec.Stream != h2d.Stream || wait.Stream != peer.Stream || wait.Event != rec.Event || ssync.Stream != peer.Stream {
		t.Errorf("event record %+v, stream wait %+v, stream sync %+v", rec, wait, ssync)
	}
	// 4 synchronisations of the application, and the one after its all-reduce
	if p.Report.Syncs != 5 || p.Report.Approximated["hipStreamSynchronize waits for all of its device's work (the records do not name the stream or event)"] != 0 {
		t.Errorf("report: %v", p.Report.Lines())
	}
}

// TestImportRocpd: the rocpd sample gives the trace the JSON one does:
// its calls' arguments (rocpd_arg) name their streams, as pointers matched
// to the records' stream handles through the launches, and their events.
// Without the RCCL calls' arguments, which the JSON lacks, that is.
func TestImportRocpd(t *testing.T) {
	path := dbCopy(t, `DELETE FROM %s WHERE event_id IN (SELECT e.id FROM rocpd_event e JOIN rocpd_string s ON s.id = e.category_id WHERE s.string = 'RCCL_API')`, "rocpd_arg")
	p, ops := imported(t, ReadRocpd, path)
	jp, want := imported(t, ReadRocprofJSON, "testdata/rocprofv3-json")
	if p.Report.Kernels != 4 || p.Report.Copies != 3 {
		t.Errorf("report %v, want 4 kernels and 3 copies", p.Report.Lines())
	}
	var a, b bytes.Buffer
	if err := trace.Write(&a, ops); err != nil {
		t.Fatal(err)
	}
	if err := trace.Write(&b, want); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Errorf("rocpd's trace:\n%s\nJSON's:\n%s", a.String(), b.String())
	}
	if !slices.Equal(p.Report.Lines(), jp.Report.Lines()) {
		t.Errorf("rocpd's report %v, JSON's %v", p.Report.Lines(), jp.Report.Lines())
	}
	if count(ops, trace.StreamWait) != 1 || count(ops, trace.EventRecord) != 1 || count(ops, trace.StreamSync) != 1 {
		t.Errorf("the rocpd trace lacks the stream wait, event record or stream sync:\n%s", a.String())
	}
}

// dbCopy copies the rocpd sample and runs query on it, %s its table's
// name (tables carry the run's UUID; the views cannot be changed).
func dbCopy(t *testing.T, query, table string) string {
	t.Helper()
	data, err := os.ReadFile("testdata/rocprofv3-rocpd/node01/4242_results.db")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "1_results.db")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var name string
	if err := db.QueryRow(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ?`, table+"_0%").Scan(&name); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(fmt.Sprintf(query, name)); err != nil {
		t.Fatal(err)
	}
	return path
}

// A rocpd database without rocpd_arg (or with calls on streams no work
// was launched on) still imports: such calls stay approximated, or get a
// stream of their own.
func TestImportRocpdWithoutArgs(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("testdata/rocprofv3-rocpd/node01/4242_results.db")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "1_results.db")
	os.WriteFile(path, data, 0o644)
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DROP VIEW rocpd_arg`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	p, ops := imported(t, ReadRocpd, path)
	if count(ops, trace.StreamWait) != 0 || p.Report.Approximated["hipStreamSynchronize waits for all of its device's work (the records do not name the stream or event)"] != 1 {
		t.Errorf("without arguments: report %v", p.Report.Lines())
	}
	if !nullPointer("(nil)") || !nullPointer("0") || nullPointer("0x3c4d") {
		t.Error("null pointers")
	}
}

// TestImportCSV: both CSV versions bring the kernels; the copies, which
// the CSV has no sizes for, are dropped and counted.
func TestImportCSV(t *testing.T) {
	for _, dir := range []string{"testdata/rocprofv3-csv18", "testdata/rocprofv3-csv22"} {
		p, ops := imported(t, ReadRocprofCSV, dir)
		if n := count(ops, trace.Kernel); n != 2 {
			t.Errorf("%s: %d kernels, want 2", dir, n)
		}
		if p.Report.Dropped["copies without a byte count (rocprofv3's CSV has none: import its JSON or rocpd output)"] != 3 {
			t.Errorf("%s: report %v, want the 3 copies dropped for want of sizes", dir, p.Report.Lines())
		}
		for _, o := range ops {
			if o.Op == trace.Kernel && o.DurationNs <= 0 && len(o.Access) == 0 {
				t.Errorf("%s: kernel with neither a duration nor counted bytes: %+v", dir, o)
			}
		}
	}
	// The 22-column file has stream ids: both kernels' streams differ and
	// are numbered from 1; the 18-column file numbers queues per GCD.
	_, ops := imported(t, ReadRocprofCSV, "testdata/rocprofv3-csv22/node01/4242_kernel_trace.csv")
	var streams []int
	for _, o := range ops {
		if o.Op == trace.Kernel {
			streams = append(streams, o.Stream)
		}
	}
	if len(streams) != 2 || streams[0] != 1 || streams[1] != 2 {
		t.Errorf("streams %v, want 1 and 2", streams)
	}
}

func TestImportBadInput(t *testing.T) {
	agentInfo := testfiles.Read(t, "testdata/rocprofv3-csv18/node01/4242_agent_info.csv")
	kernels := testfiles.Read(t, "testdata/rocprofv3-csv18/node01/4242_kernel_trace.csv")
	js := testfiles.Read(t, "testdata/rocprofv3-json/node01/4242_results.json")
	db := testfiles.Read(t, "testdata/rocprofv3-rocpd/node01/4242_results.db")
	cases := []struct {
		read  func(string) (*Profile, error)
		files map[string]string
		want  string
	}{
		{ReadRocprofJSON, map[string]string{"1_results.json": js[:len(js)/2]}, "1_results.json: not rocprofv3 JSON: unexpected end of JSON input"},
		{ReadRocprofJSON, map[string]string{"1_results.json": `{"traceEvents":[]}`}, `1_results.json: not rocprofv3 JSON: no "rocprofiler-sdk-tool" key`},
		{ReadRocprofJSON, map[string]string{"1_results.json": `{"rocprofiler-sdk-tool":[{"agents":[]}]}`}, `no "buffer_records"`},
		{ReadRocprofJSON, map[string]string{"1_results.json": strings.Replace(js, `"handle": 304`, `"handle": 999`, 1)}, "agent handle"},
		{ReadRocprofCSV, map[string]string{"1_kernel_trace.csv": kernels}, "1_agent_info.csv: missing"},
		{ReadRocpd, map[string]string{"1_results.db": db[:len(db)/2]}, "1_results.db: not a rocpd database (rocpd_info_agent:"},
		{ReadRocpd, map[string]string{"1_results.db": "SQLite format 3\x00 not really"}, "1_results.db: not a rocpd database"},
		{ReadRocprofCSV, map[string]string{"1_agent_info.csv": agentInfo, "1_kernel_trace.csv": strings.Replace(kernels, `"Grid_Size_Z"`, `"Grid_Depth"`, 1)},
			`1_kernel_trace.csv:1: header has no column "Grid_Size_Z"`},
		{ReadRocprofCSV, map[string]string{"1_agent_info.csv": agentInfo, "1_kernel_trace.csv": strings.Replace(kernels, `,81,`, `,x81,`, 1)},
			`1_kernel_trace.csv:2: Queue_Id: want a non-negative integer, got "x81"`},
		{ReadRocprofCSV, map[string]string{"1_agent_info.csv": agentInfo, "1_kernel_trace.csv": strings.Replace(kernels, `"KERNEL_DISPATCH",4,`, `"KERNEL_DISPATCH",40,`, 1)},
			`1_kernel_trace.csv:2: Agent_Id: "40" is not an agent of agent_info.csv`},
	}
	for _, c := range cases {
		dir := testfiles.Write(t, c.files)
		_, err := c.read(dir)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: error %v, want one line containing %q", keys(c.files), err, c.want)
		}
	}
}

// TestImportCSVParseErrors: a malformed row in any of the CSV files the
// imports read (a bare quote, a stray character after a closing quote, a
// short record) is a one-line error naming file and line, never a panic.
func TestImportCSVParseErrors(t *testing.T) {
	const dir22 = "testdata/rocprofv3-csv22/node01/4242"
	sample := map[string]string{}
	for _, f := range []string{"_agent_info.csv", "_kernel_trace.csv", "_memory_copy_trace.csv", "_hip_api_trace.csv", "_counter_collection.csv"} {
		sample["1"+f] = testfiles.Read(t, dir22+f)
	}
	legacy := map[string]string{}
	for _, f := range []string{"hip_api_trace.txt", "hcc_ops_trace.txt", "results.csv"} {
		legacy[f] = testfiles.Read(t, "testdata/rocprof-legacy/"+f)
	}
	bad := []struct{ row, want string }{
		{`"KERNEL_DISPATCH"x,1`, `extraneous or missing " in quoted-field`},
		{`a"b,1`, `bare " in non-quoted-field`},
		{`"KERNEL_DISPATCH",1`, "wrong number of fields"},
		{`"unterminated`, `extraneous or missing " in quoted-field`},
	}
	for _, set := range []struct {
		read  func(string) (*Profile, error)
		files map[string]string
	}{{ReadRocprofCSV, sample}, {ReadRocprofLegacy, legacy}} {
		for name, body := range set.files {
			if !strings.HasSuffix(name, ".csv") {
				continue
			}
			lines := strings.Count(strings.TrimSuffix(body, "\n"), "\n") + 2 // the bad row's line
			for _, b := range bad {
				files := maps.Clone(set.files)
				files[name] = body + b.row + "\n"
				_, err := set.read(testfiles.Write(t, files))
				want := fmt.Sprintf("%s:%d: ", name, lines)
				if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), b.want) || strings.Contains(err.Error(), "\n") {
					t.Errorf("%s ending %s: error %v, want one line with %q and %q", name, b.row, err, want, b.want)
				}
			}
		}
	}
}

func keys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// FuzzRocprofJSON: no input makes the JSON reader or the trace builder
// panic, and what they accept passes the trace check or is refused by it.
func FuzzRocprofJSON(f *testing.F) {
	js, err := os.ReadFile("testdata/rocprofv3-json/node01/4242_results.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(js)
	f.Add([]byte(`{"rocprofiler-sdk-tool":[{"agents":[],"buffer_records":{}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		file := filepath.Join(dir, "1_results.json")
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := ReadRocprofJSON(file)
		if err != nil {
			return
		}
		if ops, err := p.Trace(frontier); err == nil {
			_ = trace.Check(ops, frontierLimits, file)
		}
	})
}

// FuzzRocprofCSV: the same for the CSV reader, on a kernel trace beside
// the sample's agent_info.csv.
func FuzzRocprofCSV(f *testing.F) {
	agentInfo, err := os.ReadFile("testdata/rocprofv3-csv22/node01/4242_agent_info.csv")
	if err != nil {
		f.Fatal(err)
	}
	kernels, err := os.ReadFile("testdata/rocprofv3-csv22/node01/4242_kernel_trace.csv")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(kernels)
	f.Add([]byte("\"Kind\",\"Agent_Id\"\n\"KERNEL_DISPATCH\",\"GPU 9\"\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "1_agent_info.csv"), agentInfo, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "1_kernel_trace.csv"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := ReadRocprofCSV(dir)
		if err != nil {
			return
		}
		if ops, err := p.Trace(frontier); err == nil {
			_ = trace.Check(ops, frontierLimits, dir)
		}
	})
}

// TestImportLegacy: legacy rocprof's text traces give the kernels with the
// grids of results.csv, and the copies with the sizes of their HIP calls.
func TestImportLegacy(t *testing.T) {
	p, ops := imported(t, ReadRocprofLegacy, "testdata/rocprof-legacy")
	if p.Report.Kernels != 2 || p.Report.Copies != 3 {
		t.Fatalf("report %v, want 2 kernels and 3 copies", p.Report.Lines())
	}
	var grids []int64
	var bytes []int64
	for _, o := range ops {
		switch {
		case o.Op == trace.Kernel:
			grids = append(grids, o.Grid)
		case o.IsCopy():
			bytes = append(bytes, o.Bytes)
		}
	}
	if !slices.Equal(grids, []int64{1048576, 65536}) || !slices.Equal(bytes, []int64{64 << 20, 32 << 20, 16 << 20}) {
		t.Errorf("grids %v, copy sizes %v", grids, bytes)
	}
	if p.Report.Approximated["device-to-device copies kept on their executing device (the record names one device)"] != 1 {
		t.Errorf("report %v", p.Report.Lines())
	}
	api := testfiles.Read(t, "testdata/rocprof-legacy/hip_api_trace.txt")
	ops2 := testfiles.Read(t, "testdata/rocprof-legacy/hcc_ops_trace.txt")
	for _, c := range []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{"hip_api_trace.txt": api}, "no hcc_ops_trace.txt"},
		{map[string]string{"hip_api_trace.txt": "hipMalloc() :1\n", "hcc_ops_trace.txt": ops2}, "hip_api_trace.txt:1: not a HIP API line"},
		{map[string]string{"hcc_ops_trace.txt": "5:4 4:1 k:1:1\n"}, "hcc_ops_trace.txt:1: ends before it begins"},
	} {
		if _, err := ReadRocprofLegacy(testfiles.Write(t, c.files)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

// TestImportCounters: with FETCH_SIZE and WRITE_SIZE (KiB) a kernel's
// bytes, not its recorded time, go into the trace: CSV and JSON alike.
func TestImportCounters(t *testing.T) {
	_, ops := imported(t, ReadRocprofCSV, "testdata/rocprofv3-csv22")
	var ks []trace.Op
	for _, o := range ops {
		if o.Op == trace.Kernel {
			ks = append(ks, o)
		}
	}
	if len(ks) != 2 || ks[0].DurationNs != 0 || len(ks[0].Access) != 2 || ks[0].Access[0].Bytes != 8<<20 || ks[0].Access[1].Bytes != 4<<20 ||
		len(ks[1].Access) != 2 || ks[1].Access[1].Bytes != 512 {
		t.Errorf("counted kernels: %+v", ks)
	}
	// The same counters in the JSON layout: per instance, summed.
	js := testfiles.Read(t, "testdata/rocprofv3-json/node01/4242_results.json")
	pmc := `"counters": [{"id": {"handle": 7}, "name": "FETCH_SIZE"}, {"id": {"handle": 8}, "name": "WRITE_SIZE"}],
 "callback_records": {"counter_collection": [{"dispatch_data": {"correlation_id": {"internal": 5}}, "records": [
  {"counter_id": {"handle": 7}, "value": 4096}, {"counter_id": {"handle": 7}, "value": 4096}, {"counter_id": {"handle": 8}, "value": 4096}]}]},
 "strings":`
	dir := testfiles.Write(t, map[string]string{"1_results.json": strings.Replace(js, `"strings":`, pmc, 1)})
	_, ops = imported(t, ReadRocprofJSON, dir)
	for _, o := range ops {
		if o.Op == trace.Kernel && o.Name[:3] == "vec" && (len(o.Access) != 2 || o.Access[0].Bytes != 8<<20 || o.Access[1].Bytes != 4<<20) {
			t.Errorf("JSON counted kernel: %+v", o)
		}
	}
}

// ReadRocprof finds rocprofv3's output by what a folder holds or a file's
// name: the rocpd, JSON and CSV samples each read, a file of another kind
// is refused by name.
func TestReadRocprofFindsTheFormat(t *testing.T) {
	for _, path := range []string{"testdata/rocprofv3-rocpd", "testdata/rocprofv3-json", "testdata/rocprofv3-csv22"} {
		if p, err := ReadRocprof(path); err != nil || len(p.Kernels) == 0 {
			t.Errorf("%s: %v", path, err)
		}
	}
	if _, err := ReadRocprof("profile_test.go"); err == nil || !strings.Contains(err.Error(), "not rocprofv3 output") {
		t.Errorf("a Go file: %v", err)
	}
}
